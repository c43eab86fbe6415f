// The check both operator doors share (/admin's bearer token, the dashboard's sign-in form):
// the token must be strong enough to open the doors at all (503 otherwise); the presented one is
// compared first, as equal-length digests, and the right one passes at once, whatever other
// clients (or this one) got wrong before. Only wrong tokens go to the DoorDO, which counts them
// per client and overall (401, then 429), and each is answered after a delay.
import type { Door, DoorLimits, DoorVerdict } from "../contracts/door.ts";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { secretsEqual } from "../lib/keys.ts";
import { operatorDoor } from "../stubs.ts";
import { clientKey } from "./client.ts";
import { operatorTokenProblem } from "./token-strength.ts";

function num(v: string | undefined, fallback: number, min = 1): number {
  const n = Number(v);
  return v !== undefined && v !== "" && Number.isInteger(n) && n >= min ? n : fallback;
}

export function doorLimits(env: Env): DoorLimits {
  return {
    perClient: num(env.OPERATOR_FAILURES_PER_CLIENT, 10),
    global: num(env.OPERATOR_FAILURES_GLOBAL, 100),
    windowMs: num(env.OPERATOR_FAILURE_WINDOW_SECS, 900) * 1000,
  };
}

/** How long a wrong token's answer waits (0 allowed: no wait). */
export function failureDelayMs(env: Env): number {
  return num(env.OPERATOR_FAILURE_DELAY_MS, 1000, 0);
}

/** The configured operator token, or a 503 naming why the doors are shut. */
export function operatorToken(env: Env, door: string): string {
  const token = env.OPERATOR_TOKEN;
  if (!token) throw new HttpError(503, { error: `${door} disabled`, message: "OPERATOR_TOKEN is not configured" });
  const weak = operatorTokenProblem(token);
  if (weak) throw new HttpError(503, { error: `${door} disabled`, message: `${weak}; set a stronger one (docs/operators.md#operator-doors)` });
  return token;
}

/** The right token passes; a wrong one is counted (or throttled) by the DoorDO and answered late. */
export async function knock(request: Request, env: Env, door: Door, expected: string, presented: string): Promise<DoorVerdict> {
  if (presented !== "" && (await secretsEqual(presented, expected))) return { verdict: "pass" };
  const verdict = await operatorDoor(env).failed(clientKey(request), door, doorLimits(env));
  const delay = failureDelayMs(env);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  return verdict;
}

export function throttled(v: Extract<DoorVerdict, { verdict: "throttled" }>): { body: Record<string, unknown>; headers: Record<string, string> } {
  const who = v.scope === "client" ? "from this address" : "from all addresses together";
  return {
    body: {
      error: "too many failed attempts",
      message: `too many wrong operator tokens ${who}; try again in ${v.retry_after_secs} s (the right token is not refused)`,
      retry_after_secs: v.retry_after_secs,
    },
    headers: { "retry-after": String(v.retry_after_secs) },
  };
}
