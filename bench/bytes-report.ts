// bench:bytes's report: one table, a column per side, the targets beside (bench/bytes.bench.ts).
// With --reps N, each figure is the first repetition's, except the memory peaks, which list every
// repetition's (the target judged on the largest).
import { CAPTURE_CAP, type Figures, type Scenario } from "./bytes-run.ts";
import type { Stack } from "./bytes-side.ts";

export interface SideResult {
  name: string;
  /** The tree the side ran; "" before it was known. */
  tree: string;
  workingTree: boolean;
  error?: string;
  idle?: Figures["neighbour"];
  nodeBudget?: Stack["nodeBudget"];
  nodeHeapFlag?: string | null;
  /** "<n> isolates" when workerd's inspector is read, else "n/a: <why>". */
  inspectorNote?: string;
  /** Per scenario id, one entry per repetition. */
  figures: Map<string, Figures[]>;
}

const MiB = 1048576;
const mib = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
const x = (r: number) => (Number.isFinite(r) ? `${r < 10 ? r.toFixed(2) : r.toFixed(1)}×` : "–");
const ms = (v: number) => `${Math.round(v)} ms`;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)] ?? NaN;
const met = (ok: boolean) => (ok ? "met" : "MISSED");
/** A ratio to what the record kept, against the 1.5× target; none when nothing was kept (no record). */
const ofKept = (stored: number, kept: number) => (kept > 0 ? `${x(stored / kept)} ${met(stored <= 1.5 * kept)}` : "– (no record)");
const latency = (n: Figures["neighbour"]) => (n.latencies.length ? `${n.latencies.length}, ${ms(median(n.latencies))} / ${ms(Math.max(...n.latencies))}` : "0");
const verdicts = (m: Map<string, number>) => [...m].map(([v, n]) => `${v}×${n}`).join(" ") || "–";
/** Every repetition's value, "a / b / c MiB". */
const each = (values: number[]) => `${values.map((v) => (v / MiB).toFixed(1)).join(" / ")} MiB`;

type Row = string[];

class Table {
  readonly rows: Row[] = [];
  readonly results: SideResult[];
  constructor(results: SideResult[]) {
    this.results = results;
  }
  row(label: string, f: (r: SideResult) => string, target = ""): void {
    this.rows.push([label, ...this.results.map(f), target]);
  }
  section(title: string): void {
    this.rows.push([title, ...this.results.map(() => ""), ""]);
  }
  lines(): string[] {
    const header = ["", ...this.results.map((r) => r.name), "target"];
    const widths = header.map((h, i) => Math.max(h.length, ...this.rows.map((r) => r[i]!.length)));
    const fmt = (r: Row) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
    return [fmt(header), widths.map((w) => "-".repeat(w)).join("  "), ...this.rows.map(fmt)];
  }
}

function stackRows(t: Table): void {
  t.section("stack");
  t.row("  code", (r) => (r.workingTree ? "working tree" : r.tree || "–"));
  t.row("  start", (r) => (r.error ? "FAILED (notes below)" : "ok"));
  t.row("  node memory budget", (r) => (r.nodeBudget ? `${mib(r.nodeBudget.bytes)} (${r.nodeBudget.source})` : "none documented"));
  t.row("  node heap flag", (r) => r.nodeHeapFlag ?? "none");
  t.row("  workerd inspector (JS heaps)", (r) => r.inspectorNote ?? "–");
  t.row("  neighbour idle: n, median / max", (r) => (r.idle ? latency(r.idle) : "–"));
}

/** A cell from a scenario's repetitions: "–" when it did not run, "skipped" when it was skipped. */
const cellOf = (s: Scenario, g: (first: Figures, all: Figures[], r: SideResult) => string) => (r: SideResult) => {
  const all = r.figures.get(s.id) ?? [];
  if (all.length === 0) return "–";
  if (all[0]!.error?.startsWith("skipped")) return "skipped";
  return g(all[0]!, all, r);
};

