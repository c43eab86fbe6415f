// npm run bench:isolation — does a run keep its CPU time and wall time whatever its neighbours do?
// A fixed CPU-bound program (~300 ms of work, static C) is measured alone, then while every other
// slot keeps running one kind of hostile neighbour: 64 busy threads, an output flood, memory
// thrash at the memory limit, a fork bomb at the pid limit. Printed: median of 20 of its CPU time
// (the run cgroup's) and wall time beside the alone figure (targets: CPU within 5 %, wall within
// 1.2x). Then the node's own CPU per flooded run (target <= 5 % of the run's duration). The sandbox
// overhead over bare fork+exec is `npm run bench:sandbox`. Figures are ratios within one run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { RUN_LIMITS } from "../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../fleet/src/sandbox/sandbox.ts";
import type { Limits, RunSpec } from "../fleet/src/sandbox/types.ts";
import { summarize } from "./stats.ts";

const SAMPLES = Number(process.env.BENCH_RUNS ?? 20);
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "bench-isolation-"));

const PROGRAMS: Record<string, string> = {
  victim: `#include <stdio.h>
int main(void) { volatile unsigned long x = 0; for (unsigned long i = 0; i < 1000000000UL; i++) x += i; printf("%lu\\n", (unsigned long)x); return 0; }`,
  threads64: `#include <pthread.h>
static void *spin(void *arg) { volatile unsigned long x = 0; for (;;) x++; return arg; }
int main(void) { pthread_t t; for (int i = 0; i < 64; i++) pthread_create(&t, 0, spin, 0); spin(0); }`,
  flood: `#include <string.h>
#include <unistd.h>
int main(void) { static char buf[65536]; memset(buf, 'x', sizeof buf); for (;;) if (write(1, buf, sizeof buf) < 0) return 1; }`,
  thrash: `#include <stdlib.h>
#include <string.h>
int main(void) { size_t size = 240u << 20; char *p = malloc(size);
  for (int round = 0;; round++) { memset(p, round, size); __asm__ volatile("" : : "r"(p) : "memory"); } }`,
  forkbomb: `#include <unistd.h>
int main(void) { volatile unsigned long x = 0; for (;;) { fork(); x++; } }`,
  // writes for a fixed time, then exits: a flooded run that ends on its own
  flood2s: `#include <string.h>
#include <time.h>
#include <unistd.h>
int main(void) { static char buf[65536]; memset(buf, 'x', sizeof buf); struct timespec s, n; clock_gettime(CLOCK_MONOTONIC, &s);
  for (;;) { for (int i = 0; i < 64; i++) if (write(1, buf, sizeof buf) < 0) return 1; clock_gettime(CLOCK_MONOTONIC, &n); if (n.tv_sec - s.tv_sec >= 2) return 0; } }`,
};
const binaries = new Map<string, string>();
for (const [name, source] of Object.entries(PROGRAMS)) {
  writeFileSync(join(dir, `${name}.c`), source);
  execFileSync("gcc", ["-O2", "-static", "-pthread", "-o", join(dir, name), join(dir, `${name}.c`)]);
  binaries.set(name, join(dir, name));
}
const spec = (name: string, limits: Partial<Limits> = {}): RunSpec => ({
  argv: [`/opt/${name}`],
  binds: [{ hostPath: binaries.get(name)!, sandboxPath: `/opt/${name}` }],
  limits: { ...RUN_LIMITS, ...limits },
});

const slots = availableParallelism();
const sandbox = await Sandbox.create({ stateDir: join(dir, "state"), slots });
if (!sandbox.health().ready) throw new Error(`sandbox not ready: ${sandbox.health().reasons.join("; ")}`);

interface Figures {
  cpuMs: number;
  wallMs: number;
}
interface Samples {
  cpu: number[];
  wall: number[];
}
async function victimSamples(count: number, into: Samples): Promise<void> {
  for (let i = 0; i < count; i++) {
    const { result } = await sandbox.run(spec("victim"));
    if (result.verdict !== "AC") throw new Error(`victim ${result.verdict}: ${result.error_message}`);
    into.cpu.push(result.evidence.timing.cpu_ms);
    into.wall.push(result.wall_time_secs * 1000);
  }
}
const medians = (samples: Samples): Figures => ({ cpuMs: summarize(samples.cpu).median, wallMs: summarize(samples.wall).median });

