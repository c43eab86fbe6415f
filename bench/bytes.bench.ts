// Output bytes benchmark (not a test):
//   npm run bench:bytes [-- --base C | --before DIR] [--only before|after] [--scenarios 1,2,3] [--reps N] [--node-budget-mib N]
//     [--no-inspector]
// What one request's output costs the shared edge and the node, before and after, in one run: for
// each side a real stack as `npm start` runs it (bench/bytes-side.ts: a fleet node and the edge on
// workerd, its state in a temp dir on the machine's disk, never tmpfs), one after the other, each
// stopped (by its process group, started here) before the next. "before" is the code of --base
// (default 165de7c) in a detached git worktree under the temp dir, made once and reused (its
// node_modules a symlink to this tree's, its launcher built on first use), or the tree --before
// names; "after" is the working tree this bench runs from. --only runs one side.
//
// Scenarios (bench/bytes-run.ts), each one asynchronous POST /api/submit of a C program that
// writes 0x01 bytes with 64 KiB fwrites, under the default plan (capture cap 1 MiB per stream):
//   1. 4 tests × 256 KiB on stdout;  2. 16 tests × 1 MiB on stdout;
//   3. 100 tests × 2 MiB on stdout and 2 MiB on stderr (the node captures 1 MiB of each).
// It is polled (GET /api/result/{id}, every 0.5 s, up to the scenario's cap: 60 / 120 / 200 s),
// then its events are replayed once (GET /api/result/{id}/events, read to its end).
//
// Figures, per scenario and side:
//  - output: "printed" is what the program wrote; "captured" what the node could keep of it (1 MiB
//    per stream per test); "kept" the record's output as a client reads it (UTF-8 bytes of every
//    stdout/stderr string in the final record, top level and tests; base64 decoded if so encoded).
//  - stored: the edge's SubmissionDO namespace under the state dir. Its SQLite files (db and -wal)
//    are copied when the edge is quiet and the copies opened (which applies the WAL); file sizes
//    alone are lumpy (a WAL is reused, not shrunk; a checkpoint moves pages), so the figures are
//    read from the databases:
//      "the submission's rows": key + value bytes (text as UTF-8, blobs as they are) of every row
//      of every table that belongs to the scenario's submission (a text column starting with its
//      id: KV keys `<id>/…`, `sub_id` columns). The ratios are of this: ÷ printed, ÷ captured and
//      ÷ kept in record (target ≤ 1.5× of what the record keeps).
//      "pages in use, growth": (page_count − freelist_count) × page_size over the namespace, after
//      minus before: what SQLite holds, B-tree overhead included, freed pages not; it includes the
//      neighbour's submissions made meanwhile, whose own rows are shown beside it.
//      "files on disk, growth": db + -wal + -shm sizes, after minus before, for reference.
//  - workerd's peak RSS growth: "5" written to /proc/<workerd>/clear_refs before the submit resets
//    VmHWM, VmRSS then is the base; VmHWM after the events replay (and the neighbour's last
//    request) minus the base (target ≤ 16 MiB), and the part of it reached when the completed
//    record had been read (before the replay). VmHWM is also sampled every 200 ms, so a workerd
//    that dies mid-scenario still leaves the peak last seen. The fleet node's Node process the
//    same way: its peak against its memory budget, the one its tree documents
//    (fleet/src/service/node-memory.ts where the tree has it: baseline + FLEET_INFLIGHT_MIB +
//    FLEET_MAX_RETAINED_RESULT_MIB at this environment's settings) or --node-budget-mib N; the V8
//    heap flag the node runs with is shown beside it. A heap grows in steps, so one sample of a
//    peak is noisy: --reps N runs each scenario N times on the same stack and lists each peak
//    (the target judged on the largest); the other figures are the first repetition's.
//    "RSS end − base: anon; file": VmRSS's anonymous and file-backed parts (RssAnon, RssFile of
//    /proc/<pid>/status) at the end minus at the base. BENCH_BYTES_SMAPS_DIR=<dir> also saves
//    workerd's /proc/<pid>/smaps at each scenario's base, end and after the end's GC (which
//    mappings grow: V8's pointer-compression cage holds the JS heaps, tcmalloc's regions the rest).
//  - workerd's JavaScript heaps (bench/bytes-heap.ts; --no-inspector leaves them out): the edge runs
//    with EDGE_INSPECTOR=1 (workerd's own DevTools inspector on localhost:9229, which both trees'
//    scripts/edge-dev.ts have; a side whose port is taken or whose workerd has no inspector shows
//    n/a) and the bench keeps a session on every isolate listed at /json: the edge's Worker (its
//    Durable Objects run in the same isolate) and Miniflare's own Workers.
//      "isolate heap base → peak (used)": the edge's isolate. The base is V8's used heap
//      (Runtime.getHeapUsage usedSize: live objects, and garbage not yet collected) right after a
//      forced full GC before the submit (HeapProfiler.collectGarbage); the peak is the largest
//      used heap sampled every 100 ms from the submit until the RSS peak is read (a spike shorter
//      than that can be missed). This is the memory Cloudflare's 128 MB per-isolate limit is about.
//      "peak growth": peak minus base, transient (what the request needed, its garbage included).
//      "after GC: retained growth": used heap after another forced GC at the end (the edge quiet,
//      1.5 s after the replay) minus the base: what the scenario left alive in the isolate.
//      "committed heap": V8's totalSize, the heap pages V8 holds, used or not (what RSS sees of the
//      heap; a GC gives the idle ones back). "ArrayBuffers": the backing stores of ArrayBuffers
//      and external strings (backingStorageSize), not in usedSize: outside V8's heap pages,
//      allocated by workerd's malloc. "all isolates": used and committed heap summed over every
//      isolate of the process.
//    The RSS base is taken after the first GC, so with the inspector on, a scenario's RSS growth
//    starts from a collected heap; with --no-inspector it starts from whatever V8 had kept
//    committed after the scenario before, as this bench measured it before it read the heaps.
//  - the neighbour: another project's key submits `print(1)` (Python, ?wait=true) in a loop from
//    the submit until the events replay ends: its latency (median, max) and verdicts, beside the
//    same submit on the idle stack (10 of them, before the first scenario, after 3 of warm-up).
// Before the first scenario, one run of scenario 1's shape (polled and replayed, not measured)
// compiles the program and grows workerd's heap to what a warm edge keeps, so the first scenario
// is not charged for what only a cold edge pays. Every scenario of a side runs on the one stack,
// in order: what an earlier one left in workerd's heap is there for the next (a shared edge).
// The whole run is bounded: the scenario caps, each side's start (≤ 90 s), and a 14-minute budget
// after which the scenarios left are skipped. A default run takes about 3 minutes on 2 cores.
import { parseArgs } from "node:util";
import { printReport, type SideResult } from "./bytes-report.ts";
import { SCENARIOS, idleNeighbour, noFigures, runScenario, warmUp } from "./bytes-run.ts";
import { HERE, beforeTree, startStack, type Stack } from "./bytes-side.ts";

