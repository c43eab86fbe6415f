// The language_id a Judge0 submission was sent with, when it is not the id its runtime is listed
// under (71, Python 3.8, runs on our Python 3.11 listed as 92): our record keeps the runtime, not the
// id, so the id is kept here beside it, in KV for as long as the record is kept, and every answer
// echoes it. A submission sent with its runtime's own id stores nothing.
import { config } from "../../env.ts";
import type { Env } from "../../env.ts";

const key = (token: string) => `judge0-language-id:${token}`;
/** KV's shortest expiry. */
const MIN_TTL_SECS = 60;

export async function rememberLanguageId(env: Env, token: string, sent: number, listed: number | undefined): Promise<void> {
  if (sent === listed) return;
  const ttl = Math.max(MIN_TTL_SECS, Math.ceil(config(env).retentionMs / 1000));
  await env.KEYS.put(key(token), String(sent), { expirationTtl: ttl });
}

/** The ids kept for these tokens (absent: the runtime's own id answers). */
export async function sentLanguageIds(env: Env, tokens: readonly string[]): Promise<Map<string, number>> {
  const distinct = [...new Set(tokens)];
  const values = await Promise.all(distinct.map((token) => env.KEYS.get(key(token))));
  const out = new Map<string, number>();
  distinct.forEach((token, i) => {
    const value = Number(values[i]);
    if (values[i] !== null && Number.isInteger(value)) out.set(token, value);
  });
  return out;
}
