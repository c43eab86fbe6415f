// Judging: a run's output against the expected output (WA), and a request's test cases run one
// by one in fresh sandboxes, aggregated into the overall outcome (docs/languages.md, "Judging").
import type { EngineCheck, EngineRequest, TestOutcome } from "../engine.ts";
import type { ExecutionRecord, RunOutcome } from "../sandbox/run-spec.ts";
import type { OutputChecks } from "./compare/check-pool.ts";
import { scored, testScore, totalScore, type Score } from "./score.ts";
import { budgetClock, budgetExceeded, skippedTest, testsBudgetMs } from "./tests-budget.ts";
import { TESTS_WALL_BUDGET_MS } from "../../../proto/submission-rules.ts";

/**
 * A run the kernel judged AC whose stdout differs from `expected` becomes WA (the judge's verdict,
 * with where they differ); any other run, or one without expected output, keeps its verdict. The
 * check runs in `checks` (the node's worker pool, off the event loop); one that runs past the
 * pool's time budget is WA too, cause `check_budget_exceeded`: the output was not shown correct.
 */
export async function judgeRun(
  checks: OutputChecks,
  result: ExecutionRecord,
  stdout: Uint8Array,
  expected: Uint8Array | string | undefined,
  rule?: EngineCheck,
): Promise<ExecutionRecord> {
  if (expected === undefined || result.verdict !== "AC") return result;
  const checked = await checks.check({ actual: stdout, expected, mode: rule?.compare ?? "exact", epsilon: rule?.floatEpsilon });
  if ("overrun" in checked) {
    const message =
      `wrong answer: the output check ran past the judge's time budget of ${checked.budgetMs / 1000} s and was stopped; ` +
      "the output was not judged correct";
    return {
      ...result,
      verdict: "WA",
      error_message: message,
      evidence: { ...result.evidence, verdict_cause: "check_budget_exceeded", verdict_actor: "judge" },
    };
  }
  if (checked.equal) return result;
  const { mismatch } = checked;
  return {
    ...result,
    verdict: "WA",
    error_message: mismatch.message,
    evidence: {
      ...result.evidence,
      verdict_cause: "output_mismatch",
      verdict_actor: "judge",
      mismatch: {
        line: mismatch.line,
        column: mismatch.column ?? null,
        token: mismatch.token ?? null,
        expected: mismatch.expected,
        actual: mismatch.actual,
        message: mismatch.message,
      },
    },
  };
}

/** Runs the prepared program once in a fresh sandbox; `test` tags its output events. */
export type RunOnce = (stdin: Uint8Array | string, test: number) => Promise<RunOutcome>;

/** Judges one run some other way than judgeRun's compare (a custom checker: custom-checker.ts). */
export type JudgeRun = (ran: RunOutcome, stdin: Uint8Array | string, expected: Uint8Array | string | undefined) => Promise<ExecutionRecord>;

export interface JudgedTests {
  result: ExecutionRecord;
  tests: TestOutcome[];
  stdoutBytes: Uint8Array;
  stderrBytes: Uint8Array;
  /** The index of the deciding test (whose output and record the overall ones are). */
  decidingTest: number;
  /** Scored requests (a test with points): judge/score.ts. */
  score?: Score;
}

/**
 * Runs every test (or up to the first failure when asked), each reported as it finishes, within
 * the tests' wall-time budget: once it is used up, the tests left are SKIPPED (tests-budget.ts).
 */
export async function runTests(runOnce: RunOnce, checks: OutputChecks, request: EngineRequest, signal?: AbortSignal, judge?: JudgeRun): Promise<JudgedTests> {
  const tests: TestOutcome[] = [];
  const cases = request.tests ?? [];
  const scoring = scored(cases);
  const budgetMs = testsBudgetMs(request);
  const usedUp = budgetClock(budgetMs);
  const score = (result: ExecutionRecord, points = 0) => (scoring ? { score: { score: testScore(result, points), max_score: points } } : {});
  const report = (index: number, outcome: TestOutcome) => {
    const kept = request.keepTest?.(index, outcome) ?? outcome;
    tests.push(kept);
    request.onTest?.(index, kept);
  };
  for (const [index, test] of cases.entries()) {
    const name = test.name || `test-${index + 1}`;
    if (usedUp()) {
      const skipped = skippedTest(request, name, budgetMs);
      report(index, { ...skipped, ...score(skipped.result, test.points) });
      continue;
    }
    const ran = await runOnce(test.stdin, index);
    const result = judge ? await judge(ran, test.stdin, test.expected) : await judgeRun(checks, ran.result, ran.stdoutBytes, test.expected, request.check);
    const outcome: TestOutcome = { name, result, ...score(result, test.points), stdoutBytes: ran.stdoutBytes, stderrBytes: ran.stderrBytes };
    // Judged on its whole capture: from here on only what is kept of it.
    report(index, outcome);
    if (signal?.aborted) break;
    if (request.stopOnFirstFailure && outcome.result.verdict !== "AC") break;
  }
  const judged = { ...aggregate(tests, budgetMs), tests };
  return scoring ? { ...judged, score: totalScore(tests.map((test) => test.score?.score ?? 0), cases) } : judged;
}

/**
 * The overall outcome: the first failing test decides (else the last one run) verdict, output,
 * exit status, message and evidence; times are sums over the tests run, memory the peak. Tests
 * SKIPPED (the budget used up) after tests that were all AC make it TLE (tests-budget.ts).
 */
export function aggregate(tests: readonly TestOutcome[], budgetMs = TESTS_WALL_BUDGET_MS): Omit<JudgedTests, "tests"> {
  const ran = tests.filter((test) => test.result.verdict !== "SKIPPED");
  const skipped = tests.length - ran.length;
  const failing = ran.find((test) => test.result.verdict !== "AC");
  const deciding = failing ?? ran.at(-1);
  if (!deciding) throw new Error("aggregate needs at least one test run");
  const sum = (pick: (result: ExecutionRecord) => number) => tests.reduce((total, test) => total + pick(test.result), 0);
  const decided = !failing && skipped > 0 ? budgetExceeded(deciding.result, skipped, tests.length, budgetMs) : deciding.result;
  return {
    result: {
      ...decided,
      cpu_time_secs: sum((result) => result.cpu_time_secs),
      wall_time_secs: sum((result) => result.wall_time_secs),
      memory_peak_bytes: Math.max(...tests.map((test) => test.result.memory_peak_bytes)),
    },
    stdoutBytes: deciding.stdoutBytes,
    stderrBytes: deciding.stderrBytes,
    decidingTest: tests.indexOf(deciding),
  };
}
