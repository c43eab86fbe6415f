// The native live-session protocol (docs/live-sessions.md, "Native protocol"): JSON messages with a
// `type`, close codes 44xx named after the HTTP status they stand for. Pure; unit tested.
import { fromBase64 } from "../../../proto/base64.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import { SESSION_SIGNALS, isRefusal, parseJson, type Accepted, type ClientAction, type Dialect, type Refusal, type RefusalKind, type Reply } from "./dialect.ts";

export const NATIVE_CLOSE: Record<RefusalKind, number> = {
  invalid: 4400, not_started: 4400, bad_stream: 4400, bad_signal: 4400,
  revoked: 4401, start_timeout: 4408, started_twice: 4409,
  idle: 4410, window: 4411, stdin_cap: 4413, flood: 4414, rate_limited: 4429, unavailable: 4503, too_long: 4504,
  internal: 1011,
};

const message = (type: string, fields: Record<string, unknown> = {}) => JSON.stringify({ type, ...fields });
const send = (...messages: string[]): Reply => ({ messages });

function parse(raw: string | ArrayBuffer, started: boolean): ClientAction | Refusal {
  const m = parseJson(raw);
  if (isRefusal(m)) return m;
  if (m.type === "start") {
    if (started) return { refused: "started_twice", message: "the session has started already" };
    const { type: _type, ...body } = m;
    return { kind: "start", body };
  }
  if (!started) {
    return typeof m.type === "string" && ["stdin", "end", "signal"].includes(m.type)
      ? { refused: "not_started", message: "the first message must be `start`" }
      : { refused: "invalid", message: "unknown message type; expected start, stdin, end or signal" };
  }
  switch (m.type) {
    case "stdin": {
      if (typeof m.data === "string") return { kind: "stdin", data: new TextEncoder().encode(m.data) };
      const bytes = typeof m.data_b64 === "string" ? fromBase64(m.data_b64) : null;
      return bytes ? { kind: "stdin", data: bytes } : { refused: "invalid", message: "stdin needs `data` (text) or `data_b64` (base64)" };
    }
    case "end":
      return { kind: "end" };
    case "signal":
      return SESSION_SIGNALS.includes(m.signal as never)
        ? { kind: "signal", signal: m.signal as string }
        : { refused: "bad_signal", message: `signal must be one of ${SESSION_SIGNALS.join(", ")}` };
    default:
      return { refused: "invalid", message: "unknown message type; expected start, stdin, end or signal" };
  }
}

export const native: Dialect = {
  name: "native",
  startTimeoutMs: 10_000,
  parse,
  accepted: (a: Accepted) => send(message("accepted", { id: a.id, session_id: a.session_id, window: a.window, limits: a.limits })),
  attached: (a) => send(message("attached", a)),
  stage: (stage) => send(message("stage", { stage })),
  output: (stream, data) => send(message(stream, { data })),
  taken: (taken) => send(message("stdin_ack", { taken })),
  result: (record: ResultRecord) => ({ messages: [message("result", { record })], close: { code: 1000, reason: "the run ended" } }),
  refusal: (r: Refusal) => ({
    messages: [message("error", { error: r.refused, message: r.message, ...r.details })],
    close: { code: NATIVE_CLOSE[r.refused], reason: r.refused },
  }),
};
