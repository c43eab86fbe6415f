// Sliding-window-log rate limit math, kept pure so it can be unit tested without a Durable Object.
// A key's rate window (keys/rate-window.ts) keeps the request timestamps of the last window; this
// decides whether one more fits.

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
  const d = windowDecision({ count: kept.length, oldest: kept[0] ?? null, newest: kept[kept.length - 1] ?? null }, now, limit, windowMs, (k) => kept[k] ?? now);
  if (d.allowed) kept.push(now);
  return { ...d, kept };
}

/** What a window holds in (now - windowMs, now]: enough to decide without reading every request. */
export interface WindowStats {
  count: number;
  oldest: number | null;
  newest: number | null;
}

/**
 * The same decision from the window's aggregates (keys/rate-window.ts counts in SQL); `nthOldest(k)`, the
 * k-th oldest timestamp (0-based), is asked only for a refusal.
 */
export function windowDecision(w: WindowStats, now: number, limit: number, windowMs: number, nthOldest: (k: number) => number): Omit<WindowDecision, "kept"> {
  if (w.count >= limit) {
    // The request that must leave before a new one fits is the (count - limit)th oldest.
    const blocker = nthOldest(w.count - limit);
    const retryAfterSecs = Math.max(1, Math.ceil((blocker + windowMs - now) / 1000));
    const newest = w.newest ?? now;
    return { allowed: false, remaining: 0, retryAfterSecs, resetSecs: Math.max(1, Math.ceil((newest + windowMs - now) / 1000)) };
  }
  const oldest = w.oldest ?? now;
  return {
    allowed: true,
    remaining: limit - w.count - 1,
    retryAfterSecs: 0,
    resetSecs: Math.max(0, Math.ceil((oldest + windowMs - now) / 1000)),
  };
}
