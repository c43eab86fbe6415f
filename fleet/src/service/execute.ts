// Execute: start a run (or attach to the one with the same submission id) and stream its events.
//
// Disconnect rule: when the last stream attached to an unfinished run ends early (client cancel,
// disconnect, deadline), the run is killed, unless some Execute for the id set
// detach_on_disconnect; then it runs on and its outcome is kept for GetResult.
import type { ExecuteRequest, ExecuteResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { ServiceError, Status } from "./errors.ts";
import type { FleetNode } from "./fleet-node.ts";
import type { RunEvent } from "./run-registry.ts";
import { mainSourceFileName } from "../../../proto/source-names.ts";
import { fingerprint } from "./fingerprint.ts";
import { startRun } from "./start-run.ts";
import type { CallContext } from "./call-context.ts";
import { checkChecker } from "./checker-validation.ts";
import { checkJudgeFields, checkLiveStdin, checkSource, parseSubmissionId, resolveLanguages } from "./validation.ts";

export function toExecuteResponse(event: RunEvent): ExecuteResponse {
  switch (event.kind) {
    case "queued":
      return { queued: { position: event.position } };
    case "started":
      return { started: { startedAt: event.startedAt } };
    case "output":
      return { output: event.output };
    case "stage":
      return { stage: { name: event.name } };
    case "test":
      return { test: { index: event.index, result: event.result } };
    case "completed":
      return { completed: { result: event.result } };
  }
}

export function createExecute(node: FleetNode) {
  return async function* execute(request: ExecuteRequest, context: CallContext): AsyncGenerator<ExecuteResponse> {
    const id = parseSubmissionId(request.submissionId);
    // The request's languages, resolved once here; the engine takes them as they are.
    const resolved = resolveLanguages(request, node.engine.languages());
    const language = resolved.program.language;
    let run = node.registry.get(id);
    if (run) {
      if (run.fingerprint !== fingerprint(request, language)) {
        throw new ServiceError(Status.ALREADY_EXISTS, "submission id already used for a different request");
      }
    } else {
      checkSource(request.code, request.stdin);
      checkJudgeFields(request, language, mainSourceFileName(language, request.code) ?? undefined);
      checkChecker(request, resolved);
      checkLiveStdin(request);
      if (node.draining) throw new ServiceError(Status.UNAVAILABLE, "node is draining");
      if (!node.engine.health().ready) throw new ServiceError(Status.UNAVAILABLE, "node is not ready");
      run = startRun(node, { id, language, request, resolved });
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
