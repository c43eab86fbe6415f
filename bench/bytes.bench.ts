// Output bytes benchmark (not a test): `npm run bench:bytes [-- --base C | --before DIR] [--only before|after] [--scenarios 1,2,3]`.
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
//    request) minus the base (target ≤ 16 MiB), and the part of it reached by the time the
//    completed record had been read (before the events replay); both sampled every 200 ms too, so a workerd that
//    dies mid-scenario still leaves the peak last seen. The fleet node's Node process the same way:
//    its peak against its memory budget, the one its tree documents (fleet/src/service/node-memory.ts,
//    when the tree has it: baseline + FLEET_INFLIGHT_MIB + FLEET_MAX_RETAINED_RESULT_MIB) or
//    --node-budget-mib N; the V8 heap flag the node runs with is shown beside it.
//  - the neighbour: another project's key submits `print(1)` (Python, ?wait=true) in a loop from
//    the submit until the events replay ends: its latency (median, max) and verdicts, beside the
//    same submit on the idle stack (10 of them, before the first scenario, after 3 of warm-up).
// The whole run is bounded: the scenario caps, each side's start (≤ 90 s), and a 14-minute budget
// after which the scenarios left are skipped.
import { parseArgs } from "node:util";
import { CAPTURE_CAP, SCENARIOS, idleNeighbour, noFigures, runScenario, type Figures } from "./bytes-run.ts";
import { HERE, beforeTree, startStack, type Stack } from "./bytes-side.ts";

const { values: opts } = parseArgs({
  options: {
    base: { type: "string", default: "165de7c" },
    before: { type: "string" },
    only: { type: "string" },
    scenarios: { type: "string", default: SCENARIOS.map((s) => s.id).join(",") },
    "node-budget-mib": { type: "string" },
  },
  strict: true,
});
if (opts.only !== undefined && opts.only !== "before" && opts.only !== "after") throw new Error("--only is before or after");
const scenarios = opts.scenarios.split(",").map((id) => {
  const s = SCENARIOS.find((x) => x.id === id.trim());
  if (!s) throw new Error(`--scenarios: no scenario ${id} (${SCENARIOS.map((x) => x.id).join(", ")})`);
  return s;
});
const budgetFlag = opts["node-budget-mib"] === undefined ? null : Number(opts["node-budget-mib"]) * 1024 * 1024;
const BUDGET_MS = 14 * 60_000;
const startedAt = Date.now();
const log = (msg: string) => console.error(`[bench:bytes] ${msg}`);

interface SideResult {
  name: string;
  tree: string;
  error?: string;
  idle?: Figures["neighbour"];
  nodeBudget?: Stack["nodeBudget"];
  nodeHeapFlag?: string | null;
  figures: Map<string, Figures>;
}

