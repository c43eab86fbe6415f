// What a failed Execute call means for the submission. Pure, unit tested.
import { GrpcError } from "../../../proto/grpc-web/client.ts";
import { Status } from "../../../proto/grpc-web/status.ts";
import { REQUEST_TOO_LARGE } from "../../../proto/limits.ts";

/** gRPC statuses by which a node refuses a run outright (the program did not start). */
const REFUSALS = new Set<number>([
  Status.INVALID_ARGUMENT, Status.NOT_FOUND, Status.ALREADY_EXISTS, Status.PERMISSION_DENIED, Status.FAILED_PRECONDITION,
  Status.UNIMPLEMENTED, Status.UNAUTHENTICATED,
]);
/** Refusals that say "not now, not here" (draining, not ready, queue full): another node may run it. */
const TRY_ELSEWHERE = new Set<number>([Status.RESOURCE_EXHAUSTED, Status.UNAVAILABLE]);

/**
 * "elsewhere": refused before it started, another node may take it (only while still pending);
 * "refused": the node will never run it; "broken": the stream broke, the run may be going on.
 */
export function runErrorKind(err: GrpcError, pending: boolean): "elsewhere" | "refused" | "broken" {
  if (err.transport) return "broken";
  // Too large for the node's precheck: every node would refuse it the same way.
  if (err.code === Status.RESOURCE_EXHAUSTED && err.message.startsWith(REQUEST_TOO_LARGE)) return "refused";
  if (TRY_ELSEWHERE.has(err.code) && pending) return "elsewhere";
  if (REFUSALS.has(err.code)) return "refused";
  return "broken";
}

export function asGrpcError(e: unknown): GrpcError {
  return e instanceof GrpcError ? e : new GrpcError(-1, e instanceof Error ? e.message : String(e));
}

/** The node finished (or is finishing) the run but its answer cannot be taken: it is not run again. */
export function undeliverable(nodeId: string, err: Error): string {
  return `fleet node ${nodeId} answered with a result too large to deliver (${err.message}); the run is not dispatched again`;
}
