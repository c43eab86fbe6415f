// Where the CLI finds the edge and its credentials: a flag, else the environment, else the local
// development state that `npm start` writes (<CODECELL_STATE_DIR or .state>/dev.json), else the
// default local stack. Every command resolves its base URL here.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withoutTrailing } from "../proto/trim.ts";

/** What `npm start` records about the stack it started. */
export interface LocalStack {
  edge_url?: string;
  operator_token?: string;
  api_key?: string;
}

type Env = Record<string, string | undefined>;

export const DEFAULT_EDGE_PORT = 8787;

export function localStatePath(env: Env = process.env): string {
  return join(env.CODECELL_STATE_DIR ?? join(import.meta.dirname, "..", ".state"), "dev.json");
}

/** The local stack's state file, or undefined when there is none (or it is unreadable). */
export function localStack(env: Env = process.env): LocalStack | undefined {
  const path = localStatePath(env);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LocalStack;
  } catch {
    return undefined;
  }
}

/** The edge's base URL (no trailing slash): --url > CODECELL_URL > the state file > the default. */
export function edgeUrl(flag: string | undefined, env: Env = process.env, local = localStack(env)): string {
  const url = flag || env.CODECELL_URL || local?.edge_url || `https://127.0.0.1:${env.EDGE_PORT || DEFAULT_EDGE_PORT}`;
  return withoutTrailing(url, "/");
}

/** The operator token: --token > CODECELL_OPERATOR_TOKEN > the state file. */
export function operatorToken(flag: string | undefined, env: Env = process.env, local = localStack(env)): string | undefined {
  return flag || env.CODECELL_OPERATOR_TOKEN || local?.operator_token;
}

/** A user's API key: --key > CODECELL_API_KEY > the state file's development key. */
export function apiKey(flag: string | undefined, env: Env = process.env, local = localStack(env)): string | undefined {
  return flag || env.CODECELL_API_KEY || local?.api_key;
}

/** The local stack serves wrangler's self-signed certificate on loopback. */
export function isLoopback(url: string): boolean {
  return /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(url);
}
