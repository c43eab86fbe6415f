// The check both operator doors share (/admin's bearer token, the dashboard's sign-in form):
// the token must be strong enough to open the doors at all (503 otherwise), it is compared as
// equal-length digests, and failures are throttled per client and overall by the DoorDO (429).
// The right token from a client that is not throttled always passes.
import type { DoorLimits, DoorVerdict } from "../contracts/door.ts";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { secretsEqual } from "../lib/keys.ts";
import { operatorDoor } from "../stubs.ts";
import { clientKey } from "./client.ts";
import { operatorTokenProblem } from "./token-strength.ts";

function num(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v !== undefined && v !== "" && Number.isInteger(n) && n > 0 ? n : fallback;
}

export function doorLimits(env: Env): DoorLimits {
  return {
    perClient: num(env.OPERATOR_FAILURES_PER_CLIENT, 10),
    global: num(env.OPERATOR_FAILURES_GLOBAL, 100),
    windowMs: num(env.OPERATOR_FAILURE_WINDOW_SECS, 900) * 1000,
    trustMs: 30 * 86_400_000,
  };
}

/** The configured operator token, or a 503 naming why the doors are shut. */
export function operatorToken(env: Env, door: string): string {
  const token = env.OPERATOR_TOKEN;
  if (!token) throw new HttpError(503, { error: `${door} disabled`, message: "OPERATOR_TOKEN is not configured" });
  const weak = operatorTokenProblem(token);
  if (weak) throw new HttpError(503, { error: `${door} disabled`, message: `${weak}; set a stronger one (docs/operators.md#operator-doors)` });
  return token;
}

/** Compares the presented token and asks the DoorDO whether the client may knock at all. */
export async function knock(request: Request, env: Env, expected: string, presented: string): Promise<DoorVerdict> {
  const ok = presented !== "" && (await secretsEqual(presented, expected));
  return operatorDoor(env).attempt(clientKey(request), ok, doorLimits(env));
}

export function throttled(v: Extract<DoorVerdict, { verdict: "throttled" }>): { body: Record<string, unknown>; headers: Record<string, string> } {
  const who = v.scope === "client" ? "from this address" : "from addresses that never presented the right token";
  return {
    body: {
      error: "too many failed attempts",
      message: `too many wrong operator tokens ${who}; try again in ${v.retry_after_secs} s`,
      retry_after_secs: v.retry_after_secs,
    },
    headers: { "retry-after": String(v.retry_after_secs) },
  };
}
