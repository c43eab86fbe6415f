// What a live session's two protocols share (docs/live-sessions.md): the client's actions once
// parsed, the refusals a session can end with, and the shape each protocol (native.ts, piston.ts)
// gives them. The session object (do/session-do.ts) speaks only these.
import type { ResultRecord } from "../../../proto/record.ts";
import type { SessionErrorKind } from "../openapi/session-messages.ts";
import type { SessionCaps } from "../plans/plan-caps.ts";

export type ClientAction =
  /** The first message: a native submit body, or Piston's init (mapped once the runtimes are known). */
  | { kind: "start"; body: Record<string, unknown>; piston?: boolean }
  | { kind: "stdin"; data: Uint8Array }
  | { kind: "end" }
  | { kind: "signal"; signal: string }
  /** A message the protocol ignores (Piston's unknown types). */
  | { kind: "none" };

/** Why a session ends early: the native protocol's `error` names it (openapi/session-messages.ts). */
export type RefusalKind = SessionErrorKind;

export interface Refusal {
  refused: RefusalKind;
  message: string;
  /** Fields the error message carries besides `message` (a 4xx body, retry_after). */
  details?: Record<string, unknown>;
}

export interface Accepted {
  id: string;
  session_id: string;
  window: number;
  limits: SessionCaps;
  /** Piston's `runtime` message. */
  runtime?: { language: string; version: string };
}

/** What to send, then how to close (no close: the session goes on). */
export interface Reply {
  messages: string[];
  close?: { code: number; reason: string };
}

export interface Dialect {
  readonly name: "native" | "piston";
  /** How long a new connection may wait for its first message. */
  readonly startTimeoutMs: number;
  parse(message: string | ArrayBuffer, started: boolean): ClientAction | Refusal;
  accepted(a: Accepted): Reply;
  attached(a: { id: string; session_id: string; taken: number }): Reply;
  stage(stage: string, previous: string | null): Reply;
  output(stream: "stdout" | "stderr", data: string): Reply;
  taken(taken: number): Reply;
  result(record: ResultRecord, lastStage: string | null): Reply;
  refusal(r: Refusal): Reply;
}

/** A JSON text message, or a refusal saying why not. */
export function parseJson(message: string | ArrayBuffer): Record<string, unknown> | Refusal {
  if (typeof message !== "string") return { refused: "invalid", message: "messages are JSON text frames" };
  try {
    const value: unknown = JSON.parse(message);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  return { refused: "invalid", message: "a message must be a JSON object" };
}

export function isRefusal(x: unknown): x is Refusal {
  return typeof x === "object" && x !== null && "refused" in x;
}
