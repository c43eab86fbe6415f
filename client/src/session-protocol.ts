// The messages of a live session's WebSocket (GET /api/sessions, docs/live-sessions.md), as types,
// and the reading of a server message.
import type { ResultRecord, SubmitRequest } from "./api-types.ts";

/** A session's `start`: a submission without tests, expected output, checker or interactor. */
export type SessionRequest = Omit<SubmitRequest, "tests" | "expected_output" | "checker" | "interactor">;

export type SessionSignal = "SIGINT" | "SIGTERM" | "SIGKILL";

/** The session's caps, as `accepted` tells them. */
export interface SessionLimits {
  max_duration_ms: number;
  idle_timeout_ms: number;
  stdin_bytes: number;
  output_bytes: number;
}

/** What a session's iterator yields: the run's stages, its output as written, then its record. */
export type SessionEvent =
  | { type: "stage"; stage: "compile" | "run" }
  | { type: "stdout"; data: string }
  | { type: "stderr"; data: string }
  | { type: "result"; record: ResultRecord };

export interface AcceptedMessage {
  type: "accepted";
  id: string;
  session_id: string;
  window: number;
  limits: SessionLimits;
}

/** Why the server is about to close the session (`retry_after` with 4429). */
export interface SessionErrorMessage {
  type: "error";
  error: string;
  message?: string;
  retry_after?: number;
}

export type ServerMessage =
  | SessionEvent
  | AcceptedMessage
  | SessionErrorMessage
  | { type: "stdin_ack"; taken: number }
  | { type: "attached"; id: string; session_id: string; taken: number };

export type ClientMessage =
  | { type: "start" } & SessionRequest
  | { type: "stdin"; data: string }
  | { type: "stdin"; data_b64: string }
  | { type: "end" }
  | { type: "signal"; signal: SessionSignal };

const KNOWN = new Set(["accepted", "stage", "stdout", "stderr", "stdin_ack", "result", "error", "attached"]);

/** A text frame as a server message, or null when it is none (not JSON, no known `type`). */
export function parseServerMessage(frame: unknown): ServerMessage | null {
  if (typeof frame !== "string") return null;
  let message: unknown;
  try {
    message = JSON.parse(frame);
  } catch {
    return null;
  }
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === "string" && KNOWN.has(type) ? (message as ServerMessage) : null;
}