const { values: opts } = parseArgs({
  options: {
    base: { type: "string", default: "165de7c" },
    before: { type: "string" },
    only: { type: "string" },
    scenarios: { type: "string", default: SCENARIOS.map((s) => s.id).join(",") },
    "node-budget-mib": { type: "string" },
    reps: { type: "string", default: "1" },
    "no-inspector": { type: "boolean", default: false },
  },
  strict: true,
});
if (opts.only !== undefined && opts.only !== "before" && opts.only !== "after") throw new Error("--only is before or after");
const scenarios = opts.scenarios.split(",").map((id) => {
  const s = SCENARIOS.find((x) => x.id === id.trim());
  if (!s) throw new Error(`--scenarios: no scenario ${id} (${SCENARIOS.map((x) => x.id).join(", ")})`);
  return s;
});
const reps = Number(opts.reps);
if (!Number.isInteger(reps) || reps < 1 || reps > 10) throw new Error("--reps is 1 to 10");
const budgetFlag = opts["node-budget-mib"] === undefined ? null : Number(opts["node-budget-mib"]) * 1024 * 1024;
const BUDGET_MS = 14 * 60_000;
const startedAt = Date.now();
const log = (msg: string) => console.error(`[bench:bytes] ${msg}`);

let current: Stack | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping the stack`);
    void (current?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

async function side(name: string, tree: () => string): Promise<SideResult> {
  const result: SideResult = { name, tree: "", workingTree: name === "after", figures: new Map() };
  try {
    result.tree = tree();
    log(`${name}: starting a stack from ${result.tree}`);
    current = await startStack(result.tree, !opts["no-inspector"]);
    result.inspectorNote = current.inspector ? `${current.inspector.isolates} isolates` : `n/a: ${current.inspectorNote}`;
    log(
      `${name}: edge ${current.edge.base} (workerd ${current.workerdPid}, state ${current.edge.persistDir}; inspector ${result.inspectorNote}), ` +
        `node ${current.fleet.url} (pid ${current.nodePid})`,
    );
    result.nodeBudget = budgetFlag !== null ? { bytes: budgetFlag, source: "--node-budget-mib" } : current.nodeBudget;
    result.nodeHeapFlag = current.nodeHeapFlag;
    result.idle = await idleNeighbour(current, 10);
    await warmUp(current);
    let edgeGone = false;
    for (const s of scenarios) {
      const figs = [];
      for (let rep = 1; rep <= reps; rep++) {
        if (edgeGone || Date.now() - startedAt > BUDGET_MS) {
          figs.push(noFigures(s, edgeGone ? "skipped: this side's workerd exited earlier" : "skipped: the bench's 14-minute budget is spent"));
          break;
        }
        log(`${name}: scenario ${s.id}${reps > 1 ? ` (${rep} of ${reps})` : ""}: ${s.label}`);
        const fig = await runScenario(current, s, log, `${name}-s${s.id}-r${rep}`);
        figs.push(fig);
        edgeGone = fig.workerd?.gone ?? false;
      }
      result.figures.set(s.id, figs);
    }
  } catch (e) {
    result.error = String(e instanceof Error ? e.message : e);
    log(`${name}: ${result.error}`);
  } finally {
    await current?.stop();
    current = null;
  }
  return result;
}

const sides: SideResult[] = [];
if (opts.only !== "after") sides.push(await side("before", () => beforeTree(opts.before, opts.base)));
if (opts.only !== "before") sides.push(await side("after", () => HERE));
printReport(sides, scenarios, reps, Date.now() - startedAt);
