// @codecell/client: a typed client for the codecell API (docs/openapi.json) and the webhook verifier.
export { Codecell } from "./client.ts";
export type { CallOptions, CodecellOptions, EventsOptions, SubmitOptions, WaitOptions } from "./client.ts";
export type { RetryOptions } from "./http.ts";
export {
  ApiError, AuthenticationError, CodecellError, ConnectionError, InvalidRequestError, NotFoundError, RateLimitError, RetryableError,
  SyncTimeoutError, UnavailableError,
} from "./errors.ts";
export { RecentIds, WebhookVerificationError, verifyWebhook } from "./webhooks.ts";
export type * from "./types.ts";
export type { components, paths, webhooks } from "./api.gen.ts";
