// API-key and operator-token checks. Keys are looked up by their SHA-256 (keys/records.ts); the
// stored hash is then compared in constant time so nothing about a near-miss leaks through timing.
import type { Caller, KeyMeta } from "../contracts/key.ts";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { IsolateCache } from "../lib/isolate-cache.ts";
import { constantTimeEqual } from "../lib/keys.ts";
import { keyHash } from "../keys/api-key.ts";
import { keyByHash } from "../keys/records.ts";
import { knock, operatorToken, throttled } from "../doors/guard.ts";

export type { Caller };

const UNAUTHORIZED = { error: "unauthorized", message: "missing or invalid API key" };

/** Saves a KV read on hot keys; revocation takes effect within the TTL. */
const cache = new IsolateCache<KeyMeta | null>(10_000, 10_000);

/** `key`: the API key as sent (default: the X-API-Key header; the compatibility routes pass their own). */
export async function authenticate(request: Request, env: Env, key = request.headers.get("x-api-key")): Promise<Caller> {
  if (!key || key.length > 256) throw new HttpError(401, UNAUTHORIZED);
  const hash = await keyHash(key);
  const meta = await cache.through(hash, () => keyByHash(env.KEYS, hash), (found) => found !== null);
  if (!meta || !constantTimeEqual(meta.hash, hash)) throw new HttpError(401, UNAUTHORIZED);
  return meta;
}

export function forgetKey(hash: string): void {
  cache.forget(hash);
}

/** /admin: the bearer operator token, through the doors' guard (doors/guard.ts): 503 weak, 429 throttled, 401 wrong. */
export async function authenticateOperator(request: Request, env: Env): Promise<void> {
  const expected = operatorToken(env, "admin API");
  const header = request.headers.get("authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  const v = await knock(request, env, "admin", expected, token);
  if (v.verdict === "throttled") {
    const t = throttled(v);
    throw new HttpError(429, t.body, t.headers);
  }
  if (v.verdict === "fail") throw new HttpError(401, { error: "unauthorized", message: "missing or invalid operator token" });
}
