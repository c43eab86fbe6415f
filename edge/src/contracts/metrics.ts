// MetricsDO's RPC surface: the edge's request metrics, summed over every isolate. Each isolate
// counts in memory and adds what it counted here at most once a second (metrics/recorder.ts).

/** One additive sample: a counter, or one part of a histogram (`_bucket`, `_sum`, `_count`). */
export interface MetricSample {
  name: string;
  /** Labels in exposition order (a bucket's `le` last). */
  labels: Record<string, string>;
  value: number;
}

export interface MetricsRpc {
  /** Adds each sample's value to the stored total of the same series. */
  add(samples: MetricSample[]): void;
  /** Every series' total so far. */
  totals(): MetricSample[];
}
