// Every public endpoint, described once: the OpenAPI document (openapi/document.ts) is built from
// this table and the schemas it names. A route added to the API gets its row here.
import type { z } from "zod";
import { batchRequest, submitRequest } from "./requests.ts";
import * as s from "./schemas.ts";
import { plan } from "./admin-responses.ts";
import { serverSentEvent } from "./event-stream.ts";

/** Sections of the document, in order; a tag no route uses is left out. */
export const TAGS = {
  Submissions: "Run programs and read their records",
  Reference: "What the service offers",
  Service: "Health and readiness",
  Compatibility: "Judge0 CE and Piston v2 request shapes (docs/migrating.md)",
  admin: "The operators' API: projects, API keys, plans, usage, webhook endpoints, fleet nodes and enrollment tokens. Authenticated by the operator token " +
    "(Authorization: Bearer $OPERATOR_TOKEN), not by an API key, and not rate limited; wrong tokens are throttled per address. The codecell CLI is built " +
    "on it (docs/operators.md).",
};

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  /** Names of components.headers (document.ts) sent with this answer. */
  headers?: string[];
}

export interface RouteDoc {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: keyof typeof TAGS;
  /** No API key, not rate limited. */
  open?: true;
  /** Names of components.parameters (document.ts). */
  parameters?: string[];
  body?: z.ZodType;
  /** The body may be left out (every field of it is optional). */
  bodyOptional?: true;
  responses: Record<number, ResponseDoc>;
}

const QUOTA = "Submission quotas: 429 when the key's rate or in-flight cap is reached";

