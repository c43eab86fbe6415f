// The messages of a native live session's WebSocket (GET /api/sessions, docs/live-sessions.md), both
// ways, as zod schemas: the document's components SessionClientMessage and SessionServerMessage, so
// the SDK's types are generated from them (client/src/api.gen.ts), and the server parses a client's
// messages with them (session/native.ts). Piston's /connect dialect is Piston's own, not here.
import { z } from "zod";
import type { SessionCaps } from "../plans/plan-caps.ts";
import { submitSchema } from "../submit/validate.ts";
import { requestComponents } from "./requests.ts";
import { components, resultRecord } from "./schemas.ts";

/** The program's signals a client may send (the node's own list: docs/fleet-node.md "Live stdin"). */
export const SESSION_SIGNALS = ["SIGINT", "SIGTERM", "SIGKILL"] as const;

/** Why a session is about to close: an `error` message's `error` (docs/live-sessions.md, "Close codes"). */
export const SESSION_ERRORS = [
  "invalid", "not_started", "started_twice", "start_timeout", "bad_stream", "bad_signal",
  "revoked", "idle", "window", "stdin_cap", "flood", "rate_limited",
  "unavailable", "too_long", "internal",
] as const;

const int = () => z.number().int();
const uuid = () => z.string().meta({ format: "uuid" });

function clientMessage<T extends z.ZodType>(id: string, schema: T, description: string): T {
  requestComponents.add(schema, { id, description });
  return schema;
}

function serverMessage<T extends z.ZodType>(id: string, schema: T, description: string): T {
  components.add(schema, { id, description });
  return schema;
}

// ---- client → server ----

/**
 * Its fields are those of POST /api/submit, checked by the same schema and admission when the
 * session starts (the same errors); the type alone is checked on arrival.
 */
export const sessionStart = clientMessage("SessionStart",
  submitSchema.omit({ tests: true, expected_output: true, checker: true, interactor: true }).extend({ type: z.literal("start") }),
  "The first message: the body of POST /api/submit (one program fed by its client: no tests, expected_output, checker or interactor)");

export const sessionStdin = clientMessage("SessionStdin", z.union([
  z.object({ type: z.literal("stdin"), data: z.string().meta({ description: "Input as UTF-8 text" }) }),
  z.object({ type: z.literal("stdin"), data_b64: z.string().meta({ description: "Input as bytes, base64 (RFC 4648, padded)" }) }),
]), "More input for the program, at most `window` bytes unacknowledged");

export const sessionEnd = clientMessage("SessionEnd", z.object({ type: z.literal("end") }),
  "The end of the program's input (EOF once it has read everything before)");

export const sessionSignal = clientMessage("SessionSignal", z.object({ type: z.literal("signal"), signal: z.enum(SESSION_SIGNALS) }),
  "A signal for the program after the input sent before it; SIGKILL at once, dropping the input not yet taken");

export const sessionClientMessage = clientMessage("SessionClientMessage", z.union([sessionStart, sessionStdin, sessionEnd, sessionSignal]),
  "What a client sends on a live session's WebSocket: JSON text frames");

// ---- server → client ----

export const sessionLimits = serverMessage("SessionLimits", z.object({
  max_duration_ms: int(), idle_timeout_ms: int(), stdin_bytes: int(), output_bytes: int(),
}), "The session's caps (its key's plan)");

export const sessionAccepted = serverMessage("SessionAccepted", z.object({
  type: z.literal("accepted"),
  id: uuid().meta({ description: "The submission (GET /api/result/{id})" }),
  session_id: uuid().meta({ description: "Names the session for a reconnect (GET /api/sessions/{id})" }),
  window: int().meta({ description: "Stdin bytes that may be sent and not yet acknowledged" }),
  limits: sessionLimits,
}), "The start was admitted");

export const sessionAttached = serverMessage("SessionAttached", z.object({
  type: z.literal("attached"), id: uuid(), session_id: uuid(),
  taken: int().meta({ description: "Stdin bytes the program's node has taken: resend from there" }),
}), "The answer to a reconnect");

/** The node names the stages compile (compiled languages) and run (fleet.proto, Stage). */
export const sessionStage = serverMessage("SessionStage", z.object({ type: z.literal("stage"), stage: z.enum(["compile", "run"]) }),
  "The run moved to a stage: compile (a compiled language), then run");

const output = <T extends "stdout" | "stderr">(stream: T) => z.object({
  type: z.literal(stream),
  data: z.string().meta({ description: "Output as written (UTF-8; bytes that are not are replaced)" }),
});
export const sessionStdout = serverMessage("SessionStdout", output("stdout"), "The program's stdout as it writes it");
export const sessionStderr = serverMessage("SessionStderr", output("stderr"), "The program's stderr as it writes it");

export const sessionStdinAck = serverMessage("SessionStdinAck", z.object({ type: z.literal("stdin_ack"), taken: int() }),
  "The program's node has taken the first `taken` bytes of stdin");

export const sessionResult = serverMessage("SessionResult", z.object({ type: z.literal("result"), record: resultRecord }),
  "The record (as GET /api/result/{id}); the session then closes with 1000");

export const sessionError = serverMessage("SessionError", z.looseObject({
  type: z.literal("error"),
  error: z.enum(SESSION_ERRORS),
  message: z.string(),
  status: int().optional().meta({ description: "A refused start: the HTTP status POST /api/submit would have answered; its body's fields ride here too" }),
  reason: z.string().optional().meta({ description: "A refused start: that answer's `error`" }),
  retry_after: int().optional().meta({ description: "Seconds to wait (4429)" }),
}), "Why the session is about to close (then its close code)");

export const sessionServerMessage = serverMessage("SessionServerMessage", z.union([
  sessionAccepted, sessionAttached, sessionStage, sessionStdout, sessionStderr, sessionStdinAck, sessionResult, sessionError,
]), "What the server sends on a live session's WebSocket: JSON text frames");

export type SessionServerMessage = z.infer<typeof sessionServerMessage>;
export type SessionErrorKind = (typeof SESSION_ERRORS)[number];
export type SessionStageName = z.infer<typeof sessionStage>["stage"];

// Drift check against the caps the plans give (compile time only).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameLimits: Same<z.infer<typeof sessionLimits>, SessionCaps> = true;
void sameLimits;
