// What both compatibility layers do with a mapped request: check it like a native one, submit it
// through the same admission, and wait for its record. Thin: the mapping is in judge0/ and piston/.
import type { ApiContext } from "../submit/api-context.ts";
import { config } from "../env.ts";
import type { Env } from "../env.ts";
import { isTerminal } from "../../../proto/record.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import type { Runtime } from "../../../proto/runtimes.ts";
import { choosePool } from "../scheduling/first-pool.ts";
import { readRecord } from "../submission/reads.ts";
import type { StatusOnce } from "../submit/submit-check.ts";
import { admit } from "../submit/submit-core.ts";

export interface Submitted {
  id: string;
  /** The record when the submission waited and it is terminal. */
  record: ResultRecord | null;
}

export async function runtimes(status: StatusOnce): Promise<Runtime[]> {
  return (await status()).runtimes;
}

/** Checks and submits a native body through the one admission path (submit/submit-core.ts). */
export async function submitNative(
  request: Request, env: Env, api: ApiContext, body: Record<string, unknown>, wait: boolean, status: StatusOnce,
): Promise<Submitted> {
  const outcome = await admit(choosePool(request, env), env, api, body, { status, waitMs: wait ? config(env).syncHoldMs : 0 });
  const record = outcome.kind === "created" ? (outcome.record ?? null) : null;
  return { id: outcome.id, record: record && isTerminal(record.job_status) ? record : null };
}

/** Polls the record until it is terminal or `budgetMs` passed (after the synchronous hold ran out). */
export async function awaitRecord(env: Env, api: ApiContext, id: string, budgetMs: number): Promise<ResultRecord | null> {
  const until = Date.now() + budgetMs;
  let rec: ResultRecord | null = null;
  for (let pause = 100; ; pause = Math.min(1_000, pause * 2)) {
    rec = await readRecord(env, id, api.caller.account_id);
    if (!rec || isTerminal(rec.job_status) || Date.now() + pause > until) return rec;
    await new Promise((r) => setTimeout(r, pause));
  }
}
