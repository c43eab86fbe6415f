// The tests' wall-time budget (fleet/src/judge/tests-budget.ts, tests.ts aggregate), pure: the
// request's budget, the clock, SKIPPED tests and the overall verdict they make.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { aggregate } from "../../fleet/src/judge/tests.ts";
import { BUDGET_CAUSE, budgetClock, skippedTest, testsBudgetMs } from "../../fleet/src/judge/tests-budget.ts";
import { notRun } from "../../fleet/src/sandbox/failed-setup.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import type { TestOutcome } from "../../fleet/src/engine.ts";
import { TESTS_WALL_BUDGET_MS } from "../../proto/submission-rules.ts";

const request = { language: "python", code: "", stdin: "" };
const ran = (name: string, verdict: "AC" | "RE"): TestOutcome => ({
  name,
  result: { ...notRun({ verdict, cause: verdict === "AC" ? "normal_exit" : "nonzero_exit", actor: "runtime", errorMessage: null }, [], RUN_LIMITS).result, wall_time_secs: 0.5 },
  stdoutBytes: new Uint8Array(),
  stderrBytes: new Uint8Array(),
});

describe("the tests' budget", () => {
  it("the node's 120 s unless the request narrows it; never wider", () => {
    assert.equal(testsBudgetMs(request), TESTS_WALL_BUDGET_MS);
    assert.equal(testsBudgetMs({ ...request, testsWallBudgetMs: 0 }), TESTS_WALL_BUDGET_MS);
    assert.equal(testsBudgetMs({ ...request, testsWallBudgetMs: 1000 }), 1000);
    assert.equal(testsBudgetMs({ ...request, testsWallBudgetMs: 10 * TESTS_WALL_BUDGET_MS }), TESTS_WALL_BUDGET_MS);
  });

  it("the clock is used up once the time spent reaches the budget", () => {
    let now = 100;
    const usedUp = budgetClock(50, () => now);
    assert.equal(usedUp(), false);
    now = 149;
    assert.equal(usedUp(), false);
    now = 150;
    assert.equal(usedUp(), true);
  });

  it("a skipped test: verdict SKIPPED, the cause, nothing run", () => {
    const t = skippedTest(request, "t9", 1500);
    assert.equal(t.result.verdict, "SKIPPED");
    assert.equal(t.result.evidence.verdict_cause, BUDGET_CAUSE);
    assert.equal(t.result.evidence.verdict_actor, "judge");
    assert.equal(t.result.error_message, "not run: the tests used up their wall-time budget of 1.5 s");
    assert.equal(t.result.wall_time_secs, 0);
  });
});

describe("aggregate with skipped tests", () => {
  it("every test run AC, then skipped ones: TLE with the cause, saying how many were not run", () => {
    const { result } = aggregate([ran("a", "AC"), ran("b", "AC"), skippedTest(request, "c", 1000)], 1000);
    assert.equal(result.verdict, "TLE");
    assert.equal(result.evidence.verdict_cause, BUDGET_CAUSE);
    assert.equal(result.error_message, "1 of 3 tests were not run: the tests used up their wall-time budget of 1 s");
    assert.equal(result.wall_time_secs, 1);
  });

  it("a failing test run still decides", () => {
    const { result } = aggregate([ran("a", "AC"), ran("b", "RE"), skippedTest(request, "c", 1000)], 1000);
    assert.equal(result.verdict, "RE");
    assert.equal(result.evidence.verdict_cause, "nonzero_exit");
  });

  it("nothing skipped: as before", () => {
    assert.equal(aggregate([ran("a", "AC")]).result.verdict, "AC");
  });
});
