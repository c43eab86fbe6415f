// Back to the queue: a node refused the run before the program started, or was lost mid-run. The
// run goes to another node within the submission's queue budget; the node is marked not ready.
import { runKey } from "../scheduling/run-key.ts";
import type { Config, Env } from "../env.ts";
import { fleetRegistry, scheduler } from "../stubs.ts";
import { requeuedStep, requeueTooLate, type Step } from "./run-steps.ts";
import type { Meta } from "./stored.ts";

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What follows (submission.ts has forgotten the run): failed when out of queue time, else as the scheduler answers. */
export async function requeue(env: Env, cfg: Config, meta: Meta, nodeId: string, reason: string): Promise<Step> {
  const late = requeueTooLate(meta.created_ms, Date.now(), cfg.queueTimeoutMs, nodeId, reason);
  if (late) return { kind: "fail", why: late };
  const [r] = await Promise.all([
    scheduler(env, meta.pool).requeue(meta.id, runKey(meta.language, meta.format), nodeId, reason),
    fleetRegistry(env).nodeRefused(nodeId, reason).catch((e: unknown) => console.warn("could not mark the node not ready", nodeId, message(e))),
  ]);
  return requeuedStep(r, Date.now(), cfg.watchdogMs);
}
