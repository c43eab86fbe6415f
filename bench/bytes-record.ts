// bench:bytes's readings of a finished record: the output it keeps, its budget fields, its trim mark,
// and its /events replay read to the end (bench/bytes-run.ts).
import https from "node:https";

/** The replay read to its end: bytes on the wire, events counted, the last event's name. */
export interface EventsReading {
  bytes: number;
  count: number;
  last: string;
  ms: number;
  error?: string;
}

/** The program's output in the record: every stdout/stderr string, top level and tests, as UTF-8 (base64 decoded). */
export function keptBytes(rec: Record<string, unknown>): number {
  const b64 = rec.encoding === "base64";
  const size = (v: unknown) => (typeof v !== "string" ? 0 : b64 ? Buffer.from(v, "base64").length : Buffer.byteLength(v, "utf8"));
  let total = size(rec.stdout) + size(rec.stderr);
  for (const t of (rec.tests as Record<string, unknown>[] | undefined) ?? []) total += size(t.stdout) + size(t.stderr);
  return total;
}

/**
 * The record's own output budget, when it has one (a top-level field named *budget* or *tally*):
 * its budget and the bytes it says were kept and dropped, summed over the streams.
 */
export function budgetFields(rec: Record<string, unknown>): string {
  const sums = { budget: 0, kept: 0, dropped: 0 };
  const walk = (v: unknown, key: string) => {
    if (typeof v === "number") {
      for (const k of ["budget", "kept", "dropped"] as const) if (key.includes(k)) sums[k] += v;
    } else if (v && typeof v === "object") for (const [k, w] of Object.entries(v)) walk(w, k);
  };
  const fields = Object.keys(rec).filter((k) => /budget|tally/i.test(k));
  for (const k of fields) walk(rec[k], k);
  const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
  return fields.length ? `${fields.join(",")}: ${mib(sums.budget)}, kept ${mib(sums.kept)}, dropped ${mib(sums.dropped)}` : "";
}

export function wasTrimmed(rec: Record<string, unknown>): boolean {
  const actions = (rec.evidence as { judge_actions?: string[] } | undefined)?.judge_actions ?? [];
  return actions.some((a) => /trim/i.test(a));
}

/**
 * GET /api/result/{id}/events after completion, read to its end: bytes on the wire (no
 * Accept-Encoding sent, so identity), events counted, the last event's name.
 */
export function readEvents(base: string, key: string, id: string, timeoutMs: number): Promise<EventsReading> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    let bytes = 0;
    let count = 0;
    let tail = "";
    let last = "";
    const done = (error?: string) => resolve({ bytes, count, last, ms: performance.now() - t0, ...(error ? { error } : {}) });
    const req = https.get(new URL(`/api/result/${id}/events`, base), { headers: { "x-api-key": key }, rejectUnauthorized: false, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        done(`status ${res.statusCode}`);
        return;
      }
      res.setEncoding("latin1");
      res.on("data", (chunk: string) => {
        bytes += chunk.length;
        const text = tail + chunk;
        for (const m of text.matchAll(/(?:^|\n)event: ?([^\n]*)\n/g)) {
          // An event line that the tail already held was counted with the chunk before.
          if (m.index + m[0].length > tail.length) {
            count++;
            last = m[1]!;
          }
        }
        tail = text.slice(-256);
      });
      res.on("end", () => done());
      res.on("error", (e) => done(String(e)));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error("events: timeout")));
    req.on("error", (e) => done(String(e)));
  });
}
