// Names for the generated types (api.gen.ts, from docs/openapi.json).
import type { components } from "./api.gen.ts";

type Schemas = components["schemas"];
export type SubmitRequest = Schemas["SubmitRequest"];
export type ResultRecord = Schemas["ResultRecord"];
export type TestRecord = Schemas["TestRecord"];
export type Verdict = Schemas["Verdict"];
export type JobStatus = Schemas["JobStatus"];
export type Accepted = Schemas["Accepted"];
export type ErrorBody = Schemas["Error"];
export type SyncTimeout = Schemas["SyncTimeout"];
export type BatchItem = Schemas["BatchItem"];
export type Runtime = Schemas["Runtime"];
export type Health = Schemas["Health"];
export type WebhookPayload = Schemas["WebhookPayload"];
/** One message of GET /api/result/{id}/events, `data` parsed; discriminated by `event`. */
export type StreamEvent = Schemas["ServerSentEvent"];
export type ResultsEntry = Schemas["Results"]["results"][number];

// A live session's WebSocket messages (GET /api/sessions, docs/live-sessions.md).
export type SessionClientMessage = Schemas["SessionClientMessage"];
export type SessionServerMessage = Schemas["SessionServerMessage"];
/** A session's `start`: a submission without tests, expected output, checker or interactor. */
export type SessionRequest = Omit<Schemas["SessionStart"], "type">;
export type SessionSignal = Schemas["SessionSignal"]["signal"];
/** The session's caps, as `accepted` tells them. */
export type SessionLimits = Schemas["SessionLimits"];
export type AcceptedMessage = Schemas["SessionAccepted"];
/** Why the server is about to close the session (`retry_after` with 4429). */
export type SessionErrorMessage = Schemas["SessionError"];
/** What a session's iterator yields: the run's stages, its output as written, then its record. */
export type SessionEvent = Schemas["SessionStage"] | Schemas["SessionStdout"] | Schemas["SessionStderr"] | Schemas["SessionResult"];
