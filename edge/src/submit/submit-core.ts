// The one admission path of every route that submits (native, batch, Judge0, Piston): check the
// body, send it to its key's object (rate, in-flight cap, idempotency) and from there to its
// SubmissionDO, and turn a refusal into the answer every route gives alike.
import type { ApiContext } from "./api-context.ts";
import { REVOKED, countRequest, planFor, quotaExceeded, rateHeaders } from "./api-context.ts";
import type { SubmitOutcome } from "../contracts/key.ts";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { quotaOf, storageOf } from "../plans/plans.ts";
import type { Plan } from "../plans/plans.ts";
import type { SubmitInput } from "./validate.ts";
import { fleetRegistry, keyObject } from "../stubs.ts";
import { checkSubmission, statusOnce, unsupportedLanguage } from "./submit-check.ts";
import { asLiveSession, type LiveAdmission } from "./live-input.ts";
import type { StatusOnce } from "./submit-check.ts";

/** When to try again after the storage quota refused a submission (another shard may take the next one). */
const STORAGE_RETRY_SECS = 60;

/** The fleet's status for one request, asked of the registry at most once (and only if needed). */
export function fleetStatus(env: Env): StatusOnce {
  return statusOnce(() => fleetRegistry(env).status());
}

export interface Admission {
  input: SubmitInput;
  idempotencyKey: string | null;
  /** > 0: held until the record is terminal or this many ms passed. */
  waitMs: number;
}

export type Accepted = Extract<SubmitOutcome, { kind: "created" | "duplicate" }>;

export interface AdmitOptions {
  status: StatusOnce;
  idempotencyKey?: string | null;
  waitMs?: number;
  /** Headers a refusal carries (default: the rate headers). */
  headers?: (outcome: SubmitOutcome) => Record<string, string>;
  /** A batch counts its request once, itself: its items' refused checks count nothing here. */
  countRefusedCheck?: boolean;
  /** A live session's submission (live-input.ts). */
  live?: LiveAdmission;
}

/**
 * Check → send → refusal. A body refused by its checks still counts against the key's rate limit
 * (every request counts) unless the request was counted already (or the batch counts it itself);
 * admission counts the submission itself. `pool`: where it is scheduled first (the HTTP layer
 * chooses it from the request: scheduling/first-pool.ts). Throws the refusal as an HttpError;
 * resolves when the submission was accepted.
 */
export async function admit(pool: string, env: Env, api: ApiContext, body: Record<string, unknown>, options: AdmitOptions): Promise<Accepted> {
  const plan = await planFor(env, api);
  let input: SubmitInput;
  try {
    input = await checkSubmission(body, plan, options.status);
    if (options.live) input = asLiveSession(input, options.live);
  } catch (e) {
    if ((options.countRefusedCheck ?? true) && api.rate === null) await countRequest(env, api);
    throw e;
  }
  const admission = { input, idempotencyKey: options.idempotencyKey ?? null, waitMs: options.waitMs ?? 0 };
  const outcome = await sendSubmission(pool, env, api, plan, admission);
  const refused = refusal(outcome, body.language, options.headers?.(outcome));
  if (refused) throw refused;
  if (outcome.kind !== "created" && outcome.kind !== "duplicate") throw new Error(`unexpected submit outcome ${outcome.kind}`);
  return outcome;
}

async function sendSubmission(pool: string, env: Env, api: ApiContext, plan: Plan, a: Admission): Promise<SubmitOutcome> {
  const { input } = a;
  const outcome = await keyObject(env, api.caller.hash).submit({
    language: input.language, pool, code: input.code, stdin: input.stdin,
    account_id: api.caller.account_id, project_id: api.caller.project_id, key_hash: api.caller.hash,
    idempotency_key: a.idempotencyKey, wait_ms: a.waitMs, quota: quotaOf(plan), ...storageOf(plan),
    ...(input.options ? { options: input.options } : {}), ...(input.format ? { format: input.format } : {}),
  });
  api.rate = outcome.rate;
  return outcome;
}

/** The refusals every route answers alike: revoked key, quota, full queue, a language gone meanwhile. */
export function refusal(outcome: SubmitOutcome, requestedLanguage: unknown, headers: Record<string, string> = rateHeaders(outcome.rate)): HttpError | null {
  switch (outcome.kind) {
    case "revoked":
      return new HttpError(401, REVOKED);
    case "rate_limited":
      return quotaExceeded(outcome.retry_after, outcome.reason, outcome.rate);
    case "queue_full":
      return new HttpError(503, {
        error: "queue full", message: `the execution queue is full (${outcome.queue_depth} pending); retry later`,
        queue_depth: outcome.queue_depth,
      }, { "retry-after": "1", ...headers });
    case "unsupported":
      return new HttpError(400, unsupportedLanguage(String(requestedLanguage), outcome.available).body, headers);
    case "storage_full":
      return new HttpError(429, {
        error: "storage quota exceeded",
        message: `this account stores ${outcome.used_bytes} bytes of results in this submission's shard, and a new submission could take it past `
          + `its quota of ${outcome.quota_bytes}; results are freed when their retention ends`,
        retry_after: STORAGE_RETRY_SECS,
      }, { "retry-after": String(STORAGE_RETRY_SECS), ...headers });
    default:
      return null;
  }
}
