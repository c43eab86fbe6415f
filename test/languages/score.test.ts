// Scoring (fleet/src/judge/score.ts), pure: what a test earns from its verdict and a custom
// checker's partial points, the totals, and runTests scoring only when a test has points.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { OutputChecks } from "../../fleet/src/judge/compare/check-pool.ts";
import { scored, testScore, totalScore } from "../../fleet/src/judge/score.ts";
import { runTests, type RunOnce } from "../../fleet/src/judge/tests.ts";
import { notRun } from "../../fleet/src/sandbox/failed-setup.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import type { ExecutionRecord } from "../../fleet/src/sandbox/run-spec.ts";
import type { VerdictDecision } from "../../fleet/src/sandbox/verdict.ts";

const record = (decision: VerdictDecision): ExecutionRecord => notRun(decision, [], RUN_LIMITS).result;
const AC = record({ verdict: "AC", cause: "normal_exit", actor: "runtime", errorMessage: null });
const RE = record({ verdict: "RE", cause: "nonzero_exit", actor: "runtime", errorMessage: "runtime error: exit code 1" });
const TLE = record({ verdict: "TLE", cause: "wall_timeout", actor: "supervisor", errorMessage: "time limit exceeded" });
const checked = (cause: string, points: number | null): ExecutionRecord => ({
  ...AC,
  verdict: "WA",
  evidence: { ...AC.evidence, verdict_cause: cause, verdict_actor: "checker", checker: { exit_code: 7, cause: "nonzero_exit", message: "", points } },
});

describe("testScore", () => {
  it("AC earns the test's points; RE, TLE and a plain WA earn 0", () => {
    assert.equal(testScore(AC, 30), 30);
    assert.equal(testScore(AC, 0), 0);
    assert.equal(testScore(RE, 30), 0);
    assert.equal(testScore(TLE, 30), 0);
    assert.equal(testScore(checked("wrong_answer", null), 30), 0);
  });

  it("a checker's partial points are absolute, clamped to [0, the test's points]", () => {
    assert.equal(testScore(checked("partial", 12.5), 30), 12.5);
    assert.equal(testScore(checked("partial", 45), 30), 30);
    assert.equal(testScore(checked("partial", -2), 30), 0);
    assert.equal(testScore(checked("partial", 0.5), 0), 0);
  });

  it("points on a verdict other than partial do not count (a checker that failed)", () => {
    assert.equal(testScore(checked("checker_failed", 10), 30), 0);
  });
});

describe("totalScore and scored", () => {
  it("the score sums what the tests earned; max_score every test's points, run or not", () => {
    assert.deepEqual(totalScore([10, 0], [{ points: 10 }, { points: 20 }, { points: 70 }]), { score: 10, max_score: 100 });
    assert.deepEqual(totalScore([0.1, 0.2], [{ points: 0.1 }, { points: 0.2 }]), { score: 0.3, max_score: 0.3 });
  });

  it("a test without points is worth 0 once any test has points", () => {
    assert.deepEqual(totalScore([5, 0], [{ points: 5 }, {}]), { score: 5, max_score: 5 });
  });

  it("a request is scored when any test has points, even 0", () => {
    assert.equal(scored([{}, {}]), false);
    assert.equal(scored([{}, { points: 0 }]), true);
    assert.equal(scored([]), false);
  });
});

describe("runTests scores", () => {
  const checks: OutputChecks = { check: () => Promise.reject(new Error("no expected output here")) } as unknown as OutputChecks;
  const runs = (results: ExecutionRecord[]): RunOnce => async (_stdin, test) => ({
    result: results[test]!, stdoutBytes: new Uint8Array(), stderrBytes: new Uint8Array(), outputFiles: new Map(), discardedBytes: { stdout: 0, stderr: 0 },
  });

  it("each test its score out of its points, the request the sum; a test not run earns 0", async () => {
    const tests = [{ name: "a", stdin: "", points: 10 }, { name: "b", stdin: "", points: 20 }, { name: "c", stdin: "", points: 70 }];
    const judged = await runTests(runs([AC, RE, AC]), checks, { language: "python", code: "", stdin: "", tests, stopOnFirstFailure: true });
    assert.deepEqual(judged.tests.map((t) => t.score), [{ score: 10, max_score: 10 }, { score: 0, max_score: 20 }]);
    assert.deepEqual(judged.score, { score: 10, max_score: 100 });
  });

  it("no test with points: no score at all", async () => {
    const judged = await runTests(runs([AC]), checks, { language: "python", code: "", stdin: "", tests: [{ name: "a", stdin: "" }] });
    assert.equal(judged.score, undefined);
    assert.equal(judged.tests[0]!.score, undefined);
  });
});
