// npm run bench:custom-checker — one 50-test set of a compiled C++ solution through the engine,
// judged by a custom C++ checker (testlib.h stand-in, ~200 KB, in its files) and, in the same run,
// by the built-in `tokens` compare (target: the checker at most 1.5× the built-in per test). The program and the checker come from the compile cache after
// the warm-up, so the difference is the checker's runs: one check after each test, by the
// submission's check server (one sandbox; the checker forked from its warm start).
// The checker's first (uncached) compile is timed apart. BENCH_REPS sets the samples (default 5).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EngineRequest } from "../fleet/src/engine.ts";
import { createEngine } from "../fleet/src/node-engine.ts";
import { CPP_TESTLIB_CHECKER, permutationTest, testlibHeader } from "../shared-fixtures/checkers.ts";
import { summarize } from "./stats.ts";

const TESTS = Number(process.env.BENCH_TESTS ?? 50);
const reps = Number(process.env.BENCH_REPS ?? 5);
const dir = mkdtempSync(join(tmpdir(), "bench-custom-checker-"));
const engine = await createEngine({ stateDir: join(dir, "state"), slots: 1, cgroupParent: "codecell-bench" });
if (!engine.health().ready) throw new Error(`engine not ready: ${engine.health().reasons.join("; ")}`);

const SOLUTION = "#include <bits/stdc++.h>\nint main() { int n; std::cin >> n; for (int i = 0; i < n; i++) { long long x; std::cin >> x; std::cout << x << (i + 1 < n ? ' ' : '\\n'); } }\n";
const tests = Array.from({ length: TESTS }, (_, i) => permutationTest(10 + (i % 10) * 10, `t${i + 1}`)).map((t) => ({ name: t.name!, stdin: t.stdin, expected: t.expected_output }));
const header = testlibHeader();
const checker = (code: string) => ({ language: "cpp", code, files: [{ path: "testlib.h", content: header }] });

async function judged(request: Partial<EngineRequest>): Promise<number> {
  const start = performance.now();
  const outcome = await engine.execute({ language: "cpp", code: SOLUTION, stdin: "", tests, ...request });
  const elapsed = performance.now() - start;
  const verdicts = outcome.tests?.map((test) => test.result.verdict) ?? [];
  if (outcome.result.verdict !== "AC" || verdicts.length !== TESTS) throw new Error(`${outcome.result.verdict} ${outcome.result.error_message}`);
  return elapsed;
}

// Warm-up: the program's compile, the checker's compile (then cached), the sandbox's first runs.
await judged({ check: { compare: "tokens" } });
await judged({ checker: checker(CPP_TESTLIB_CHECKER) });

const linesMs: number[] = [];
const checkerMs: number[] = [];
const uncachedMs: number[] = [];
for (let i = 0; i < reps; i++) {
  linesMs.push(await judged({ check: { compare: "tokens" } }));
  checkerMs.push(await judged({ checker: checker(CPP_TESTLIB_CHECKER) }));
  uncachedMs.push(await judged({ checker: checker(`${CPP_TESTLIB_CHECKER}// bench ${process.pid} ${i}\n`) }));
}
await engine.close();
rmSync(dir, { recursive: true, force: true });

const fmt = (samples: number[]) => {
  const { median, p95 } = summarize(samples);
  return `median ${median.toFixed(1).padStart(8)} ms   p95 ${p95.toFixed(1).padStart(8)} ms`;
};
console.log(`${TESTS} tests of a cached C++ solution, ${reps} samples each, same run:`);
console.log(`  built-in compare "tokens"                         ${fmt(linesMs)}`);
console.log(`  custom C++ checker (testlib.h, cached)            ${fmt(checkerMs)}`);
console.log(`  custom C++ checker, first submission (compiles)   ${fmt(uncachedMs)}`);
const perTest = (samples: number[]) => summarize(samples).median / TESTS;
const ratio = summarize(checkerMs).median / summarize(linesMs).median;
console.log(`  per test: tokens ${perTest(linesMs).toFixed(1)} ms, checker ${perTest(checkerMs).toFixed(1)} ms: ${ratio.toFixed(2)}× (target ≤ 1.5×)`);
