// SendInput: a live run's stdin and signals, in order (live-input.ts; docs/fleet-node.md, "Live stdin").
import type { SendInputRequest, SendInputResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { ServiceError, Status } from "./errors.ts";
import type { FleetNode } from "./fleet-node.ts";
import { parseSubmissionId } from "./validation.ts";

export function createSendInput(node: FleetNode) {
  return async function sendInput(request: SendInputRequest): Promise<SendInputResponse> {
    const id = parseSubmissionId(request.submissionId);
    const run = node.registry.get(id);
    if (!run) throw new ServiceError(Status.NOT_FOUND, "no run with this submission id on this node");
    if (!run.live) throw new ServiceError(Status.FAILED_PRECONDITION, "the run's stdin is not live (ExecuteRequest.live_stdin)");
    return run.live.take(Number(request.offset), request.data, request.end, request.signal);
  };
}
