// The document's shared headers, parameters and webhooks (Standard Webhooks signatures, docs/webhooks.md).
const int = { type: "integer" };

export const HEADERS: Record<string, { name: string; description: string; schema: object; required?: boolean }> = {
  RateLimitLimit: { name: "RateLimit-Limit", description: "Requests allowed per window (one minute) for this key", schema: int },
  RateLimitRemaining: { name: "RateLimit-Remaining", description: "Requests left in the current window", schema: int },
  RateLimitReset: { name: "RateLimit-Reset", description: "Seconds until the window frees a request", schema: int },
  RateLimitPolicy: { name: "RateLimit-Policy", description: 'The policy, e.g. "60;w=60"', schema: { type: "string" } },
  RetryAfter: { name: "Retry-After", description: "Seconds to wait before retrying", schema: int, required: true },
  ServerTiming: { name: "Server-Timing", description: "Time spent in the edge and its hops (edge;dur=…)", schema: { type: "string" } },
  IdempotentReplayed: { name: "Idempotent-Replayed", description: "true when the answer is the record of an earlier request " +
    "with the same Idempotency-Key", schema: { type: "string", enum: ["true"] } },
};

/** Sent with every answer of an authenticated route once the request was counted. */
export const RATE_HEADERS = ["RateLimitLimit", "RateLimitRemaining", "RateLimitReset", "RateLimitPolicy"];

const uuid = { type: "string", format: "uuid" };

export const PARAMETERS = {
  Wait: {
    name: "wait", in: "query", required: false, schema: { type: "string", enum: ["true", "false"] },
    description: "true: hold the request until the record is terminal (200) or the hold expires (408)",
  },
  IdempotencyKey: {
    name: "Idempotency-Key", in: "header", required: false, schema: uuid,
    description: "A UUID; a repeat with the same key (per API key) returns the first submission's record, 202, and runs nothing",
  },
  SubmissionId: { name: "id", in: "path", required: true, schema: uuid, description: "The submission's id" },
  SessionId: { name: "id", in: "path", required: true, schema: uuid, description: "The live session's id (`session_id` in its `accepted` message)" },
  Ids: {
    name: "ids", in: "query", required: true, schema: { type: "string", pattern: "^[0-9A-Fa-f-]+(,[0-9A-Fa-f-]+)*$" },
    description: "Comma-separated submission ids (UUIDs), at most plan.max_batch",
  },
  LastEventId: {
    name: "Last-Event-ID", in: "header", required: false, schema: { type: "string", pattern: "^[0-9]+$" },
    description: "Resume: only events after this id are sent",
  },
  Base64Encoded: {
    name: "base64_encoded", in: "query", required: false, schema: { type: "string", enum: ["true", "false"] }, description: "Judge0: text fields in base64",
  },
  Judge0Fields: { name: "fields", in: "query", required: false, schema: { type: "string" }, description: "Judge0: comma-separated fields to return, or *" },
  Judge0Token: { name: "token", in: "path", required: true, schema: { type: "string" }, description: "Judge0: the submission's token (our submission id)" },
  Judge0Tokens: { name: "tokens", in: "query", required: true, schema: { type: "string" }, description: "Judge0: comma-separated tokens" },
  Judge0LanguageId: { name: "id", in: "path", required: true, schema: { type: "string" }, description: "Judge0: a language id, as GET " +
    "/judge0/languages lists it" },
  LastEventIdQuery: {
    name: "last_event_id", in: "query", required: false, schema: { type: "string", pattern: "^[0-9]+$" },
    description: "Same as the Last-Event-ID header (for EventSource clients that cannot set headers)",
  },
};

const signatureHeaders = [
  { name: "webhook-id", description: "The submission id; de-duplicate deliveries by it", schema: { type: "string" } },
  { name: "webhook-timestamp", description: "Unix seconds when signed; refuse one " +
    "outside ±5 minutes of your clock", schema: { type: "string", pattern: "^[0-9]+$" } },
  {
    name: "webhook-signature",
    description: "Space-separated `v1,<base64 HMAC-SHA256>` signatures (one per active secret during a rotation) of `<webhook-id>.<webhook-timestamp>.<raw " +
      "body>`, keyed with the base64-decoded secret after its `whsec_` prefix (Standard Webhooks)",
    schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$" },
  },
].map((h) => ({ ...h, in: "header", required: true }));

export const WEBHOOKS = {
  result: {
    post: {
      operationId: "resultWebhook",
      summary: "A submission ended",
      description: "Sent to every active webhook endpoint of the key's project when a submission is completed or ends in error: the whole result record. " +
        "Verify the signature over the raw body before parsing (the SDK's verifyWebhook, or the standardwebhooks package). Answer 2xx quickly: 5xx answers, " +
        "timeouts and network errors are retried (3 attempts in all, about 1 s and 5 s apart); a 4xx stops; redirects are not followed (a failed attempt).",
      parameters: signatureHeaders,
      requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookPayload" } } } },
      responses: { "2XX": { description: "Delivered" }, default: { description: "Failed: 5xx and timeouts are retried, 4xx and 3xx are not" } },
      security: [],
    },
  },
};
