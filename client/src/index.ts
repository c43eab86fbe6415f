// @codecell/client: a typed client for the codecell API (docs/openapi.json) and the webhook verifier.
export { Codecell } from "./client.ts";
export type { CallOptions, CodecellOptions, EventsOptions, SubmitOptions, WaitOptions } from "./client.ts";
export type { RetryOptions } from "./http.ts";
export type { Session } from "./session.ts";
export type { WebSocketFactory } from "./session-open.ts";
export type { SessionEvent, SessionLimits, SessionRequest, SessionSignal } from "./api-types.ts";
export {
  ApiError, AuthenticationError, CodecellError, ConnectionError, InvalidRequestError, NotFoundError, RateLimitError, RetryableError,
  SessionError, SyncTimeoutError, UnavailableError,
} from "./errors.ts";
export { RecentIds, WebhookVerificationError } from "./verify-webhook.ts";
import { verifyWebhook as verify } from "./verify-webhook.ts";
import type { WebhookPayload } from "./api-types.ts";
/** Verifies a webhook delivery (signature, timestamp) and returns its payload: the result record. */
export const verifyWebhook: (...args: Parameters<typeof verify>) => Promise<WebhookPayload> = verify;
export type * from "./api-types.ts";
export type { components, paths, webhooks } from "./api.gen.ts";
