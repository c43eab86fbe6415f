// The edge's request metrics inside one isolate. Isolates share no memory, so each counts here,
// synchronously and without I/O, and hands what it counted to MetricsDO at most once a second
// (or after FLUSH_AFTER_REQUESTS requests) from ctx.waitUntil, after the response has gone: no
// request waits for a Durable Object because of metrics. A failed hand-over is kept for the next.
import type { MetricSample } from "../contracts/metrics.ts";

export const REQUESTS = "codecell_edge_requests_total";
export const DURATION = "codecell_edge_request_duration_seconds";
/** Upper bounds (seconds) of the latency histogram's buckets; +Inf is implied. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;
export const FLUSH_INTERVAL_MS = 1_000;
export const FLUSH_AFTER_REQUESTS = 1_000;

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

interface Latency {
  /** Requests per bucket (not cumulative), the last one being +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}

export type Send = (samples: MetricSample[]) => Promise<void>;

export class Recorder {
  #requests = new Map<string, number>();
  #latency = new Map<string, Latency>();
  #carried = new Map<string, MetricSample>();
  #unsent = 0;
  #lastFlushAt = 0;
  #inFlight: Promise<void> | null = null;

  /** Counts one answered request. `route` must be a route pattern, never a raw path. */
  record(route: string, method: string, status: number, seconds: number): void {
    const m = method.toUpperCase();
    const key = `${route}\0${METHODS.has(m) ? m : "OTHER"}\0${status}`;
    this.#requests.set(key, (this.#requests.get(key) ?? 0) + 1);
    let latency = this.#latency.get(route);
    if (!latency) this.#latency.set(route, (latency = { buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    latency.buckets[i]!++;
    latency.sum += seconds;
    latency.count++;
    this.#unsent++;
  }

  /** Starts a hand-over (in `waitUntil`) when one is due; otherwise does nothing. */
  flushIfDue(waitUntil: (p: Promise<unknown>) => void, send: Send, now = Date.now()): void {
    if (this.#inFlight || this.#unsent === 0) return;
    if (now - this.#lastFlushAt < FLUSH_INTERVAL_MS && this.#unsent < FLUSH_AFTER_REQUESTS) return;
    waitUntil(this.flush(send, now));
  }

  /** Hands over everything counted so far (after any hand-over already under way). Never throws. */
  async flush(send: Send, now = Date.now()): Promise<void> {
    while (this.#inFlight) await this.#inFlight;
    const samples = this.#take();
    if (samples.length === 0) return;
    this.#lastFlushAt = now;
    this.#inFlight = send(samples).catch((e: unknown) => {
      console.warn("metrics hand-over failed; kept for the next", String(e));
      for (const s of samples) this.#carry(s);
    }).finally(() => {
      this.#inFlight = null;
    });
    await this.#inFlight;
  }

  /** Everything counted since the last hand-over, as additive samples; the counts restart at 0. */
  #take(): MetricSample[] {
    const samples = [...this.#carried.values()];
    this.#carried.clear();
    for (const [key, value] of this.#requests) {
      const [route, method, status] = key.split("\0") as [string, string, string];
      samples.push({ name: REQUESTS, labels: { route, method, status }, value });
    }
    for (const [route, latency] of this.#latency) {
      let cumulative = 0;
      latency.buckets.forEach((n, i) => {
        cumulative += n;
        const le = i < LATENCY_BUCKETS.length ? String(LATENCY_BUCKETS[i]) : "+Inf";
        samples.push({ name: `${DURATION}_bucket`, labels: { route, le }, value: cumulative });
      });
      samples.push({ name: `${DURATION}_sum`, labels: { route }, value: latency.sum });
      samples.push({ name: `${DURATION}_count`, labels: { route }, value: latency.count });
    }
    this.#requests.clear();
    this.#latency.clear();
    this.#unsent = 0;
    return samples;
  }

  #carry(sample: MetricSample): void {
    const key = `${sample.name}${JSON.stringify(sample.labels)}`;
    const held = this.#carried.get(key);
    this.#carried.set(key, held ? { ...held, value: held.value + sample.value } : sample);
  }
}
