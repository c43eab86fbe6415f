// npm run bench:scheduler — the scale model (not a test): the edge's real SchedulerDO class
// (edge/src/do/scheduler-do.ts, unchanged) driven in virtual time by fake nodes that answer after a
// sampled run time. Its Durable Object storage is SQLite here too (node:sqlite behind the same
// `sql.exec` surface); `cloudflare:workers` is a two-line shim. Printed: queue wait p50/p99, run
// slot utilisation, scheduler operations per submission, and the real CPU time the scheduler
// spent per operation, from which one pool's ceiling and the pools a global load needs follow.
//   SIM_NODES (100), SIM_SLOTS per node (4), SIM_RATE submissions/s (2000, below capacity),
//   SIM_SECS of virtual time (20), SIM_RUN_MS median run time (150, log-normal), SIM_RPC_MS the
//   cost of one Durable Object call in workerd around the decision (0.35: bench:edge's probes)
import { registerHooks } from "node:module";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";

const NODES = Number(process.env.SIM_NODES ?? 100);
const SLOTS = Number(process.env.SIM_SLOTS ?? 4);
const RATE = Number(process.env.SIM_RATE ?? 2000);
const SECS = Number(process.env.SIM_SECS ?? 20);
const RUN_MS = Number(process.env.SIM_RUN_MS ?? 150);
const RPC_MS = Number(process.env.SIM_RPC_MS ?? 0.35);

const ROOT = join(import.meta.dirname, "..");
const SHIM = `data:text/javascript,${encodeURIComponent("export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }")}`;
registerHooks({
  resolve(specifier, context, next) {
    return specifier === "cloudflare:workers" ? { url: SHIM, shortCircuit: true } : next(specifier, context);
  },
});

// ---- virtual time ----
let now = 0;
Date.now = () => Math.floor(now);

// ---- the Durable Object's storage: SQLite and a KV map ----
function sqlStorage(db: DatabaseSync) {
  return {
    exec(query: string, ...bindings: unknown[]) {
      const stmt = db.prepare(query);
      const reads = /^\s*(select|pragma)|\breturning\b/i.test(query);
      if (!reads) {
        const rowsWritten = Number(stmt.run(...(bindings as never[])).changes);
        return { toArray: () => [], one: () => undefined, rowsWritten, [Symbol.iterator]: () => [][Symbol.iterator]() };
      }
      // Like workerd's cursor: iterating reads rows lazily, toArray() reads them all.
      const all = () => stmt.all(...(bindings as never[])) as Record<string, unknown>[];
      return { toArray: all, one: () => all()[0], rowsWritten: 0, [Symbol.iterator]: () => stmt.iterate(...(bindings as never[])) };
    },
  };
}
function kvStorage() {
  const map = new Map<string, unknown>();
  return { get: (k: string) => map.get(k), put: (k: string, v: unknown) => void map.set(k, v), delete: (k: string) => map.delete(k) };
}

interface Event {
  at: number;
  run: () => void;
}
const events: Event[] = [];
function schedule(at: number, run: () => void): void {
  // binary insertion keeps the queue ordered by time (FIFO among equal times)
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid]!.at <= at) lo = mid + 1;
    else hi = mid;
  }
  events.splice(lo, 0, { at, run });
}

/** Log-normal run time with the given median (sigma 0.5): a few long runs, most near the median. */
function runTime(): number {
  const u = Math.random() || 1e-9;
  const v = Math.random();
  const gauss = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return RUN_MS * Math.exp(0.5 * gauss);
}

const arrivedAt = new Map<string, number>();
const waits: number[] = [];
let busySlotMs = 0;
let ops = 0;
let opCpuMs = 0;

// The fake fleet: a run dispatched now ends after its sampled run time, and the submission then
// releases its run slot (as SubmissionDO does after its commit).
function startRun(subId: string): void {
  waits.push(now - arrivedAt.get(subId)!);
  const ms = runTime();
  busySlotMs += ms;
  schedule(now + ms, () => call(() => scheduler.release(subId)));
}

