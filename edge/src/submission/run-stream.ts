// Reading a run's Execute stream from its node: each event as it comes, then the result, with the
// hops timed (answered with a synchronous submit). The stream is read to its end after the
// result (the trailers follow at once), not aborted, so that the connection to the node is
// reused for the next run. A stream that ends or breaks before the result is recorded gives the
// step that follows (run-steps.ts streamStep), which the submission carries out.
import type { DeepPartial, ExecuteRequest, ExecuteResponse, ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { GrpcError, fleetMethods, serverStream } from "../../../proto/grpc-web/client.ts";
import type { HopTimes } from "../contracts/submission.ts";
import type { NodeTarget } from "../contracts/scheduler.ts";
import { asGrpcError } from "./run-errors.ts";
import { streamStep, type Step } from "./run-steps.ts";

export interface RunSink {
  /** Every event before the result (the result's own included). */
  event(ev: ExecuteResponse): void;
  result(result: ExecutionResult): Promise<void>;
}

export async function readRun(node: NodeTarget, req: DeepPartial<ExecuteRequest>, signal: AbortSignal, hops: HopTimes, sink: RunSink): Promise<void> {
  const sentAt = Date.now();
  let firstAt = 0;
  let completion: Promise<void> | null = null;
  for await (const ev of serverStream(node, fleetMethods.execute, req, signal)) {
    if (!firstAt) hops.node_first_event = (firstAt = Date.now()) - sentAt;
    if (ev.completed) hops.node_run = Date.now() - firstAt;
    if (completion) continue;
    sink.event(ev);
    if (ev.completed?.result) completion = sink.result(ev.completed.result);
  }
  await completion;
}

/** What the submission knows while its stream runs: whether its result is recorded, whether the run is still pending. */
export interface StreamState {
  recorded(): boolean;
  pending(): boolean;
}

/** Reads the run to its end (readRun); null when it ended with its result recorded (or was aborted), else the step that follows. */
export async function streamRun(
  id: string, node: NodeTarget, req: DeepPartial<ExecuteRequest>, signal: AbortSignal, hops: HopTimes, sink: RunSink, state: StreamState,
): Promise<Step | null> {
  try {
    await readRun(node, req, signal, hops, sink);
    if (!state.recorded()) throw new GrpcError(-1, "stream ended without a result");
    return null;
  } catch (e) {
    if (state.recorded() || signal.aborted) return null;
    const err = asGrpcError(e);
    const step = streamStep(err, state.pending(), node.id, Date.now());
    if (step.kind === "requeue") console.warn("run refused before it started; requeued", id, node.id, err.statusName, err.message);
    if (step.kind === "wait") console.warn("execute stream broke", id, err.statusName, err.message);
    return step;
  }
}
