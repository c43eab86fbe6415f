// Execute: start a run (or attach to the one with the same submission id) and stream its events.
//
// Disconnect rule: when the last stream attached to an unfinished run ends early (client cancel,
// disconnect, deadline), the run is killed, unless some Execute for the id set
// detach_on_disconnect; then it runs on and its outcome is kept for GetResult.
import { OutputStream } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecuteRequest, ExecuteResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { ServiceError, Status } from "./errors.ts";
import type { FleetNode } from "./fleet-node.ts";
import type { RunEvent } from "./run-registry.ts";
import { fingerprint, startRun } from "./runner.ts";
import type { CallContext } from "./types.ts";
import { checkSource, parseSubmissionId, resolveLanguage } from "./validation.ts";

export function toExecuteResponse(event: RunEvent): ExecuteResponse {
  switch (event.kind) {
    case "queued":
      return { queued: { position: event.position } };
    case "started":
      return { started: { startedAt: event.startedAt } };
    case "completed":
      return { completed: { result: event.result } };
    case "output": {
      const stream = event.stream === "stderr" ? OutputStream.OUTPUT_STREAM_STDERR : OutputStream.OUTPUT_STREAM_STDOUT;
      return { output: { stream, data: event.data, testIndex: 0 } };
    }
  }
}

export function createExecute(node: FleetNode) {
  return async function* execute(request: ExecuteRequest, context: CallContext): AsyncGenerator<ExecuteResponse> {
    const id = parseSubmissionId(request.submissionId);
    const language = resolveLanguage(request.language, node.engine.languages().map((entry) => entry.name));
    let run = node.registry.get(id);
    if (run) {
      if (run.fingerprint !== fingerprint(language, request.code, request.stdin)) {
        throw new ServiceError(Status.ALREADY_EXISTS, "submission id already used for a different request");
      }
    } else {
      checkSource(request.code, request.stdin);
      if (node.draining) throw new ServiceError(Status.UNAVAILABLE, "node is draining");
      if (!node.engine.health().ready) throw new ServiceError(Status.UNAVAILABLE, "node is not ready");
      run = startRun(node, { id, language, code: request.code, stdin: request.stdin, tenantId: request.tenantId, streamOutput: request.streamOutput });
    }
    if (request.detachOnDisconnect) run.detached = true;

    try {
      for await (const event of run.events(context.signal)) yield toExecuteResponse(event);
    } finally {
      if (run.state !== "completed" && run.subscribers === 0 && !run.detached) {
        node.logger.info({ submission_id: id, state: run.state }, "last stream gone: killing the run");
        run.abortController.abort(new Error("client went away"));
      }
    }
  };
}