const env = {
  QUEUE_CAPACITY: String(1_000_000),
  SUBMISSION_DO: {
    idFromName: (name: string) => name,
    get: (id: string) => ({ dispatch: async () => startRun(id) }),
  },
  DASHBOARD_DO: { idFromName: (n: string) => n, get: () => ({ changed: async () => {} }) },
};
const ctx = {
  storage: { sql: sqlStorage(new DatabaseSync(":memory:")), kv: kvStorage(), getAlarm: async () => 1, setAlarm: async () => {} },
  waitUntil: (p: Promise<unknown>) => void p,
};

const schedulerModule = pathToFileURL(join(ROOT, "edge", "src", "do", "scheduler-do.ts")).href;
const { SchedulerDO } = (await import(schedulerModule)) as {
  SchedulerDO: new (ctx: unknown, env: unknown) => {
    putNode(n: unknown): void;
    enqueue(subId: string, language: string): { kind: string };
    release(subId: string): void;
  };
};
const scheduler = new SchedulerDO(ctx, env);

/** One scheduler operation, timed on the real clock. */
function call<T>(op: () => T): T {
  const t0 = performance.now();
  const result = op();
  opCpuMs += performance.now() - t0;
  ops++;
  return result;
}

for (let i = 0; i < NODES; i++) {
  call(() => scheduler.putNode({
    id: `n${i}`, pool: "default", url: `https://10.0.0.${i}:50052`, token: "t", run_slots: SLOTS, languages: ["c", "python"], ready: true,
  }));
}
const setupOps = ops;
ops = 0;
opCpuMs = 0;

let submitted = 0;
for (let t = 0; t < SECS * 1000; t += 1000 / RATE) {
  schedule(t, () => {
    const id = `s${submitted++}`;
    arrivedAt.set(id, now);
    const r = call(() => scheduler.enqueue(id, submitted % 2 ? "python" : "c"));
    if (r.kind === "dispatched") startRun(id);
  });
}
while (events.length > 0) {
  const e = events.shift()!;
  now = e.at;
  e.run();
  await Promise.resolve(); // dispatch notifications are promises
}

const sorted = [...waits].sort((a, b) => a - b);
const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const capacity = (NODES * SLOTS * 1000) / RUN_MS / Math.exp(0.125); // slots / mean run time (log-normal mean = median·e^(σ²/2))
const perOp = opCpuMs / ops;
const perSubmission = ops / submitted;
const ceiling = 1000 / (perOp * perSubmission);
const ceilingWithRpc = 1000 / ((perOp + RPC_MS) * perSubmission);
console.log([
  `scheduler scale model: ${NODES} nodes × ${SLOTS} run slots, runs log-normal with median ${RUN_MS} ms; ` +
    `${RATE} submissions/s for ${SECS} s of virtual time ` +
    `(${submitted} submissions, fleet capacity ≈ ${capacity.toFixed(0)}/s, ${setupOps} node pushes first)`,
  `  queue wait (dispatch − arrival): p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
  `  run slot utilisation: ${((busySlotMs / (NODES * SLOTS * (now || 1))) * 100).toFixed(1)} %`,
  `  scheduler operations per submission: ${perSubmission.toFixed(2)} (enqueue + release)`,
  `  scheduler CPU per operation (real, this machine, SQLite in process): ${(perOp * 1000).toFixed(0)} µs → ` +
    `one scheduler decides ≈ ${ceiling.toFixed(0)} submissions/s`,
  `  with ${RPC_MS} ms of Durable Object call around each operation: ≈ ${ceilingWithRpc.toFixed(0)} submissions/s per scheduler object`,
  `  pools needed for a global load L at full use of each scheduler: ⌈L / ${ceilingWithRpc.toFixed(0)}⌉ ` +
    `(plan for half: ⌈L / ${(ceilingWithRpc / 2).toFixed(0)}⌉)`,
].join("\n"));
