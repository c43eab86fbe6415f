// GetResult: what the node knows about a submission id, so an edge whose stream broke can recover.
import { RunState, type GetResultRequest, type GetResultResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { FleetNode } from "./fleet-node.ts";
import { parseSubmissionId } from "./validation.ts";

export const STATES = {
  queued: RunState.RUN_STATE_QUEUED,
  running: RunState.RUN_STATE_RUNNING,
  completed: RunState.RUN_STATE_COMPLETED,
} as const;

export function createGetResult(node: FleetNode) {
  return async function getResult(request: GetResultRequest): Promise<GetResultResponse> {
    const run = node.registry.get(parseSubmissionId(request.submissionId));
    if (!run) return { state: RunState.RUN_STATE_UNKNOWN, result: undefined, startedAt: undefined };
    return { state: STATES[run.state], result: run.result, startedAt: run.startedAt };
  };
}
