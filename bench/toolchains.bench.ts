// npm run bench:toolchains — the node's start-up toolchain discovery (detectToolchains), this tree
// beside a baseline commit's, in the same run, alternating: each sample is a fresh process (the
// detection is once per process), timing the detection itself and the whole process.
// BENCH_BASE: the baseline commit (default: the one before language versions, a single toolchain
// per language); BENCH_REPS scales the samples (default 1 → 12 per side, after one warm-up each).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { summarize } from "./stats.ts";

const ROOT = join(import.meta.dirname, "..");
const BASE = process.env.BENCH_BASE ?? "42590d0";
const samples = 12 * Number(process.env.BENCH_REPS ?? 1);

// The baseline's fleet/ and proto/ beside the same node_modules (the project's Node 24 is found through it).
const baseDir = mkdtempSync(join(tmpdir(), "bench-toolchains-"));
execFileSync("sh", ["-c", `git -C "$1" archive "$2" fleet/src proto | tar -x -C "$3"`, "sh", ROOT, BASE, baseDir]);
symlinkSync(join(ROOT, "node_modules"), join(baseDir, "node_modules"));

const PROBE = `
const started = performance.now();
const { detectToolchains } = await import(process.argv[1]);
const loaded = performance.now();
const found = await detectToolchains();
const versions = [...found.values()].reduce((n, d) => n + (d.versions?.length ?? 1), 0);
console.log(JSON.stringify({ detectMs: performance.now() - loaded, importMs: loaded - started, languages: found.size, versions }));
`;

interface Sample {
  detectMs: number;
  importMs: number;
  processMs: number;
  languages: number;
  versions: number;
}

function probe(tree: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const toolchains = join(tree, "fleet", "src", "languages", "toolchains.ts");
    const child = spawn(process.execPath, ["--input-type=module", "-e", PROBE, toolchains], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`probe of ${tree} exited ${code}`));
      resolve({ ...JSON.parse(out), processMs: performance.now() - start });
    });
  });
}

const trees = { [`baseline ${BASE}`]: baseDir, "this tree": ROOT };
const results = new Map<string, Sample[]>(Object.keys(trees).map((name) => [name, []]));
for (const tree of Object.values(trees)) await probe(tree); // warm-up: page cache, compile caches
for (let i = 0; i < samples; i++) {
  for (const [name, tree] of Object.entries(trees)) results.get(name)!.push(await probe(tree));
}
rmSync(baseDir, { recursive: true, force: true });

const fmt = (n: number) => n.toFixed(1).padStart(8);
console.log(`toolchain discovery at node start-up, ${samples} fresh processes per side, alternating (median / p95 ms)`);
console.log(
  `${"tree".padEnd(20)} ${"languages".padStart(9)} ${"versions".padStart(8)}   ` +
    `${"detect".padStart(8)} ${"p95".padStart(8)}   ${"process".padStart(8)} ${"p95".padStart(8)}`,
);
for (const [name, list] of results) {
  const detect = summarize(list.map((s) => s.detectMs));
  const whole = summarize(list.map((s) => s.processMs));
  console.log(
    `${name.padEnd(20)} ${String(list[0]!.languages).padStart(9)} ${String(list[0]!.versions).padStart(8)}   ` +
      `${fmt(detect.median)} ${fmt(detect.p95)}   ${fmt(whole.median)} ${fmt(whole.p95)}`,
  );
}
