// The native live-session protocol (docs/live-sessions.md, "Native protocol"): JSON messages with a
// `type`, close codes 44xx named after the HTTP status they stand for. The messages both ways are
// the schemas of openapi/session-messages.ts, which the SDK's types are generated from: a client's
// are parsed with them, the server's typed by them. Pure; unit tested.
import { fromBase64 } from "../../../proto/base64.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import {
  SESSION_SIGNALS, sessionSignal, sessionStdin, type SessionServerMessage, type SessionStageName,
} from "../openapi/session-messages.ts";
import { isRefusal, parseJson, type Accepted, type ClientAction, type Dialect, type Refusal, type RefusalKind, type Reply } from "./dialect.ts";

export const NATIVE_CLOSE: Record<RefusalKind, number> = {
  invalid: 4400, not_started: 4400, bad_stream: 4400, bad_signal: 4400,
  revoked: 4401, start_timeout: 4408, started_twice: 4409,
  idle: 4410, window: 4411, stdin_cap: 4413, flood: 4414, rate_limited: 4429, unavailable: 4503, too_long: 4504,
  internal: 1011,
};

const send = (...messages: SessionServerMessage[]): Reply => ({ messages: messages.map((m) => JSON.stringify(m)) });

const UNKNOWN_TYPE: Refusal = { refused: "invalid", message: "unknown message type; expected start, stdin, end or signal" };
const BAD_STDIN: Refusal = { refused: "invalid", message: "stdin needs `data` (text) or `data_b64` (base64)" };

/** A `stdin` message's bytes. */
function stdin(m: Record<string, unknown>): ClientAction | Refusal {
  const parsed = sessionStdin.safeParse(m);
  if (!parsed.success) return BAD_STDIN;
  if ("data" in parsed.data) return { kind: "stdin", data: new TextEncoder().encode(parsed.data.data) };
  const bytes = fromBase64(parsed.data.data_b64);
  return bytes ? { kind: "stdin", data: bytes } : BAD_STDIN;
}

/**
 * A client's frame as its action. `start` carries the body of POST /api/submit, which admission
 * checks with the submit schema (SessionStart is that schema with its type).
 */
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
      : UNKNOWN_TYPE;
  }
  switch (m.type) {
    case "stdin":
      return stdin(m);
    case "end":
      return { kind: "end" };
    case "signal": {
      const parsed = sessionSignal.safeParse(m);
      return parsed.success
        ? { kind: "signal", signal: parsed.data.signal }
        : { refused: "bad_signal", message: `signal must be one of ${SESSION_SIGNALS.join(", ")}` };
    }
    default:
      return UNKNOWN_TYPE;
  }
}

export const native: Dialect = {
  name: "native",
  startTimeoutMs: 10_000,
  parse,
  accepted: (a: Accepted) => send({ type: "accepted", id: a.id, session_id: a.session_id, window: a.window, limits: a.limits }),
  attached: (a) => send({ type: "attached", ...a }),
  // The node names only compile and run (fleet.proto, Stage).
  stage: (stage) => send({ type: "stage", stage: stage as SessionStageName }),
  output: (stream, data) => send({ type: stream, data }),
  taken: (taken) => send({ type: "stdin_ack", taken }),
  result: (record: ResultRecord) => ({ ...send({ type: "result", record }), close: { code: 1000, reason: "the run ended" } }),
  refusal: (r: Refusal) => ({
    ...send({ type: "error", error: r.refused, message: r.message, ...r.details }),
    close: { code: NATIVE_CLOSE[r.refused], reason: r.refused },
  }),
};
