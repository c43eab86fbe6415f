// The tests' wall-time budget (docs/languages.md, "Judging"): counted on the time the tests actually
// use (each test's run and its checker), as they run. Once it is used up, the tests left are not
// run: each is reported with verdict SKIPPED, cause `tests_wall_budget_exceeded`, and a request
// whose tests run were all AC ends TLE with that cause.
import type { EngineRequest, TestOutcome } from "../engine.ts";
import { notRun } from "../sandbox/failed-setup.ts";
import { RUN_LIMITS, narrowLimits } from "../sandbox/limits.ts";
import type { ExecutionRecord } from "../sandbox/run-spec.ts";
import { TESTS_WALL_BUDGET_MS } from "../../../proto/submission-rules.ts";

export const BUDGET_CAUSE = "tests_wall_budget_exceeded";

/** The request's budget: its own when narrower than the node's, else the node's. */
export function testsBudgetMs(request: EngineRequest): number {
  const asked = request.testsWallBudgetMs ?? 0;
  return asked > 0 && asked < TESTS_WALL_BUDGET_MS ? asked : TESTS_WALL_BUDGET_MS;
}

/** A wall clock started with the tests: whether `budgetMs` is used up. */
export function budgetClock(budgetMs: number, now: () => number = () => performance.now()): () => boolean {
  const start = now();
  return () => now() - start >= budgetMs;
}

/** A test not run because the budget was used up. */
export function skippedTest(request: EngineRequest, name: string, budgetMs: number): TestOutcome {
  const message = `not run: the tests used up their wall-time budget of ${budgetMs / 1000} s`;
  const { result } = notRun({ verdict: "SKIPPED", cause: BUDGET_CAUSE, actor: "judge", errorMessage: message }, [], narrowLimits(RUN_LIMITS, request.limits));
  return { name, result, stdoutBytes: new Uint8Array(), stderrBytes: new Uint8Array() };
}

/** The overall record when every test run was AC but some were skipped: TLE, saying how many were not run. */
export function budgetExceeded(last: ExecutionRecord, skipped: number, total: number, budgetMs: number): ExecutionRecord {
  return {
    ...last,
    verdict: "TLE",
    error_message: `${skipped} of ${total} tests were not run: the tests used up their wall-time budget of ${budgetMs / 1000} s`,
    evidence: { ...last.evidence, verdict_cause: BUDGET_CAUSE, verdict_actor: "judge" },
  };
}
