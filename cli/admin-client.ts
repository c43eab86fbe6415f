// The admin API client shared by every command: base URL and operator token resolution,
// JSON requests, and HTTP failures turned into CliErrors with distinct exit codes.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { Agent, fetch } from "undici";

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Exit codes: 1 usage or request error, 2 not authenticated, 3 not found, 4 server or network failure. */
export const EXIT = { failure: 1, unauthorized: 2, notFound: 3, unavailable: 4 } as const;

export interface GlobalOptions {
  url?: string;
  token?: string;
  insecure?: boolean;
  json?: boolean;
}

interface LocalStack {
  operator_token?: string;
  edge_url?: string;
}

/** What `npm start` wrote: the edge's URL and the operator token of the local stack. */
const LOCAL_STATE = join(process.env.CODECELL_STATE_DIR ?? join(import.meta.dirname, "..", ".state"), "dev.json");

function localStack(): LocalStack | undefined {
  if (!existsSync(LOCAL_STATE)) return undefined;
  try {
    return JSON.parse(readFileSync(LOCAL_STATE, "utf8")) as LocalStack;
  } catch {
    return undefined;
  }
}

export class AdminClient {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #dispatcher: Agent | undefined;

  constructor(options: GlobalOptions) {
    const local = localStack();
    const url = options.url ?? process.env.CODECELL_URL ?? local?.edge_url ?? (local ? `https://127.0.0.1:${process.env.EDGE_PORT ?? 8787}` : undefined);
    const token = options.token ?? process.env.CODECELL_OPERATOR_TOKEN ?? local?.operator_token;
    if (!url) throw new CliError("no edge URL: pass --url or set CODECELL_URL (or start the local stack with npm start)");
    if (!token) throw new CliError("no operator token: pass --token or set CODECELL_OPERATOR_TOKEN");
    this.baseUrl = url.replace(/\/+$/, "");
    this.#token = token;
    // The local stack's certificate is wrangler's self-signed one; trusting it is opt-in, or
    // automatic when talking to the local stack on loopback.
    const loopback = /^https:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(this.baseUrl);
    this.#dispatcher = options.insecure || (loopback && local) ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Awaited<ReturnType<typeof fetch>>;
    try {
      response = await fetch(`${this.baseUrl}/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${this.#token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.#dispatcher,
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new CliError(`cannot reach ${this.baseUrl}: ${cause}`, EXIT.unavailable);
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below
    }
    if (!response.ok) {
      const detail = (parsed as { error?: string; message?: string } | undefined) ?? {};
      const message = [detail.error, detail.message].filter(Boolean).join(": ") || text.slice(0, 200) || response.statusText;
      const exitCode = response.status === 401 || response.status === 403 ? EXIT.unauthorized : response.status === 404 ? EXIT.notFound : response.status >= 500 ? EXIT.unavailable : EXIT.failure;
      throw new CliError(`${method} /admin${path} failed (${response.status}): ${message}`, exitCode);
    }
    return parsed as T;
  }
}

/** The program's global options, from any subcommand. */
export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

export function client(command: Command): AdminClient {
  return new AdminClient(globals(command));
}
