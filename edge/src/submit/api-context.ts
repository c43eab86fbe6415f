// What every public API route shares: the caller, its plan, its rate info, and the counting of a
// request against the key's rolling rate limit (in its KeyDO, at the plan's rate).
import type { Caller } from "../contracts/key.ts";
import type { Env } from "../env.ts";
import type { RateInfo } from "../contracts/key.ts";
import { HttpError } from "../lib/http.ts";
import { planOf, quotaOf } from "../plans/plans.ts";
import type { Plan } from "../plans/plans.ts";
import { keyObject } from "../stubs.ts";

export interface ApiContext {
  caller: Caller;
  rate: RateInfo | null;
  /** The key's plan, loaded once per request (planFor). */
  plan?: Plan;
}

/** A key revoked or rotated away: the KeyDO refuses it even while KV or an isolate cache still knows it. */
export const REVOKED = { error: "unauthorized", message: "missing or invalid API key" };

export async function planFor(env: Env, api: ApiContext): Promise<Plan> {
  api.plan ??= await planOf(env, api.caller);
  return api.plan;
}

export function rateHeaders(rate: RateInfo | null): Record<string, string> {
  if (!rate) return {};
  return {
    "ratelimit-limit": String(rate.limit),
    "ratelimit-remaining": String(rate.remaining),
    "ratelimit-reset": String(rate.reset_secs),
    "ratelimit-policy": `${rate.limit};w=60`,
  };
}

export function quotaExceeded(retryAfter: number, reason: string, rate: RateInfo | null): HttpError {
  return new HttpError(429, { error: "quota exceeded", message: reason, retry_after: retryAfter }, {
    "retry-after": String(retryAfter), ...rateHeaders(rate),
  });
}

/** Counts a request against the key's rate limit; throws the 429. */
export async function countRequest(env: Env, api: ApiContext): Promise<void> {
  const h = await keyObject(env, api.caller.hash).hit(quotaOf(await planFor(env, api)));
  if (!h.ok && h.revoked) throw new HttpError(401, REVOKED);
  api.rate = h.rate;
  if (!h.ok) throw quotaExceeded(h.retry_after, h.reason, h.rate);
}
