// npm run bench:checker — the output checkers on a tenant's worst inputs, now (linear scans) and
// before (the first, regex-based checker, read from git history at BEFORE, default ab97897, and
// timed once per case since it can take seconds), side by side; then the rules added later on
// 1 MiB beside `exact` in the same run; then a check's round trip through the worker pool (a
// small output, and 1 MiB of lines, by `lines` and by `identical`).
// BENCH_REPS sets the samples of the current checker (default 20).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { check, type CheckResult, type CompareMode } from "../fleet/src/judge/compare/checker.ts";
import { CheckPool } from "../fleet/src/judge/compare/check-pool.ts";
import { summarize, timeMany } from "./stats.ts";

type Check = (actual: string, expected: string, mode: CompareMode) => CheckResult;

const reps = Number(process.env.BENCH_REPS ?? 20);
const BEFORE = process.env.BEFORE ?? "ab97897";
const ROOT = resolve(import.meta.dirname, "..");

/** The checker as it was at `BEFORE` (a temporary copy of that revision's file), or null without git history. */
async function checkerBefore(): Promise<{ check: Check; cleanup(): void } | null> {
  let source: string;
  try {
    source = execFileSync("git", ["show", `${BEFORE}:fleet/src/judge/checker.ts`], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-checker-"));
  writeFileSync(join(dir, "checker.ts"), source);
  const module = (await import(join(dir, "checker.ts"))) as { check: Check };
  return { check: module.check, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const blanks = " ".repeat(80_000);
const million = "7 ".repeat(1_000_000);
const digits = "1".repeat(100_000);
const lines = "12345 67890\n".repeat(87_382); // ~1 MiB, a run's output cap
const CASES: { name: string; actual: string; expected: string; mode: CompareMode }[] = [
  { name: "lines: 80 000 blanks + 'x' (the incident)", actual: `${blanks}x \n`, expected: `${blanks}x`, mode: "lines" },
  { name: "lines: 1 MiB of lines, equal", actual: lines, expected: lines, mode: "lines" },
  { name: "exact: 1 MiB of lines, last differs", actual: `${lines}1`, expected: `${lines}2`, mode: "exact" },
  { name: "tokens: 1 000 000 tokens, equal", actual: million, expected: million, mode: "tokens" },
  { name: "float: a 100 000-digit token + 'x'", actual: `${digits}x`, expected: digits, mode: "float" },
];

// The rules added later (no regex-based "before"), on the same 1 MiB, beside `exact` in this run.
const floats = "3.14159 2.71828\n".repeat(65_536); // 1 MiB of numbers
const shuffled = Array.from({ length: 87_382 }, (_, i) => `${i} ${(i * 7919) % 87_382}`);
const unorderedExpected = shuffled.join("\n");
const unorderedActual = [...shuffled].reverse().join("\n");
const upper = lines.replaceAll("1", "A");
// identical reads bytes (as the worker hands them over): its inputs are encoded once, here.
const encoded = (text: string) => new TextEncoder().encode(text);
const NEW_CASES: { name: string; actual: string | Uint8Array; expected: string | Uint8Array; mode: CompareMode }[] = [
  { name: "exact: 1 MiB of lines, last differs", actual: `${lines}1`, expected: `${lines}2`, mode: "exact" },
  { name: "identical: 1 MiB of lines, equal", actual: encoded(lines), expected: encoded(lines), mode: "identical" },
  { name: "identical: 1 MiB of lines, last differs", actual: encoded(`${lines}1`), expected: encoded(`${lines}2`), mode: "identical" },
  { name: "unordered: 87 382 distinct lines, reversed", actual: unorderedActual, expected: unorderedExpected, mode: "unordered" },
  { name: "unordered: 1 MiB of lines, all the same", actual: lines, expected: lines, mode: "unordered" },
  { name: "float: 1 MiB of numbers, equal", actual: floats, expected: floats, mode: "float" },
  { name: "float_abs: 1 MiB of numbers, equal", actual: floats, expected: floats, mode: "float_abs" },
  { name: "float_rel: 1 MiB of numbers, equal", actual: floats, expected: floats, mode: "float_rel" },
  { name: "tokens_ci: 1 MiB of tokens, case differs", actual: upper, expected: upper.toLowerCase(), mode: "tokens_ci" },
];

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`.padStart(10);
const before = await checkerBefore();
console.log(`${"case".padEnd(44)} ${"now median".padStart(10)} ${"now p95".padStart(10)} ${`before (${BEFORE})`.padStart(16)}`);
for (const c of CASES) {
  const now = summarize(await timeMany(reps, async () => check(c.actual, c.expected, c.mode)));
  let then = "n/a";
  if (before) {
    const start = performance.now();
    before.check(c.actual, c.expected, c.mode);
    then = ms(performance.now() - start);
  }
  console.log(`${c.name.padEnd(44)} ${ms(now.median)} ${ms(now.p95)} ${then.padStart(16)}`);
}
before?.cleanup();
console.log(`${"case (rules added later)".padEnd(44)} ${"median".padStart(10)} ${"p95".padStart(10)}`);
for (const c of NEW_CASES) {
  const now = summarize(await timeMany(reps, async () => check(c.actual, c.expected, c.mode)));
  console.log(`${c.name.padEnd(44)} ${ms(now.median)} ${ms(now.p95)}`);
}

// Through the pool: the message to a worker, its decode and check, the answer back.
const pool = new CheckPool();
await pool.check({ actual: "warm", expected: "warm", mode: "exact" });
const small = new TextEncoder().encode("42\n");
const big = new TextEncoder().encode(lines);
const smallTimes = summarize(await timeMany(reps * 10, () => pool.check({ actual: small, expected: "42", mode: "lines" })));
const bigTimes = summarize(await timeMany(reps, () => pool.check({ actual: big, expected: big, mode: "lines" })));
console.log(`${"pool round trip: '42\\n', lines".padEnd(44)} ${ms(smallTimes.median)} ${ms(smallTimes.p95)}`);
console.log(`${"pool round trip: 1 MiB bytes vs 1 MiB, lines".padEnd(44)} ${ms(bigTimes.median)} ${ms(bigTimes.p95)}`);
const identicalTimes = summarize(await timeMany(reps, () => pool.check({ actual: big, expected: big, mode: "identical" })));
console.log(`${"pool round trip: 1 MiB bytes vs 1 MiB, identical".padEnd(44)} ${ms(identicalTimes.median)} ${ms(identicalTimes.p95)}`);
await pool.close();
