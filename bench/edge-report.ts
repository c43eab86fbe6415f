// bench:edge's report: each figure the median over the repetitions of each repetition's median
// (or p95), the fresh stack beside the same stack after the load phase.
import { cpus } from "node:os";
import type { LoadReport } from "./edge-load.ts";
import type { Repetition, Series, Throughput, ThroughputPair } from "./edge-rep.ts";

export interface Report {
  /** The machine's 1-minute load average at the end of the fresh and the loaded measurement. */
  load1: number[];
  reps: number;
  n: number;
  secs: number;
  clients: number;
  slots: number;
  loadSecs: number;
  loadClients: number;
  fresh: Repetition[];
  loaded: Repetition[];
  loadReport: LoadReport;
  stateBefore: number;
  stateAfter: number;
  /** The directory the measured edge's state was in, and the throughput pairs of an edge whose state was on disk. */
  stateParent: string;
  onDisk: ThroughputPair[];
}

function quantile(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))] ?? NaN;
}
const median = (samples: number[]) => quantile(samples, 0.5);

/** The median over repetitions of a per-repetition figure. */
const overReps = (reps: Repetition[], f: (r: Repetition) => number) => median(reps.map(f));

const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
const met = (ok: boolean) => (ok ? "met" : "missed");

type Pick = (r: Repetition) => Series;

function latencyRow(label: string, pick: Pick, kind: keyof Series, r: Report): string {
  const cell = (reps: Repetition[]) =>
    `${ms(overReps(reps, (x) => median(pick(x)[kind])))} ${ms(overReps(reps, (x) => quantile(pick(x)[kind], 0.95)))}`;
  return `  ${label.padEnd(30)} ${cell(r.fresh)}     ${cell(r.loaded)}`;
}

/** A difference of medians per repetition (e2e − bare, e2e − direct), then its median over them. */
function diffRow(label: string, pick: Pick, a: keyof Series, b: keyof Series, r: Report, target?: number): string {
  const cell = (reps: Repetition[]) => {
    const d = overReps(reps, (x) => median(pick(x)[a]) - median(pick(x)[b]));
    const spread = reps.map((x) => median(pick(x)[a]) - median(pick(x)[b]));
    const range = `(${Math.min(...spread).toFixed(1)}…${Math.max(...spread).toFixed(1)})`.padEnd(14);
    return `${ms(d)} ${range}${target === undefined ? "" : ` ${met(d <= target).padEnd(6)}`}`;
  };
  return `  ${label.padEnd(30)} ${cell(r.fresh)}   ${cell(r.loaded)}`;
}

function hopRows(r: Report): string {
  const names = [...new Set(r.fresh.flatMap((x) => [...x.hops.keys()]))];
  const cell = (reps: Repetition[], hop: string) => ms(overReps(reps, (x) => median(x.hops.get(hop) ?? [NaN])));
  return names.map((hop) => `    ${hop.padEnd(22)} ${cell(r.fresh, hop)}     ${cell(r.loaded, hop)}`).join("\n");
}

function throughputRows(r: Report): string {
  const rate = (reps: Repetition[], f: (x: Repetition) => Throughput) => overReps(reps, (x) => f(x).perSec);
  const cpu = (reps: Repetition[], f: (x: Repetition) => Throughput, k: string) => overReps(reps, (x) => f(x).cpu[k]!).toFixed(2);
  const row = (label: string, f: (x: Repetition) => Throughput) => [r.fresh, r.loaded].map((reps) =>
    `    ${label.padEnd(24)} ${rate(reps, f).toFixed(1).padStart(7)} runs/s   ` +
    `CPU per run: workerd ${cpu(reps, f, "workerd")}, launcher ${cpu(reps, f, "launcher")}, fleet node ${cpu(reps, f, "node")} ms`);
  const ratio = (reps: Repetition[]) => overReps(reps, (x) => x.throughEdge.perSec / x.nodeOnly.perSec);
  const [nodeFresh, nodeLoaded] = row("node only (gRPC-Web)", (x) => x.nodeOnly);
  const [edgeFresh, edgeLoaded] = row("through the edge", (x) => x.throughEdge);
  const ratioRow = (reps: Repetition[]) =>
    `    edge / node-only         ${(ratio(reps) * 100).toFixed(0).padStart(6)} %        (target ≥ 60 %: ${met(ratio(reps) >= 0.6)})`;
  return [`  fresh stack:`, nodeFresh, edgeFresh, ratioRow(r.fresh), `  after the load:`, nodeLoaded, edgeLoaded, ratioRow(r.loaded)].join("\n");
}