/** Keeps `slots - 1` neighbours of one kind running (each restarted when its wall limit ends it). */
async function withNeighbours<T>(neighbour: RunSpec, measure: () => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const loops = Array.from({ length: slots - 1 }, async () => {
    while (!stop.signal.aborted) await sandbox.run(neighbour, stop.signal);
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  try {
    return await measure();
  } finally {
    stop.abort(); // cancelling kills the running neighbours at once
    await Promise.all(loops);
  }
}

/** Alternates blocks alone and beside the neighbours, so a shared machine's drift hits both alike. */
async function compare(neighbour: RunSpec): Promise<{ alone: Figures; loaded: Figures }> {
  const BLOCKS = 4;
  const per = Math.max(1, Math.round(SAMPLES / BLOCKS));
  const alone: Samples = { cpu: [], wall: [] };
  const loaded: Samples = { cpu: [], wall: [] };
  for (let block = 0; block < BLOCKS; block++) {
    await victimSamples(per, alone);
    await withNeighbours(neighbour, () => victimSamples(per, loaded));
  }
  return { alone: medians(alone), loaded: medians(loaded) };
}

const neighbours: [string, RunSpec][] = [
  ["64 busy threads", spec("threads64", { processes: 128, wallTimeMs: 3_000 })],
  ["output flood", spec("flood", { wallTimeMs: 3_000 })],
  ["memory thrash at the limit", spec("thrash", { memoryBytes: 256 * MiB, wallTimeMs: 3_000 })],
  ["fork bomb at the pid limit", spec("forkbomb", { wallTimeMs: 3_000 })],
];

const loadBefore = loadavg()[0]!;
await victimSamples(3, { cpu: [], wall: [] }); // warm-up
const rows: [string, Figures, Figures][] = [];
for (const [label, neighbour] of neighbours) {
  const { alone, loaded } = await compare(neighbour);
  rows.push([label, alone, loaded]);
}

// The node's own CPU per flooded run: process CPU across flooded runs over their wall time.
const floodRuns = 5;
let floodWallMs = 0;
let floodOk = true;
const before = process.cpuUsage();
for (let i = 0; i < floodRuns; i++) {
  const { result } = await sandbox.run(spec("flood2s", { wallTimeMs: 5_000 }));
  floodOk &&= result.verdict === "AC" && result.output_integrity === "truncated_by_judge_limit";
  floodWallMs += result.wall_time_secs * 1000;
}
const used = process.cpuUsage(before);
const nodeCpuMs = (used.user + used.system) / 1000;

await sandbox.close();
rmSync(dir, { recursive: true, force: true });

const pct = (value: number, base: number) => `${value >= base ? "+" : ""}${(((value - base) / base) * 100).toFixed(1)} %`;
console.log(`isolation benchmark: ${slots} slots (cpu ${sandbox.health().cpuMode}), victim = static C, ~300 ms of CPU, median of ${SAMPLES} each side`);
console.log(`host load average before / after: ${loadBefore.toFixed(2)} / ${loadavg()[0]!.toFixed(2)} (other work on the machine shows up in both columns)`);
console.log(`${"neighbours in the other slots".padEnd(30)} ${"alone cpu/wall ms".padStart(18)} ${"cpu ms".padStart(8)} ${"vs alone".padStart(9)} ${"wall ms".padStart(8)} ${"vs alone".padStart(9)}  targets`);
for (const [label, alone, figures] of rows) {
  const cpuMet = Math.abs(figures.cpuMs - alone.cpuMs) <= alone.cpuMs * 0.05;
  const wallMet = figures.wallMs <= alone.wallMs * 1.2;
  console.log(
    `${label.padEnd(30)} ${`${alone.cpuMs.toFixed(0)} / ${alone.wallMs.toFixed(0)}`.padStart(18)} ${figures.cpuMs.toFixed(0).padStart(8)} ${pct(figures.cpuMs, alone.cpuMs).padStart(9)} ${figures.wallMs.toFixed(0).padStart(8)} ${(figures.wallMs / alone.wallMs).toFixed(2).padStart(8)}x  cpu ${cpuMet ? "met" : "missed"}, wall ${wallMet ? "met" : "missed"}`,
  );
}
const nodeShare = nodeCpuMs / floodWallMs;
console.log(
  `node CPU per flooded run: ${(nodeCpuMs / floodRuns).toFixed(1)} ms per ${(floodWallMs / floodRuns).toFixed(0)} ms run = ${(nodeShare * 100).toFixed(2)} % (target <= 5 %: ${nodeShare <= 0.05 ? "met" : "missed"})${floodOk ? "" : "  [a flooded run was not AC + truncated]"}`,
);
