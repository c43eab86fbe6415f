// Piston's /api/v2/connect protocol over a live session (docs/live-sessions.md, "Piston-compatible"):
// init, runtime, stage, data, signal, exit, error, and Piston's close codes. Pure; unit tested.
import type { ResultRecord } from "../../../proto/record.ts";
import { isBuildFailure, isNoExecutable } from "../compat/build-failure.ts";
import { stage as pistonStage } from "../compat/piston/from-native.ts";
import { SESSION_SIGNALS } from "../openapi/session-messages.ts";
import { isRefusal, parseJson, type ClientAction, type Dialect, type Refusal, type RefusalKind, type Reply } from "./dialect.ts";

/** Piston's own codes; anything else is 4002 after an `error` message, as in Piston. */
const PISTON_CLOSE: Partial<Record<RefusalKind, [number, string]>> = {
  started_twice: [4000, "Already Initialized"],
  start_timeout: [4001, "Initialization Timeout"],
  not_started: [4003, "Not yet initialized"],
  bad_stream: [4004, "Can only write to stdin"],
  bad_signal: [4005, "Invalid signal"],
};

const message = (type: string, fields: Record<string, unknown> = {}) => JSON.stringify({ type, ...fields });

function parse(raw: string | ArrayBuffer, started: boolean): ClientAction | Refusal {
  const m = parseJson(raw);
  if (isRefusal(m)) return m;
  switch (m.type) {
    case "init": {
      if (started) return { refused: "started_twice", message: "Already Initialized" };
      const { type: _type, ...body } = m;
      return { kind: "start", body, piston: true };
    }
    case "data":
      if (!started) return { refused: "not_started", message: "Not yet initialized" };
      if (m.stream !== "stdin") return { refused: "bad_stream", message: "Can only write to stdin" };
      return typeof m.data === "string" ? { kind: "stdin", data: new TextEncoder().encode(m.data) } : { refused: "invalid", message: "data must be a string" };
    case "signal":
      if (!started) return { refused: "not_started", message: "Not yet initialized" };
      return SESSION_SIGNALS.includes(m.signal as never)
        ? { kind: "signal", signal: m.signal as string }
        : { refused: "bad_signal", message: "Invalid signal" };
    default:
      return { kind: "none" };
  }
}

/** Piston's `exit` of a stage: the stage's status (code, signal, …) without its output. */
function exit(stageName: string, status: object): string {
  const { stdout: _o, stderr: _e, output: _b, ...rest } = status as Record<string, unknown>;
  return message("exit", { stage: stageName, ...rest });
}

function result(rec: ResultRecord, lastStage: string | null): Reply {
  const messages: string[] = [];
  if (isBuildFailure(rec)) {
    const code = isNoExecutable(rec) ? 1 : (rec.exit_code ?? 1);
    messages.push(exit("compile", { ...pistonStage(rec, "", ""), code, status: rec.signal !== null ? "SG" : "RE" }));
  } else {
    if (rec.job_status === "error") messages.push(message("error", { message: rec.error_message ?? "the run failed" }));
    messages.push(exit(lastStage ?? "run", pistonStage(rec, "", "")));
  }
  return { messages, close: { code: 4999, reason: "Job Completed" } };
}

export const piston: Dialect = {
  name: "piston",
  startTimeoutMs: 1_000,
  parse,
  accepted: (a) => ({ messages: a.runtime ? [message("runtime", a.runtime)] : [] }),
  attached: () => ({ messages: [] }),
  // Piston ends each stage with its exit: the compile stage's, once the run starts.
  stage: (name, previous) => ({
    messages: [...(previous === "compile" ? [message("exit", { stage: "compile", code: 0, signal: null })] : []), message("stage", { stage: name })],
  }),
  output: (stream, data) => ({ messages: [message("data", { stream, data })] }),
  taken: () => ({ messages: [] }),
  result,
  refusal: (r: Refusal) => {
    const own = PISTON_CLOSE[r.refused];
    if (own) return { messages: [], close: { code: own[0], reason: own[1] } };
    return { messages: [message("error", { message: r.message })], close: { code: 4002, reason: "Notified Error" } };
  },
};
