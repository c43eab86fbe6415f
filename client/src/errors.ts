// Errors the SDK throws. An answer the API refuses becomes an ApiError subclass carrying the
// server's `error` text (and `message`); a request that never got an answer is a ConnectionError.
// An aborted call rejects with the signal's reason, as fetch does.
import type { ErrorBody } from "./api-types.ts";

export class CodecellError extends Error {
  override name = "CodecellError";
}

export class ConnectionError extends CodecellError {
  override name = "ConnectionError";
}

export class ApiError extends CodecellError {
  override name = "ApiError";
  readonly status: number;
  /** The server's `error` text, e.g. "quota exceeded". */
  readonly error: string;
  readonly detail: string | undefined;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(`${status} ${body.error}${body.message ? `: ${body.message}` : ""}`);
    this.status = status;
    this.error = body.error;
    this.detail = body.message;
    this.body = body;
  }
}

/** 400, 413, 415: the request is wrong; the text names the field. */
export class InvalidRequestError extends ApiError {
  override name = "InvalidRequestError";
}
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}

/** 429 and 503 after the retries allowed: wait `retryAfter` seconds. */
export class RetryableError extends ApiError {
  override name = "RetryableError";
  readonly retryAfter: number | null;
  constructor(status: number, body: ErrorBody, retryAfter: number | null) {
    super(status, body);
    this.retryAfter = retryAfter;
  }
}
export class RateLimitError extends RetryableError {
  override name = "RateLimitError";
}
export class UnavailableError extends RetryableError {
  override name = "UnavailableError";
}

/** submit({wait: true}) was not finished within the server's hold: the run carries on. */
export class SyncTimeoutError extends ApiError {
  override name = "SyncTimeoutError";
  readonly id: string;
  readonly jobStatus: string;
  constructor(body: ErrorBody & { id: string; job_status: string }) {
    super(408, body);
    this.id = body.id;
    this.jobStatus = body.job_status;
  }
}

/**
 * A live session refused or ended without its result: the WebSocket's close `code` (4400 a refused
 * start, 4401 a revoked key, 4429 a limit with `retryAfter`, …: docs/live-sessions.md) and the
 * server's `error` message sent before it, when there was one.
 */
export class SessionError extends CodecellError {
  override name = "SessionError";
  readonly code: number;
  /** The server's `error` text (e.g. "rate limited"), or the close's reason when it sent none. */
  readonly error: string;
  readonly detail: string | undefined;
  readonly retryAfter: number | null;
  constructor(code: number, error: string, detail?: string, retryAfter: number | null = null) {
    super(`session closed (${code})${error ? `: ${error}` : ""}${detail ? `: ${detail}` : ""}`);
    this.code = code;
    this.error = error;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const value = headers.get("retry-after");
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function apiError(status: number, body: unknown, headers: Headers): ApiError {
  const b: ErrorBody = typeof body === "object" && body !== null && typeof (body as ErrorBody).error === "string"
    ? (body as ErrorBody)
    : { error: `HTTP ${status}` };
  if (status === 400 || status === 413 || status === 415) return new InvalidRequestError(status, b);
  if (status === 401) return new AuthenticationError(status, b);
  if (status === 404) return new NotFoundError(status, b);
  if (status === 408 && typeof (b as { id?: unknown }).id === "string") return new SyncTimeoutError(b as ErrorBody & { id: string; job_status: string });
  if (status === 429) return new RateLimitError(status, b, retryAfterSeconds(headers));
  if (status === 503) return new UnavailableError(status, b, retryAfterSeconds(headers));
  return new ApiError(status, b);
}