function outputRows(t: Table, s: Scenario): void {
  const cell = (g: (f: Figures) => string) => cellOf(s, g);
  t.row("  completed in", cell((g) => (
    g.completedMs === null ? "NOT COMPLETED (notes below)" : `${(g.completedMs / 1000).toFixed(1)} s, ${g.jobStatus} ${g.verdict}`
  )));
  t.row("  output printed / captured", cell((g) => `${mib(g.printed)} / ${mib(g.captured)}`));
  t.row("  output kept in record", cell((g) => `${mib(g.kept)}${g.trimmed ? " (trimmed)" : ""}`));
  t.row("  record (GET /api/result) body", cell((g) => mib(g.recordBytes)));
  t.row("  record's budget fields", cell((g) => g.recordBudget || "none"));
  t.row("  stored: the submission's rows", cell((g) => mib(g.store.own)));
  t.row("    ÷ printed", cell((g) => x(g.store.own / g.printed)));
  t.row("    ÷ captured", cell((g) => x(g.store.own / g.captured)));
  t.row("    ÷ kept in record", cell((g) => ofKept(g.store.own, g.kept)), "≤ 1.5×");
  t.row("  stored: pages in use, growth", cell((g) => mib(g.store.usedGrowth)));
  t.row("    ÷ kept in record", cell((g) => (g.kept > 0 ? x(g.store.usedGrowth / g.kept) : "–")));
  t.row("    of it the neighbour's rows", cell((g) => mib(g.store.neighbourRows)));
  t.row("  stored: files on disk, growth", cell((g) => `${mib(g.store.fileGrowth)} (${g.store.databases} db)`));
  t.row("  events replay", cell((g) => (g.events ? `${mib(g.events.bytes)}, ${g.events.count} events, ${(g.events.ms / 1000).toFixed(1)} s` : "–")));
  t.row("    ends with completed", cell((g) => {
    if (!g.events) return "–";
    return g.events.last === "completed" ? "yes" : `NO (last: ${g.events.last || "none"}${g.events.error ? `; ${g.events.error}` : ""})`;
  }));
}

function memoryRows(t: Table, s: Scenario): void {
  const cell = (g: (first: Figures, all: Figures[], r: SideResult) => string) => cellOf(s, g);
  const w = (all: Figures[]) => all.flatMap((f) => (f.workerd ? [f.workerd] : []));
  const n = (all: Figures[]) => all.flatMap((f) => (f.node ? [f.node] : []));
  const gone = (all: Figures[], who: "workerd" | "node") => (all.some((f) => f[who]?.gone) ? " (then EXITED)" : "");
  t.row("  workerd RSS base → peak", cell((_, all) => (
    w(all).length ? `${each(w(all).map((m) => m.base))} → ${each(w(all).map((m) => m.peak))}${gone(all, "workerd")}` : "–"
  )));
  t.row("    peak growth", cell((_, all) => {
    const growth = w(all).map((m) => m.peak - m.base);
    return growth.length ? `${each(growth)} ${met(Math.max(...growth) <= 16 * MiB)}` : "–";
  }), "≤ 16 MiB");
  t.row("    of it by completed", cell((_, all) => {
    const by = all.flatMap((f) => (f.workerd && f.workerdPeakAtCompleted !== null ? [f.workerdPeakAtCompleted - f.workerd.base] : []));
    return by.length ? each(by) : "–";
  }));
  t.row("    RSS after", cell((_, all) => (w(all).length ? mib(w(all).at(-1)!.after) : "–")));
  t.row("    RSS end − base: anon; file", cell((_, all) => (
    w(all).length ? `${each(w(all).map((m) => m.growth.anon))}; ${each(w(all).map((m) => m.growth.file))}` : "–"
  )));
  heapRows(t, s);
  t.row("  node RSS base → peak", cell((_, all, r) => {
    const peaks = n(all).map((m) => m.peak);
    if (!peaks.length) return "–";
    const verdict = r.nodeBudget ? ` ${met(Math.max(...peaks) <= r.nodeBudget.bytes)}` : "";
    return `${each(n(all).map((m) => m.base))} → ${each(peaks)}${gone(all, "node")}${verdict}`;
  }), "≤ its budget");
  t.row("    peak growth", cell((_, all) => (n(all).length ? each(n(all).map((m) => m.peak - m.base)) : "–")));
}

