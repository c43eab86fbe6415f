// When a webhook attempt is made and what its answer means (docs/api.md, "Webhooks"). Pure.
import type { AttemptOutcome } from "../contracts/webhook-delivery.ts";

/**
 * The documented schedule (docs/api.md: immediately, then after 1 second, then after 5 seconds):
 * attempt 1, 2, 3 start at these offsets from the first attempt's start — but
 * never before the previous attempt has ended (a timed-out attempt pushes the next one back).
 */
export const ATTEMPT_OFFSETS_MS = [0, 1_000, 5_000] as const;
export const MAX_ATTEMPTS = ATTEMPT_OFFSETS_MS.length;
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * 2xx delivered; 5xx, timeouts and network errors (status null) retry while attempts
 * remain; 4xx stops; 3xx is a failed attempt (redirects are never followed) and is not retried.
 */
export function classify(status: number | null, attempt: number): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return "delivered";
  const retryable = status === null || status >= 500;
  return retryable && attempt < MAX_ATTEMPTS ? "retry" : "failed";
}

/** When attempt `next` (1-based) starts: its offset from the first attempt, once the previous one has ended. */
export function nextAttemptAt(firstStartMs: number, previousEndMs: number, next: number): number {
  const offset: number = ATTEMPT_OFFSETS_MS[next - 1] ?? 5_000;
  return Math.max(previousEndMs, firstStartMs + offset);
}
