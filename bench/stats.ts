/** Median and p95 of a sample, in the sample's unit. */
export function summarize(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

export async function timeMany(count: number, run: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

export function row(label: string, samples: number[], baseline?: number[]): string {
  const { median, p95 } = summarize(samples);
  const extra = baseline ? `  (+${(median - summarize(baseline).median).toFixed(2)} ms median vs baseline)` : "";
  return `${label.padEnd(52)} median ${median.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms${extra}`;
}
