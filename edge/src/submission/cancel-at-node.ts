// A submission ended without its node (deadline, operator, key revoked, node given up for lost):
// its run is stopped there (FleetService.Cancel), so it neither keeps a run slot nor finishes for
// nobody. Best effort: a node that cannot be reached has lost the run anyway, or will be drained.
import { fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import type { Env } from "../env.ts";
import { fleetRegistry } from "../stubs.ts";
import type { Run } from "./stored.ts";

const CANCEL_TIMEOUT_MS = 5_000;

export async function cancelAtNode(env: Env, run: Run, submissionId: string, why: string): Promise<void> {
  try {
    const target = await fleetRegistry(env).target(run.node_id);
    if (!target) return;
    await unary(target, fleetMethods.cancel, { submissionId, reason: why }, CANCEL_TIMEOUT_MS);
  } catch (e) {
    console.warn("could not cancel the run at its node", submissionId, run.node_id, e instanceof Error ? e.message : String(e));
  }
}
