// Reading a run's Execute stream from its node: each event as it comes, then the result, with the
// hops timed (answered with a synchronous submit). The stream is read to its end after the
// result (the trailers follow at once), not aborted, so that the connection to the node is
// reused for the next run.
import type { DeepPartial, ExecuteRequest, ExecuteResponse, ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, serverStream } from "../../../proto/grpc-web/client.ts";
import type { HopTimes } from "../contracts/submission.ts";
import type { NodeTarget } from "../contracts/scheduler.ts";

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