/** workerd's JavaScript heaps (bench/bytes-heap.ts): the edge's isolate, then every isolate summed. */
function heapRows(t: Table, s: Scenario): void {
  const heaps = (all: Figures[]) => all.flatMap((f) => (f.heap ? [f.heap] : []));
  const cell = (g: (h: NonNullable<Figures["heap"]>[]) => string) => cellOf(s, (_, all, r) => {
    const h = heaps(all);
    if (h.length) return g(h);
    return r.inspectorNote?.startsWith("n/a") ? "n/a" : all.some((f) => f.heapError) ? "FAILED (notes below)" : "–";
  });
  t.row("  isolate heap base → peak (used)", cell((h) => `${each(h.map((x) => x.base.edge.used))} → ${each(h.map((x) => x.peakEdge.used))}`));
  t.row("    peak growth", cell((h) => each(h.map((x) => x.peakEdge.used - x.base.edge.used))));
  t.row("    after GC: retained growth", cell((h) => each(h.map((x) => x.end.edge.used - x.base.edge.used))));
  t.row("    committed heap base → peak", cell((h) => `${each(h.map((x) => x.base.edge.total))} → ${each(h.map((x) => x.peakEdgeTotal))}`));
  t.row("    ArrayBuffers base → peak", cell((h) => `${each(h.map((x) => x.base.edge.backing))} → ${each(h.map((x) => x.peakEdgeBacking))}`));
  t.row("  all isolates: used peak growth; retained", cell((h) => (
    `${each(h.map((x) => x.peakAll.used - x.base.all.used))}; ${each(h.map((x) => x.end.all.used - x.base.all.used))}`
  )));
  t.row("    committed growth", cell((h) => each(h.map((x) => x.peakAllTotal - x.base.all.total))));
}

function neighbourRows(t: Table, s: Scenario): void {
  const pooled = (all: Figures[]): Figures["neighbour"] => {
    const v = new Map<string, number>();
    for (const f of all) for (const [k, c] of f.neighbour.verdicts) v.set(k, (v.get(k) ?? 0) + c);
    return { latencies: all.flatMap((f) => f.neighbour.latencies), verdicts: v };
  };
  t.row("  neighbour: n, median / max", cellOf(s, (_, all) => latency(pooled(all))));
  t.row("    verdicts", cellOf(s, (_, all) => verdicts(pooled(all).verdicts)));
}

function notes(results: SideResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    if (r.error) out.push(`${r.name}: the stack failed: ${r.error}`);
    for (const [id, figs] of r.figures) {
      figs.forEach((fig, i) => {
        const rep = figs.length > 1 ? ` (repetition ${i + 1})` : "";
        if (fig.error) out.push(`${r.name}, scenario ${id}${rep}: ${fig.error}`);
        if (fig.heapError) out.push(`${r.name}, scenario ${id}${rep}: ${fig.heapError}`);
        if (fig.edgeLog) out.push(`  the edge's last lines:\n${fig.edgeLog.replace(/^/gm, "    ")}`);
      });
    }
  }
  return out;
}

export function printReport(results: SideResult[], scenarios: Scenario[], reps: number, totalMs: number): void {
  const t = new Table(results);
  stackRows(t);
  for (const s of scenarios) {
    t.section(`scenario ${s.id}: ${s.label}`);
    outputRows(t, s);
    memoryRows(t, s);
    neighbourRows(t, s);
  }
  const lines = [
    `bench:bytes — one request's output on the shared edge (state on disk) and node; capture cap ${CAPTURE_CAP / MiB} MiB per stream` +
      (reps > 1 ? `; ${reps} repetitions of each scenario (memory: each one's; the rest: the first's)` : ""),
    ...t.lines(),
    "",
    ...notes(results),
    `total ${(totalMs / 1000).toFixed(0)} s`,
  ];
  console.log(lines.join("\n"));
}