export const NATIVE_ROUTES: RouteDoc[] = [
  {
    method: "post", path: "/api/submit", operationId: "submit", tag: "Submissions",
    summary: "Submit a program",
    description: "Queues a run and answers 202 with its id; with ?wait=true holds the request until the record is terminal (200) or the hold expires " +
      "(408, the run carries on).",
    parameters: ["Wait", "IdempotencyKey"],
    body: submitRequest,
    responses: {
      200: { description: "?wait=true: the finished record", schema: s.resultRecord, headers: ["ServerTiming"] },
      202: { description: "Accepted; or, for a repeated Idempotency-Key, the existing record " +
        "(Idempotent-Replayed: true)", schema: s.acceptedOrRecord, headers: ["ServerTiming", "IdempotentReplayed"] },
      400: { description: "Invalid request: the message names the field (an unsupported language lists `available`)", schema: s.errorBody },
      408: { description: "?wait=true: not finished within the hold; poll GET /api/result/{id}", schema: s.syncTimeout, headers: ["ServerTiming"] },
      413: { description: "Request body larger than 2 MiB", schema: s.errorBody },
      415: { description: "Body is not UTF-8 JSON (content-type: application/json)", schema: s.errorBody },
      503: { description: "Queue full; retry after Retry-After seconds", schema: s.errorBody, headers: ["RetryAfter", "ServerTiming"] },
    },
  },
  {
    method: "post", path: "/api/submit/batch", operationId: "submitBatch", tag: "Submissions",
    summary: "Submit several programs",
    description: `Each item is validated and queued alone; an invalid or over-quota item gets its own {error, message?}. ?wait=true is refused. ${QUOTA}.`,
    body: batchRequest,
    responses: {
      202: { description: "One entry per submission, in request order", schema: s.batchAccepted },
      400: { description: "Invalid request (not a list, too many items, ?wait given)", schema: s.errorBody },
      413: { description: "Request body too large", schema: s.errorBody },
      415: { description: "Body is not UTF-8 JSON", schema: s.errorBody },
    },
  },
  {
    method: "get", path: "/api/result/{id}", operationId: "result", tag: "Submissions",
    summary: "Get a submission's record",
    parameters: ["SubmissionId"],
    responses: {
      200: { description: "The record (job_status pending, running, completed or error)", schema: s.resultRecord },
      400: { description: "The id is not a UUID", schema: s.errorBody },
      404: { description: "No such submission for this account", schema: s.errorBody },
    },
  },
  {
    method: "get", path: "/api/results", operationId: "results", tag: "Submissions",
    summary: "Get several records",
    parameters: ["Ids"],
    responses: {
      200: { description: "One entry per id, in request order", schema: s.results },
      400: { description: "ids missing, not UUIDs, or more than plan.max_batch", schema: s.errorBody },
    },
  },
  {
    method: "get", path: "/api/result/{id}/events", operationId: "events", tag: "Submissions",
    summary: "Stream a submission's events (SSE)",
    description: "text/event-stream: queued, started, stdout, stderr, test, then completed (the whole record) and the stream ends. Each event has `id:` (a " +
      "per-submission sequence number from 1), `event:` and `data:` (JSON). Resume with Last-Event-ID (header) or ?last_event_id: only later events are " +
      "sent. Concatenated stdout chunks equal the record's stdout.",
    parameters: ["SubmissionId", "LastEventId", "LastEventIdQuery"],
    responses: {
      200: { description: "The event stream", contentType: "text/event-stream", schema: serverSentEvent },
      400: { description: "The id is not a UUID, or Last-Event-ID is not a number", schema: s.errorBody },
      404: { description: "No such submission for this account", schema: s.errorBody },
    },
  },
  {
    method: "get", path: "/api/sessions", operationId: "session", tag: "Submissions",
    summary: "Open a live session (WebSocket)",
    description: "Upgrades to a WebSocket that runs one program while the client talks to it: the first message is `start` (the body of POST /api/submit, " +
      "admitted the same way), then `stdin`, `end` and `signal`; the server sends `accepted`, `stage`, `stdout`, `stderr`, `stdin_ack` and at the end " +
      "`result` (the stored record). Flow control, caps and close codes: docs/live-sessions.md.",
    responses: {
      101: { description: "Switching Protocols: the session's WebSocket" },
      401: { description: "Missing or invalid API key: nothing runs", schema: s.errorBody },
      426: { description: "Not a WebSocket upgrade", schema: s.errorBody },
    },
  },
  {
    method: "get", path: "/api/sessions/{id}", operationId: "sessionReconnect", tag: "Submissions",
    summary: "Reconnect to a live session (WebSocket)",
    description: "Attaches a new WebSocket to a session of the same account (`attached`, then the events from then on; the `result` at " +
      "once when the run has ended).",
    parameters: ["SessionId"],
    responses: {
      101: { description: "Switching Protocols: the session's WebSocket" },
      401: { description: "Missing or invalid API key", schema: s.errorBody },
      404: { description: "No such session for this account (or the id is not a UUID): nothing is upgraded", schema: s.errorBody },
      426: { description: "Not a WebSocket upgrade", schema: s.errorBody },
    },
  },
  {
    method: "get", path: "/api/runtimes", operationId: "runtimes", tag: "Reference",
    summary: "Languages and versions the ready nodes run",
    responses: { 200: { description: "One entry per (language, version)", schema: s.runtimes } },
  },
  {
    method: "get", path: "/api/limits", operationId: "limits", tag: "Reference",
    summary: "The caps this key is held to",
    description: "The key's plan with every cap it leaves to a default filled in: rate, in-flight cap, run, compile and checker limits, tests, batches, live " +
      "sessions (max_sessions: sockets open at once), the output budget and the storage quota per shard.",
    responses: { 200: { description: "The key's effective plan", schema: plan } },
  },
  {
    method: "get", path: "/api/languages", operationId: "languages", tag: "Reference",
    summary: "Languages the ready nodes run",
    responses: { 200: { description: "Canonical language names", schema: s.languages } },
  },
  {
    method: "get", path: "/api/health", operationId: "health", tag: "Service",
    summary: "Service health",
    responses: { 200: { description: "ok when a strict node is ready, else degraded", schema: s.health } },
  },
  {
    method: "get", path: "/api/health/ready", operationId: "ready", tag: "Service",
    summary: "Readiness",
    responses: {
      200: { description: "Ready", schema: s.ready },
      503: { description: "Not ready, with the reasons", schema: s.notReady },
    },
  },
  {
    method: "get", path: "/api/openapi.json", operationId: "openapi", tag: "Reference", open: true,
    summary: "This document (no key needed)",
    responses: { 200: { description: "OpenAPI 3.1 document", schema: s.openApiDocument } },
  },
];
