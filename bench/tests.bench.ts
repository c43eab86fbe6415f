// npm run bench:tests — 20 test cases of a compiled C++ solution through the engine (compile once,
// one fresh sandbox per test, judged), against a baseline measured in the same run:
//   one bare compile (same flags, outside any sandbox) + 20 × the same binary run natively + 2 ms per test.
// Each sample's source differs by a comment, so every engine sample compiles (a cache miss).
// The target adds the single-run overhead (one sandboxed run of the cached program minus
// the same run bare), measured in the same run: target = baseline + that overhead.
// BENCH_REPS sets the number of samples (default 5); medians and p95 side by side.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "../fleet/src/node-engine.ts";
import { LANGUAGES } from "../fleet/src/languages/table.ts";
import { detectToolchains } from "../fleet/src/languages/toolchains.ts";
import { summarize } from "./stats.ts";
import { Client, LOCAL_TEST_VARS, admin, cleanup, startEdge, startFleet } from "../scripts/stack/index.ts";

const TESTS = 20;
const ALLOWANCE_MS_PER_TEST = 2;
const reps = Number(process.env.BENCH_REPS ?? 5);
const dir = mkdtempSync(join(tmpdir(), "bench-tests-"));
const engine = await createEngine({ stateDir: join(dir, "state"), slots: 1, cgroupParent: "codecell-bench" });
if (!engine.health().ready) throw new Error(`engine not ready: ${engine.health().reasons.join("; ")}`);

// The bare compile uses the same precompiled <bits/stdc++.h> as the engine when there is one.
const cpp = (await detectToolchains(LANGUAGES)).get("cpp")?.toolchain;
if (!cpp) throw new Error("no C++ toolchain");
const pch = cpp.binds.find((bind) => bind.sandboxPath === "/opt/pch")?.hostPath;

const SOLUTION = "#include <bits/stdc++.h>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }\n";
const tests = Array.from({ length: TESTS }, (_, i) => ({ name: `t${i + 1}`, stdin: `${i} ${i * 7}\n`, expected: `${i * 8}\n` }));

