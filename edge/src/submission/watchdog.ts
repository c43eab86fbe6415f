// What a submission's wake-up learns while it is not terminal: from its scheduler while queued;
// once dispatched, that it is past its deadline, or else what its node says (GetResult): how a
// broken stream, an evicted object or an edge restart recovers. What the answer, or its absence,
// means is run-steps.ts's.
import { fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import type { Config, Env } from "../env.ts";
import { fleetRegistry, scheduler } from "../stubs.ts";
import { overdue, queuedStep, resultStep, unansweredStep, type Step } from "./run-steps.ts";
import type { Meta, Run } from "./stored.ts";

/** What the wake-up knows of the run: where it is (read again after awaiting), when it started here, whether its stream is open. */
export interface RunSeen {
  run(): Run | undefined;
  startedMs: number | null;
  streaming: boolean;
}

export async function checkRun(env: Env, cfg: Config, meta: Meta, rec: ResultRecord, seen: RunSeen, now: number): Promise<Step> {
  const run = seen.run();
  if (!run) return queuedStep(await scheduler(env, meta.pool).poll(meta.id), meta.created_ms, now, cfg.queueTimeoutMs, seen.run() !== undefined);
  const limits = { ...cfg, maxRunMs: Math.max(cfg.maxRunMs, meta.tests_run_ms ?? 0) };
  const late = overdue(meta.created_ms, seen.startedMs ?? (rec.started_at ? Date.parse(rec.started_at) : null), now, limits);
  if (late) return { kind: "fail", why: late };
  return askNode(env, cfg, meta.id, run, seen.streaming);
}

/** `streaming`: an Execute stream is open right now. */
export async function askNode(env: Env, cfg: Config, submissionId: string, run: Run, streaming: boolean): Promise<Step> {
  const target = await fleetRegistry(env).target(run.node_id);
  if (!target) return { kind: "lost", run, why: `fleet node ${run.node_id} was removed from the registry during the run` };
  try {
    const res = await unary(target, fleetMethods.getResult, { submissionId }, Math.min(cfg.watchdogMs, 5_000));
    return resultStep(res, run, streaming, Date.now(), cfg.watchdogMs);
  } catch (e) {
    return unansweredStep(e, run, cfg.watchdogFailures);
  }
}
