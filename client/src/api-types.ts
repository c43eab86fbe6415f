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