let current: Stack | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping the stack`);
    void (current?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

async function side(name: string, tree: () => string): Promise<SideResult> {
  const result: SideResult = { name, tree: "", figures: new Map() };
  try {
    result.tree = tree();
    log(`${name}: starting a stack from ${result.tree}`);
    current = await startStack(result.tree);
    log(`${name}: edge ${current.edge.base} (workerd ${current.workerdPid}, state ${current.edge.persistDir}), node ${current.fleet.url} (pid ${current.nodePid})`);
    result.nodeBudget = budgetFlag !== null ? { bytes: budgetFlag, source: "--node-budget-mib" } : current.nodeBudget;
    result.nodeHeapFlag = current.nodeHeapFlag;
    result.idle = await idleNeighbour(current, 10);
    let edgeGone = false;
    for (const s of scenarios) {
      if (edgeGone || Date.now() - startedAt > BUDGET_MS) {
        result.figures.set(s.id, noFigures(s, edgeGone ? "skipped: this side's workerd exited earlier" : "skipped: the bench's 14-minute budget is spent"));
        continue;
      }
      log(`${name}: scenario ${s.id}: ${s.label}`);
      const fig = await runScenario(current, s, log);
      result.figures.set(s.id, fig);
      edgeGone = fig.workerd?.gone ?? false;
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
report(sides);

// ---- the report ----

function report(results: SideResult[]): void {
  const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
  const x = (r: number) => (Number.isFinite(r) ? `${r < 10 ? r.toFixed(2) : r.toFixed(1)}×` : "–");
  /** A ratio to what the record kept, against the 1.5× target; none when nothing was kept (no record). */
  const ofKept = (stored: number, kept: number) => (kept > 0 ? `${x(stored / kept)} ${met(stored <= 1.5 * kept)}` : "– (no record)");
  const ms = (v: number) => `${Math.round(v)} ms`;
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)] ?? NaN;
  const verdicts = (m: Map<string, number>) => [...m].map(([v, n]) => `${v}×${n}`).join(" ") || "–";
  const met = (ok: boolean) => (ok ? "met" : "MISSED");

  const lines: string[] = [];
  const header = ["", ...results.map((r) => r.name), "target"];
  const rows: string[][] = [];
  const row = (label: string, f: (r: SideResult) => string, target = "") => rows.push([label, ...results.map(f), target]);
  const section = (title: string) => rows.push([title, ...results.map(() => ""), ""]);

  section("stack");
  row("  code", (r) => (r.tree === HERE ? "working tree" : r.tree || "–"));
  row("  start", (r) => (r.error ? `FAILED (below)` : "ok"));
  row("  node memory budget", (r) => (r.nodeBudget ? `${mib(r.nodeBudget.bytes)} (${r.nodeBudget.source})` : "none documented"));
  row("  node heap flag", (r) => r.nodeHeapFlag ?? "none");
  row("  neighbour idle: median / max", (r) => (r.idle ? `${ms(median(r.idle.latencies))} / ${ms(Math.max(...r.idle.latencies))}` : "–"));
  for (const s of scenarios) {
    const f = (r: SideResult) => r.figures.get(s.id);
    const cell = (g: (fig: Figures) => string) => (r: SideResult) => {
      const fig = f(r);
      if (!fig) return "–";
      if (fig.error?.startsWith("skipped")) return "skipped";
      return g(fig);
    };
    section(`scenario ${s.id}: ${s.label}`);
    row("  completed in", cell((g) => (g.completedMs === null ? "NOT COMPLETED (notes below)" : `${(g.completedMs / 1000).toFixed(1)} s, ${g.jobStatus} ${g.verdict}`)));
    row("  output printed / captured", cell((g) => `${mib(g.printed)} / ${mib(g.captured)}`));
    row("  output kept in record", cell((g) => `${mib(g.kept)}${g.trimmed ? " (trimmed)" : ""}`));
    row("  record (GET /api/result) body", cell((g) => mib(g.recordBytes)));
    row("  record's budget fields", cell((g) => g.recordBudget || "none"));
    row("  stored: the submission's rows", cell((g) => mib(g.store.own)));
    row("    ÷ printed", cell((g) => x(g.store.own / g.printed)));
    row("    ÷ captured", cell((g) => x(g.store.own / g.captured)));
    row("    ÷ kept in record", cell((g) => ofKept(g.store.own, g.kept)), "≤ 1.5×");
    row("  stored: pages in use, growth", cell((g) => mib(g.store.usedGrowth)));
    row("    ÷ kept in record", cell((g) => (g.kept > 0 ? x(g.store.usedGrowth / g.kept) : "–")));
    row("    of it the neighbour's rows", cell((g) => mib(g.store.neighbourRows)));
    row("  stored: files on disk, growth", cell((g) => `${mib(g.store.fileGrowth)} (${g.store.databases} db)`));
    row("  events replay", cell((g) => (g.events ? `${mib(g.events.bytes)}, ${g.events.count} events, ${(g.events.ms / 1000).toFixed(1)} s` : "–")));
    row("    ends with completed", cell((g) => (g.events ? (g.events.last === "completed" ? "yes" : `NO (last: ${g.events.last || "none"}${g.events.error ? `; ${g.events.error}` : ""})`) : "–")));
    row("  workerd RSS base → peak", cell((g) => (g.workerd ? `${mib(g.workerd.base)} → ${mib(g.workerd.peak)}${g.workerd.gone ? " (then EXITED)" : ""}` : "–")));
    row("    peak growth", cell((g) => (g.workerd ? `${mib(g.workerd.peak - g.workerd.base)} ${met(g.workerd.peak - g.workerd.base <= 16 * 1048576)}` : "–")), "≤ 16 MiB");
    row("    of it by completed", cell((g) => (g.workerd && g.workerdPeakAtCompleted !== null ? mib(g.workerdPeakAtCompleted - g.workerd.base) : "–")));
    row("    RSS after", cell((g) => (g.workerd ? mib(g.workerd.after) : "–")));
    row("  node RSS base → peak", (r) => cell((g) => (g.node ? `${mib(g.node.base)} → ${mib(g.node.peak)}${g.node.gone ? " (then EXITED)" : ""}${r.nodeBudget ? ` ${met(g.node.peak <= r.nodeBudget.bytes)}` : ""}` : "–"))(r), "≤ its budget");
    row("    peak growth", cell((g) => (g.node ? mib(g.node.peak - g.node.base) : "–")));
    row("  neighbour: n, median / max", cell((g) => (g.neighbour.latencies.length ? `${g.neighbour.latencies.length}, ${ms(median(g.neighbour.latencies))} / ${ms(Math.max(...g.neighbour.latencies))}` : "0")));
    row("    verdicts", cell((g) => verdicts(g.neighbour.verdicts)));
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  lines.push(`bench:bytes — one request's output on the shared edge (state on disk) and node; capture cap ${CAPTURE_CAP / 1048576} MiB per stream`);
  lines.push(fmt(header));
  lines.push(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) lines.push(fmt(r));
  const notes: string[] = [];
  for (const r of results) {
    if (r.error) notes.push(`${r.name}: the stack failed: ${r.error}`);
    for (const [id, fig] of r.figures) {
      if (fig.error) notes.push(`${r.name}, scenario ${id}: ${fig.error}`);
      if (fig.edgeLog) notes.push(`  the edge's last lines:\n${fig.edgeLog.replace(/^/gm, "    ")}`);
    }
  }
  lines.push("", ...notes);
  lines.push(`total ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
  console.log(lines.join("\n"));
}
