// bench:bytes's scenarios and one scenario's run against a started stack: the submission, its
// polling, the events replay, the neighbour's loop meanwhile, and the figures (bench/bytes.bench.ts).
import { HeapSampler, type HeapReading, type HeapUsage } from "./bytes-heap.ts";
import { mem, resetPeak, saveSmaps, snapshotStore, type Mem } from "./bytes-measure.ts";
import { budgetFields, keptBytes, readEvents, wasTrimmed, type EventsReading } from "./bytes-record.ts";
import type { Stack } from "./bytes-side.ts";

const KiB = 1024;
const MiB = 1024 * KiB;

export interface Scenario {
  id: string;
  label: string;
  tests: number;
  /** Bytes of 0x01 each test writes to stdout, to stderr. */
  out: number;
  err: number;
  /** The scenario's time cap: submit to completed (the polling gives up then). */
  capMs: number;
}

export const SCENARIOS: Scenario[] = [
  { id: "1", label: "4 tests × 256 KiB of 0x01 on stdout", tests: 4, out: 256 * KiB, err: 0, capMs: 60_000 },
  { id: "2", label: "16 tests × 1 MiB of 0x01 on stdout", tests: 16, out: MiB, err: 0, capMs: 120_000 },
  { id: "3", label: "100 tests × 2 MiB of 0x01 on stdout and on stderr", tests: 100, out: 2 * MiB, err: 2 * MiB, capMs: 200_000 },
];

/** The default plan's capture cap per stream (edge/src/plans/plan-caps.ts, max_output_kb 1024). */
export const CAPTURE_CAP = MiB;

/**
 * Reads "<stdout bytes> <stderr bytes>" from stdin and writes that many bytes of 0x01 to each,
 * 64 KiB per fwrite, the two streams interleaved; a pipe the node closed at its capture cap does
 * not kill it (SIGPIPE ignored, the failed writes dropped).
 */
export const PROGRAM = `#include <signal.h>
#include <stdio.h>
#include <string.h>
static char block[65536];
int main(void) {
  long out = 0, err = 0;
  if (scanf("%ld %ld", &out, &err) != 2) return 2;
  signal(SIGPIPE, SIG_IGN);
  memset(block, 1, sizeof block);
  while (out > 0 || err > 0) {
    if (out > 0) { long n = out < (long)sizeof block ? out : (long)sizeof block; fwrite(block, 1, n, stdout); out -= n; }
    if (err > 0) { long n = err < (long)sizeof block ? err : (long)sizeof block; fwrite(block, 1, n, stderr); err -= n; }
  }
  fflush(stdout);
  return 0;
}
`;