function bare(argv: string[], stdin = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: dir, stdio: ["pipe", "pipe", "pipe"], env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${argv.join(" ")}: exit ${code}: ${err}`))));
    child.stdin.end(stdin);
  });
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

let nonce = 0;
const variant = () => `${SOLUTION}// bench ${process.pid} ${nonce++}\n`;

async function throughEngine(code: string): Promise<void> {
  const outcome = await engine.execute({ language: "cpp", code, stdin: "", tests, check: { compare: "lines" } });
  const verdicts = outcome.tests?.map((test) => test.result.verdict) ?? [];
  if (outcome.result.verdict !== "AC" || verdicts.length !== TESTS || outcome.compileCacheHit) {
    throw new Error(`engine: ${outcome.result.verdict} ${verdicts.join(",")} hit=${outcome.compileCacheHit} ${outcome.result.stderr}`);
  }
}

/** One run of an already compiled program through the engine, minus the same binary run bare. */
async function singleRunOverhead(code: string): Promise<number> {
  const viaEngine = await time(async () => {
    const o = await engine.execute({ language: "cpp", code, stdin: tests[0]!.stdin });
    if (o.result.verdict !== "AC" || !o.compileCacheHit) throw new Error(`single run: ${o.result.verdict} hit=${o.compileCacheHit}`);
  });
  const bareRun = await time(() => bare([join(dir, "main")], tests[0]!.stdin));
  return viaEngine - bareRun;
}

/** One bare compile, then the binary once per test, timed separately (the baseline adds them). */
async function natively(code: string): Promise<{ compileMs: number; runsMs: number }> {
  writeFileSync(join(dir, "main.cpp"), code);
  const compileMs = await time(() => bare(["/usr/bin/g++", "-std=c++20", "-O2", "-pipe", ...(pch ? ["-I", pch] : []), "-o", "main", "main.cpp", "-lm"]));
  let runsMs = 0;
  for (const test of tests) {
    runsMs += await time(async () => {
      if ((await bare([join(dir, "main")], test.stdin)) !== test.expected) throw new Error("bare run: wrong output");
    });
  }
  return { compileMs, runsMs };
}

// Warm-up: page cache, the compiler's first start, the sandbox's first runs.
await natively(variant());
await throughEngine(variant());

const engineMs: number[] = [];
const baselineMs: number[] = [];
const compileMs: number[] = [];
const runsMs: number[] = [];
const overheadMs: number[] = [];
const targetMs: number[] = [];
const cached = variant();
await throughEngine(cached);
for (let i = 0; i < reps; i++) {
  const native = await natively(variant());
  compileMs.push(native.compileMs);
  runsMs.push(native.runsMs);
  baselineMs.push(native.compileMs + native.runsMs + TESTS * ALLOWANCE_MS_PER_TEST);
  overheadMs.push(await singleRunOverhead(cached));
  targetMs.push(baselineMs.at(-1)! + overheadMs.at(-1)!);
  engineMs.push(await time(() => throughEngine(variant())));
}
await engine.close();

// Through the edge as a client sees it: the same 20-test request as a synchronous submit, and the
// single-run e2e overhead (a synchronous submit of the cached program minus the same run bare).
const fleet = await startFleet();
const edge = await startEdge({ vars: { ...LOCAL_TEST_VARS, SYNC_HOLD_MS: "60000", RATE_LIMIT_PER_MIN: "100000" } });
const e2eMs: number[] = [];
const e2eOverheadMs: number[] = [];
const e2eTargetMs: number[] = [];
try {
  const ops = admin(edge);
  await ops.mustRegisterNode(fleet);
  const client = new Client(edge.base, (await ops.newKey()).key);
  const apiTests = tests.map((t) => ({ name: t.name, stdin: t.stdin, expected_output: t.expected }));
  const submit = async (body: unknown, check: (rec: { verdict: string; tests?: unknown[] }) => boolean) => {
    const r = await client.submit(body, { wait: true });
    if (r.status !== 200 || !check(r.json)) throw new Error(`edge: ${r.status} ${r.text.slice(0, 300)}`);
  };
  await submit({ language: "cpp", code: cached, stdin: tests[0]!.stdin }, (rec) => rec.verdict === "AC");
  await submit({ language: "cpp", code: variant(), tests: apiTests, limits: { wall_time_ms: 2000 } }, (rec) => rec.verdict === "AC");
  for (let i = 0; i < reps; i++) {
    const native = await natively(variant());
    const single = await time(() => submit({ language: "cpp", code: cached, stdin: tests[0]!.stdin }, (rec) => rec.verdict === "AC"));
    const bareRun = await time(() => bare([join(dir, "main")], tests[0]!.stdin));
    e2eOverheadMs.push(single - bareRun);
    e2eTargetMs.push(native.compileMs + native.runsMs + TESTS * ALLOWANCE_MS_PER_TEST + single - bareRun);
    e2eMs.push(await time(() => submit(
      { language: "cpp", code: variant(), tests: apiTests, limits: { wall_time_ms: 2000 } },
      (rec) => rec.verdict === "AC" && rec.tests?.length === TESTS,
    )));
  }
} finally {
  await edge.stop();
  await fleet.stop();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
}
rmSync(dir, { recursive: true, force: true });

const fmt = (samples: number[]) => {
  const { median, p95 } = summarize(samples);
  return `median ${median.toFixed(1).padStart(8)} ms   p95 ${p95.toFixed(1).padStart(8)} ms`;
};
console.log(`${TESTS} tests of a C++ solution (compile once + one sandbox per test), ${reps} samples; precompiled header: ${pch ? "yes" : "no"}`);
console.log(`  bare compile                                  ${fmt(compileMs)}`);
console.log(`  bare runs (${TESTS} × native)                      ${fmt(runsMs)}`);
console.log(`  baseline = compile + runs + ${TESTS} × ${ALLOWANCE_MS_PER_TEST} ms          ${fmt(baselineMs)}`);
console.log(`  single-run overhead (engine − bare, 1 run)    ${fmt(overheadMs)}`);
console.log(`  target = baseline + single-run overhead       ${fmt(targetMs)}`);
console.log(`  engine (judged, ${TESTS} tests)                    ${fmt(engineMs)}`);
const delta = summarize(engineMs).median - summarize(baselineMs).median;
console.log(`  engine − baseline (medians): ${delta >= 0 ? "+" : ""}${delta.toFixed(1)} ms (${delta <= 0 ? "within" : "over"} the baseline)`);
const margin = summarize(engineMs).median - summarize(targetMs).median;
console.log(`  engine − target (medians): ${margin >= 0 ? "+" : ""}${margin.toFixed(1)} ms (${margin <= 0 ? "meets" : "misses"} the target)`);
console.log(`through the edge (synchronous submit, HTTPS, real workerd):`);
console.log(`  single-run e2e overhead (submit − bare run)   ${fmt(e2eOverheadMs)}`);
console.log(`  target = compile + runs + 20 × 2 ms + e2e      ${fmt(e2eTargetMs)}`);
console.log(`  20 tests through the edge                     ${fmt(e2eMs)}`);
const e2eMargin = summarize(e2eMs).median - summarize(e2eTargetMs).median;
console.log(`  e2e − target (medians): ${e2eMargin >= 0 ? "+" : ""}${e2eMargin.toFixed(1)} ms (${e2eMargin <= 0 ? "meets" : "misses"} the target)`);
