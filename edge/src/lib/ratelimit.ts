// Sliding-window-log rate limit math, kept pure so it can be unit tested without a Durable Object.
// The KeyDO keeps the request timestamps of the last window; this decides whether one more fits.

export interface WindowDecision {
  allowed: boolean;
  /** Requests left in the window after this one (0 when refused). */
  remaining: number;
  /** Whole seconds until the oldest counted request leaves the window (>= 1 when refused). */
  retryAfterSecs: number;
  /** Whole seconds until the window is completely empty again (RateLimit-Reset). */
  resetSecs: number;
  /** Timestamps still inside the window (sorted), including `now` when allowed. */
  kept: number[];
}

/**
 * A rolling window: a request at `now` is allowed when fewer than `limit` requests happened in
 * (now - windowMs, now]. Retry-After is rounded up so a client that waits exactly that long is
 * never refused again for the same reason.
 */
export function slidingWindow(timestamps: readonly number[], now: number, limit: number, windowMs: number): WindowDecision {
  const kept = timestamps.filter((t) => t > now - windowMs && t <= now).sort((a, b) => a - b);
  if (kept.length >= limit) {
    // The request that must leave before a new one fits is the (len - limit)th oldest.
    const blocker = kept[kept.length - limit] ?? now;
    const retryAfterSecs = Math.max(1, Math.ceil((blocker + windowMs - now) / 1000));
    const newest = kept[kept.length - 1] ?? now;
    return { allowed: false, remaining: 0, retryAfterSecs, resetSecs: Math.max(1, Math.ceil((newest + windowMs - now) / 1000)), kept };
  }
  kept.push(now);
  const oldest = kept[0] ?? now;
  return {
    allowed: true,
    remaining: limit - kept.length,
    retryAfterSecs: 0,
    resetSecs: Math.max(0, Math.ceil((oldest + windowMs - now) / 1000)),
    kept,
  };
}