export interface Figures {
  error?: string;
  /** The scenario's submission id, once accepted ("" before). */
  id: string;
  /** What the program wrote, what the node could capture of it (cap per stream), what the record carries. */
  printed: number;
  captured: number;
  kept: number;
  verdict: string;
  jobStatus: string;
  /** Submit to completed, ms (null: not completed within the cap). */
  completedMs: number | null;
  /** The record's own output budget fields, when it has any (e.g. output_tally, output_budget). */
  recordBudget: string;
  trimmed: boolean;
  recordBytes: number;
  events: EventsReading | null;
  store: {
    /** Key + value bytes of the scenario submission's own rows. */
    own: number;
    /** Growth over the scenario: pages in use, files on disk, of the whole namespace. */
    usedGrowth: number;
    fileGrowth: number;
    /** Row bytes of the neighbour's submissions made meanwhile (inside the growth above). */
    neighbourRows: number;
    databases: number;
  };
  /**
   * RSS at the reset, peak since, RSS at the end (or last seen: `gone`, the process died meanwhile);
   * `growth`: RSS at the end minus at the reset, split as /proc/<pid>/status does (anonymous,
   * file-backed, shared memory).
   */
  workerd: Watched | null;
  node: Watched | null;
  /**
   * workerd's JavaScript heaps (bench/bytes-heap.ts), the edge's isolate and all isolates summed:
   * after a GC before the submit, the largest used heap sampled (every 100 ms) until the RSS peak
   * is read, after a GC at the end (the edge quiet). null: no inspector (`heapError`: it failed).
   */
  heap: {
    base: HeapReading; peakEdge: HeapUsage; peakAll: HeapUsage; end: HeapReading; samples: number;
    /** The largest ArrayBuffer backing stores of the edge's isolate; the largest committed heap (totalSize), the edge's and all isolates'. */
    peakEdgeBacking: number; peakEdgeTotal: number; peakAllTotal: number;
  } | null;
  heapError?: string;
  /** workerd's peak when the completed record had been read, before the events replay (bytes). */
  workerdPeakAtCompleted: number | null;
  /** The edge's own output (tail), when its workerd died. */
  edgeLog?: string;
  neighbour: { latencies: number[]; verdicts: Map<string, number> };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Watched {
  base: number;
  peak: number;
  after: number;
  gone: boolean;
  growth: { anon: number; file: number; shmem: number };
}

/** Synchronous `print(1)` submits in a loop until `stop` resolves: each one's latency and verdict (or status). */
async function neighbourLoop(stack: Stack, stop: { stopped: boolean }, ids: Set<string>, out: Figures["neighbour"]): Promise<void> {
  const client = new stack.mod.Client(stack.edge.base, stack.neighbourKey);
  while (!stop.stopped) {
    const t0 = performance.now();
    let verdict: string;
    try {
      const r = await client.submit({ language: "python", code: "print(1)" }, { wait: true });
      if (typeof r.json?.id === "string") ids.add(r.json.id.toLowerCase());
      verdict = r.status === 200 ? String(r.json?.verdict) : `HTTP ${r.status}`;
    } catch (e) {
      verdict = `error ${String(e instanceof Error ? e.message : e).slice(0, 40)}`;
      await sleep(200);
    }
    out.latencies.push(performance.now() - t0);
    out.verdicts.set(verdict, (out.verdicts.get(verdict) ?? 0) + 1);
  }
}

/** A few neighbour submits on the idle stack (warm-up, then the idle latency to compare with). */
export async function idleNeighbour(stack: Stack, count: number): Promise<Figures["neighbour"]> {
  const out: Figures["neighbour"] = { latencies: [], verdicts: new Map() };
  const client = new stack.mod.Client(stack.edge.base, stack.neighbourKey);
  for (let i = 0; i < count + 3; i++) {
    const t0 = performance.now();
    const r = await client.submit({ language: "python", code: "print(1)" }, { wait: true });
    if (i < 3) continue;
    out.latencies.push(performance.now() - t0);
    const verdict = r.status === 200 ? String(r.json?.verdict) : `HTTP ${r.status}`;
    out.verdicts.set(verdict, (out.verdicts.get(verdict) ?? 0) + 1);
  }
  return out;
}

/**
 * One run of the first scenario's shape (4 tests × 256 KiB), polled and replayed like a scenario
 * and not measured: the program compiled (the node's compile cache), workerd's heap grown to what
 * a warm edge that has served such a request keeps, so that the first scenario is not charged for
 * growth that only a cold edge pays.
 */
export async function warmUp(stack: Stack): Promise<void> {
  const client = new stack.mod.Client(stack.edge.base, stack.key);
  const sub = await client.submit({ language: "c", code: PROGRAM, tests: Array.from({ length: 4 }, () => ({ stdin: `${256 * KiB} 0\n` })) });
  if (sub.status !== 202) throw new Error(`warm-up submit: ${sub.status} ${sub.text.slice(0, 300)}`);
  const done = await client.terminal(sub.json.id as string, 60_000);
  if (done.json?.verdict !== "AC") throw new Error(`warm-up: ${done.text.slice(0, 300)}`);
  await readEvents(stack.edge.base, stack.key, sub.json.id as string, 60_000);
}

/**
 * Watches a process's VmHWM from a reset on (every 200 ms, and once at the end), so that a process
 * that dies meanwhile still leaves the peak last seen.
 */
class PeakWatch {
  readonly pid: number;
  readonly #base: Mem | null;
  #last: Mem | null;
  #timer: NodeJS.Timeout;
  gone = false;
  constructor(pid: number) {
    this.pid = pid;
    this.#base = resetPeak(pid);
    this.#last = this.#base;
    this.#timer = setInterval(() => this.#sample(), 200);
  }
  #sample(): void {
    const now = mem(this.pid);
    if (now) this.#last = now;
    else this.gone = true;
  }
  /** The peak so far (VmHWM now), or null once the process is gone. */
  peakNow(): number | null {
    return mem(this.pid)?.hwm ?? null;
  }
  end(): Watched | null {
    clearInterval(this.#timer);
    this.#sample();
    const [b, l] = [this.#base, this.#last];
    if (!b || !l) return null;
    return {
      base: b.rss, peak: l.hwm, after: l.rss, gone: this.gone,
      growth: { anon: l.anon - b.anon, file: l.file - b.file, shmem: l.shmem - b.shmem },
    };
  }
}

/** Polls the record every 0.5 s until it is completed (or error), or the scenario's cap passes. */
async function pollRecord(
  client: InstanceType<Stack["mod"]["Client"]>, id: string, s: Scenario, t0: number, fig: Figures, workerd: PeakWatch,
): Promise<Record<string, unknown> | null> {
  const deadline = Date.now() + s.capMs;
  for (;;) {
    let last: string;
    try {
      const r = await client.result(id);
      const status = r.status === 200 ? (r.json?.job_status as string) : "";
      if (status === "completed" || status === "error") {
        fig.completedMs = performance.now() - t0;
        fig.recordBytes = Buffer.byteLength(r.text, "utf8");
        return r.json as Record<string, unknown>;
      }
      last = `${r.status} ${status || r.text.slice(0, 120)}`;
    } catch (e) {
      // A poll that failed is tried again while workerd lives (a GET of a big record may time out).
      last = String(e instanceof Error ? e.message : e).slice(0, 120);
      if (workerd.gone || mem(workerd.pid) === null) throw new Error(`polling: ${last}`);
    }
    if (Date.now() > deadline) {
      fig.error = `not completed within ${s.capMs / 1000} s (last poll: ${last})`;
      return null;
    }
    await sleep(500);
  }
}

/** The submission (its id into `fig.id` at once), its record polled to the end, its events replayed. */
async function submitAndRead(stack: Stack, s: Scenario, fig: Figures, workerd: PeakWatch, log: (msg: string) => void): Promise<void> {
  const client = new stack.mod.Client(stack.edge.base, stack.key);
  const stdin = `${s.out} ${s.err}\n`;
  const t0 = performance.now();
  const sub = await client.submit({ language: "c", code: PROGRAM, tests: Array.from({ length: s.tests }, () => ({ stdin })) });
  if (sub.status !== 202 || typeof sub.json?.id !== "string") throw new Error(`submit: ${sub.status} ${sub.text.slice(0, 300)}`);
  const id = (fig.id = sub.json.id.toLowerCase());
  log(`scenario ${s.id}: submitted ${id}`);
  const rec = await pollRecord(client, id, s, t0, fig, workerd);
  fig.workerdPeakAtCompleted = workerd.peakNow();
  if (!rec) return;
  fig.jobStatus = String(rec.job_status);
  fig.verdict = String(rec.verdict);
  fig.kept = keptBytes(rec);
  fig.recordBudget = budgetFields(rec);
  fig.trimmed = wasTrimmed(rec);
  log(`scenario ${s.id}: ${fig.jobStatus} ${fig.verdict} in ${((fig.completedMs ?? 0) / 1000).toFixed(1)} s; reading its events`);
  fig.events = await readEvents(stack.edge.base, stack.key, id, 60_000);
}

/** A scenario's figures before anything is measured (and those of a scenario skipped, with its reason). */
export function noFigures(s: Scenario, error?: string): Figures {
  return {
    ...(error ? { error } : {}),
    id: "",
    printed: s.tests * (s.out + s.err), captured: s.tests * (Math.min(s.out, CAPTURE_CAP) + Math.min(s.err, CAPTURE_CAP)), kept: 0,
    verdict: "", jobStatus: "", completedMs: null, recordBudget: "", trimmed: false, recordBytes: 0, events: null,
    store: { own: 0, usedGrowth: 0, fileGrowth: 0, neighbourRows: 0, databases: 0 },
    workerd: null, workerdPeakAtCompleted: null, node: null, heap: null, neighbour: { latencies: [], verdicts: new Map() },
  };
}

/** A request that runs the edge's Worker (and Miniflare's entry Worker): what lets a GC asked over the inspector run. */
const poke = (stack: Stack) => () => stack.mod.request(stack.edge.base, "GET", "/");

/** `tag` names the smaps copies (BENCH_BYTES_SMAPS_DIR, bench/bytes-measure.ts). */
export async function runScenario(stack: Stack, s: Scenario, log: (msg: string) => void, tag = `s${s.id}`): Promise<Figures> {
  const fig = noFigures(s);
  await sleep(1_000);
  const storeBefore = snapshotStore(stack.edge.persistDir);
  let heapBase: HeapReading | null = null;
  if (stack.inspector) {
    try {
      heapBase = await stack.inspector.collected(poke(stack));
    } catch (e) {
      fig.heapError = `heap at the start: ${String(e instanceof Error ? e.message : e)}`;
    }
  }
  // The RSS base is taken after the GC (and its poke), so neither counts in the peak.
  const workerdWatch = new PeakWatch(stack.workerdPid);
  saveSmaps(stack.workerdPid, `${tag}-base`);
  const nodeWatch = new PeakWatch(stack.nodePid);
  const sampler = heapBase && stack.inspector ? new HeapSampler(stack.inspector, 100) : null;
  const stop = { stopped: false };
  const neighbourIds = new Set<string>();
  const neighbour = neighbourLoop(stack, stop, neighbourIds, fig.neighbour);
  try {
    await submitAndRead(stack, s, fig, workerdWatch, log);
  } catch (e) {
    fig.error = String(e instanceof Error ? e.message : e).slice(0, 300);
  } finally {
    stop.stopped = true;
    await neighbour;
  }
  fig.workerd = workerdWatch.end();
  fig.node = nodeWatch.end();
  await sampler?.stop();
  saveSmaps(stack.workerdPid, `${tag}-end`);
  if (workerdWatch.gone) {
    fig.error = `workerd exited during the scenario${fig.error ? ` (${fig.error})` : ""}`;
    fig.edgeLog = stack.edge.log().split("\n").filter((l) => l.trim() !== "").slice(-6).map((l) => l.slice(0, 300)).join("\n");
  }
  await sleep(1_500);
  if (sampler && heapBase && stack.inspector && !workerdWatch.gone) {
    try {
      const end = await stack.inspector.collected(poke(stack));
      saveSmaps(stack.workerdPid, `${tag}-gc`);
      if (sampler.peakEdge && sampler.peakAll) {
        fig.heap = {
          base: heapBase, peakEdge: sampler.peakEdge, peakAll: sampler.peakAll, end, samples: sampler.samples,
          peakEdgeBacking: sampler.peakEdgeBacking, peakEdgeTotal: sampler.peakEdgeTotal, peakAllTotal: sampler.peakAllTotal,
        };
      } else fig.heapError = `no heap reading during the scenario (${sampler.failures} failed)`;
    } catch (e) {
      fig.heapError = `heap at the end: ${String(e instanceof Error ? e.message : e)}`;
    }
  }
  const storeAfter = snapshotStore(stack.edge.persistDir);
  let neighbourRows = 0;
  for (const n of neighbourIds) neighbourRows += storeAfter.byOwner.get(n) ?? 0;
  fig.store = {
    own: fig.id ? storeAfter.byOwner.get(fig.id) ?? 0 : 0,
    usedGrowth: storeAfter.usedBytes - storeBefore.usedBytes,
    fileGrowth: storeAfter.fileBytes - storeBefore.fileBytes,
    neighbourRows,
    databases: storeAfter.databases,
  };
  return fig;
}
