// A dispatched submission's wake-up asks its node (GetResult): how a broken stream, an evicted
// object or an edge restart recovers. What the answer, or its absence, means is run-steps.ts's.
import { fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import type { Config, Env } from "../env.ts";
import { fleetRegistry } from "../stubs.ts";
import { resultStep, unansweredStep, type Step } from "./run-steps.ts";
import type { Run } from "./stored.ts";

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
