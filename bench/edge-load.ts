// bench:edge's load phase: a bounded load (a fixed number of concurrent clients, each one request at
// a time) for a given time, of the kinds a busy day brings: synchronous runs, asynchronous ones
// with an Idempotency-Key polled to their end, and reads of earlier results. Its submissions stay
// stored (records, idempotency keys, wake-ups), so what follows measures the edge with that state.
import type { Client } from "../scripts/stack/index.ts";
import { C, PY } from "./edge-rep.ts";

export interface LoadReport {
  submissions: number;
  reads: number;
  /** Answers other than the expected one, by status (0: the request failed). */
  unexpected: Map<number, number>;
  seconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function load(clients: Client[], secs: number): Promise<LoadReport> {
  const report: LoadReport = { submissions: 0, reads: 0, unexpected: new Map(), seconds: 0 };
  /** Each client's own submissions: a record is read only by its own account's keys. */
  const ids = clients.map((): string[] => []);
  const odd = (status: number): void => void report.unexpected.set(status, (report.unexpected.get(status) ?? 0) + 1);
  const stopAt = Date.now() + secs * 1000;
  const t0 = performance.now();
  const one = async (client: Client, mine: string[], turn: number): Promise<void> => {
    if (turn % 3 === 0) {
      const r = await client.submit({ language: "c", code: C }, { wait: true });
      report.submissions++;
      if (r.status !== 200) odd(r.status);
      else mine.push(r.json.id as string);
      return;
    }
    if (turn % 3 === 1) {
      const r = await client.submit({ language: "python", code: PY, stdin: "x".repeat(turn % 200) }, { headers: { "idempotency-key": crypto.randomUUID() } });
      report.submissions++;
      if (r.status !== 202) return odd(r.status);
      const id = r.json.id as string;
      for (let polls = 0; polls < 300; polls++) {
        await sleep(50);
        const p = await client.result(id);
        report.reads++;
        if (p.status !== 200) return odd(p.status);
        if (p.json.job_status === "completed" || p.json.job_status === "error") break;
      }
      mine.push(id);
      return;
    }
    const id = mine[Math.floor(Math.random() * mine.length)];
    if (!id) return;
    const r = await client.result(id);
    report.reads++;
    if (r.status !== 200) odd(r.status);
  };
  await Promise.all(clients.map(async (client, i) => {
    for (let turn = i; Date.now() < stopAt; turn++) await one(client, ids[i]!, turn).catch(() => odd(0));
  }));
  report.seconds = (performance.now() - t0) / 1000;
  return report;
}
