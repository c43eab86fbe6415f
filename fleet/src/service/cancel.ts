// Cancel: the edge ended a submission without the node (its deadline, an operator, its key
// revoked), so its run stops now, streams attached or not: a queued run is withdrawn, a running
// one killed (the engine reports it cancelled). Idempotent; an unknown or finished id is a no-op.
import { RunState, type CancelRequest, type CancelResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { FleetNode } from "./fleet-node.ts";
import { STATES } from "./get-result.ts";
import { parseSubmissionId } from "./validation.ts";

export function createCancel(node: FleetNode) {
  return async function cancel(request: CancelRequest): Promise<CancelResponse> {
    const id = parseSubmissionId(request.submissionId);
    const run = node.registry.get(id);
    if (!run) return { state: RunState.RUN_STATE_UNKNOWN };
    const state = STATES[run.state];
    if (run.state !== "completed" && !run.abortController.signal.aborted) {
      node.logger.info({ submission_id: id, state: run.state, reason: request.reason.slice(0, 200) }, "run cancelled by the edge");
      run.abortController.abort(new Error("cancelled by the edge"));
    }
    return { state };
  };
}