/** For reference: the same pairs through an edge whose state is on this machine's disk. */
function diskRows(r: Report): string {
  if (r.onDisk.length === 0) return "    (not measured: BENCH_DISK_REPS=0)";
  const each = r.onDisk.map((p) =>
    `${((100 * p.throughEdge.perSec) / p.nodeOnly.perSec).toFixed(0)} % ` +
    `(${p.throughEdge.perSec.toFixed(0)} of ${p.nodeOnly.perSec.toFixed(0)} runs/s, workerd ${p.throughEdge.cpu.workerd!.toFixed(2)} ms per run)`);
  return `    edge / node-only, each pair: ${each.join("; ")}`;
}

export function printReport(r: Report): void {
  const py: Pick = (x) => x.py;
  const c: Pick = (x) => x.c;
  const l = r.loadReport;
  const odd = [...l.unexpected.entries()].map(([status, n]) => `${n}× ${status === 0 ? "failed" : status}`).join(", ") || "none";
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  console.log(`
codecell edge benchmark: median of ${r.reps} repetitions, ${r.n} samples per series each; fleet run slots=${r.slots};
machine load average (1 min) ${r.load1.map((x) => x.toFixed(1)).join(" fresh, ")} after load, on ${cpus().length} cores

                                  fresh stack                 after ${r.loadSecs} s of load
                                  median       p95            median       p95
${latencyRow("bare python3 -c", py, "bare", r)}
${latencyRow("direct node, python", py, "direct", r)}
${latencyRow("e2e python (stack client)", py, "e2e", r)}
${latencyRow("e2e python (undici fetch)", py, "plain", r)}
${latencyRow("bare C binary", c, "bare", r)}
${latencyRow("direct node, C cached", c, "direct", r)}
${latencyRow("e2e C cached (stack client)", c, "e2e", r)}
${latencyRow("e2e C cached (undici fetch)", c, "plain", r)}
  ("direct node" = gRPC-Web Execute straight to the fleet node, no edge; e2e = synchronous submit)

                                  fresh (min…max of reps)  target   after load
${diffRow("python e2e − bare, stack", py, "e2e", "bare", r, 10)}
${diffRow("python e2e − bare, undici", py, "plain", "bare", r, 10)}
${diffRow("python edge share, stack", py, "e2e", "direct", r)}
${diffRow("python edge share, undici", py, "plain", "direct", r)}
${diffRow("C e2e − bare, stack", c, "e2e", "bare", r)}
${diffRow("C edge share, stack", c, "e2e", "direct", r)}
${diffRow("C edge share, undici", c, "plain", "direct", r)}
  (edge share = e2e − direct: what the edge adds to the same run)

  where a synchronous Python submit spends its time inside the edge (Server-Timing, medians): fresh, after load
${hopRows(r)}
    (edge = the Worker's whole handling; in_submission = SubmissionDO.create from entry to answer;
     key_to_submission = the KeyDO↔SubmissionDO round trip outside it; enqueue = the scheduler call;
     node_first_event / node_run = the Execute stream)

  throughput at saturation, ${r.clients} concurrent synchronous cached-C runs for ${r.secs} s each:
${throughputRows(r)}
    (CPU: workerd runs the Worker, its Durable Objects and the TLS termination; "launcher" is
     scripts/edge-dev.ts's Node process; "fleet node" its service, launcher and sandboxes;
     the edge's state was in ${r.stateParent})
  the same, through a fresh edge whose state is on this machine's disk (${r.onDisk.length} pairs; workerd then
  fsyncs each Durable Object commit on its one thread):
${diskRows(r)}

  load phase: ${r.loadClients} clients for ${l.seconds.toFixed(0)} s: ${l.submissions} submissions, ${l.reads} reads, unexpected answers: ${odd};
  the edge's stored state ${mb(r.stateBefore)} before it, ${mb(r.stateAfter)} after
`);
}
