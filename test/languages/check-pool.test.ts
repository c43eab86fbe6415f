// The judge's output checks off the event loop: the worker pool (answers, queueing, a check past
// its budget, a worker that dies, closing) and judgeRun's verdicts from it. No kernel.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after } from "../hooks.ts";
import { CheckPool, CHECK_BUDGET_MS, type CheckAnswer, type OutputChecks } from "../../fleet/src/judge/compare/check-pool.ts";
import { judgeRun } from "../../fleet/src/judge/tests.ts";
import { notRun } from "../../fleet/src/sandbox/failed-setup.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import type { ExecutionRecord } from "../../fleet/src/sandbox/run-spec.ts";

const STALLING_WORKER = new URL("./fixtures/stalling-check-worker.ts", import.meta.url);
const bytes = (text: string) => new TextEncoder().encode(text);

const pools: CheckPool[] = [];
const pool = (options?: ConstructorParameters<typeof CheckPool>[0]) => {
  const made = new CheckPool(options);
  pools.push(made);
  return made;
};
after(() => Promise.all(pools.map((made) => made.close())));

describe("the check pool", () => {
  it("answers as the checker does, for bytes and text; invalid UTF-8 is replaced, as before", async () => {
    const checks = pool();
    assert.deepEqual(await checks.check({ actual: bytes("1 2  \n\n"), expected: "1 2", mode: "lines" }), { equal: true });
    assert.deepEqual(await checks.check({ actual: "0.1000001", expected: bytes("0.1"), mode: "float", epsilon: 1e-6 }), { equal: true });
    const answer = await checks.check({ actual: bytes("1\n3\n"), expected: bytes("1\n2\n"), mode: "exact" });
    assert.equal("equal" in answer && !answer.equal && answer.mismatch.message, "wrong answer (exact): the lines differ at line 2, column 1");
    assert.deepEqual(await checks.check({ actual: new Uint8Array([0x61, 0xff]), expected: "a\ufffd", mode: "exact" }), { equal: true });
  });

  it("the caller's bytes stay whole, a view or a pooled Buffer: the worker gets a copy", async () => {
    const checks = pool();
    const backing = bytes("xx7 8\nyy");
    const stdout = backing.subarray(2, 6);
    assert.deepEqual(await checks.check({ actual: stdout, expected: "7 8", mode: "tokens" }), { equal: true });
    assert.equal(stdout.byteLength, 4);
    assert.equal(new TextDecoder().decode(backing), "xx7 8\nyy");
    // a small Buffer sits in Node's shared pool, which cannot be transferred
    const pooled = Buffer.from("xx7 8\nyy").subarray(2, 6);
    assert.deepEqual(await checks.check({ actual: pooled, expected: Buffer.from("7 8"), mode: "tokens" }), { equal: true });
    assert.equal(pooled.toString(), "7 8\n");
  });

  it("more checks than workers wait their turn; each gets its own answer; at most two workers start", async () => {
    const checks = pool({ workers: 2 });
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => checks.check({ actual: `${i}`, expected: `${i % 2 === 0 ? i : -1}`, mode: "tokens" })));
    assert.deepEqual(answers.map((answer) => "equal" in answer && answer.equal), Array.from({ length: 24 }, (_, i) => i % 2 === 0));
    assert.ok(checks.workers <= 2, `${checks.workers} workers`);
  });

  it("a check past its budget answers `overrun`, its worker is replaced, and checks on the other worker go on meanwhile", async () => {
    const checks = pool({ workers: 2, budgetMs: 1_000, workerUrl: STALLING_WORKER });
    let stalledAnswered = false;
    const stalled = checks.check({ actual: "1", expected: "stall", mode: "exact" }).then((answer) => {
      stalledAnswered = true;
      return answer;
    });
    // the other worker answers while the first spins: the node's event loop is not held
    assert.deepEqual(await checks.check({ actual: "1", expected: "1", mode: "exact" }), { equal: true });
    assert.equal(stalledAnswered, false);
    assert.deepEqual(await stalled, { overrun: true, budgetMs: 1_000 });
    assert.equal(checks.replaced, 1);
    // a fresh worker takes the next checks
    const next = await Promise.all([1, 2, 3].map((n) => checks.check({ actual: `${n}`, expected: "2", mode: "exact" })));
    assert.deepEqual(next.map((answer) => "equal" in answer && answer.equal), [false, true, false]);
  });

  it("with one worker stalled and one worker in all, the next check waits for the replacement, then is answered", async () => {
    const checks = pool({ workers: 1, budgetMs: 1_000, workerUrl: STALLING_WORKER });
    const [stalled, after] = await Promise.all([
      checks.check({ actual: "1", expected: "stall", mode: "exact" }),
      checks.check({ actual: "a  ", expected: "a", mode: "lines" }),
    ]);
    assert.deepEqual([stalled, after], [{ overrun: true, budgetMs: 1_000 }, { equal: true }]);
  });

  it("a worker that dies fails its check (an error, not a verdict); the next check gets a fresh worker", async () => {
    const checks = pool({ workers: 1, workerUrl: STALLING_WORKER });
    await assert.rejects(checks.check({ actual: "1", expected: "exit", mode: "exact" }), /worker exited \(code 3\)/);
    assert.deepEqual(await checks.check({ actual: "1", expected: "1", mode: "exact" }), { equal: true });
  });

  it("a worker that cannot start fails the checks one by one, and does not start workers forever", async () => {
    const checks = pool({ workers: 2, workerUrl: new URL("./fixtures/no-such-worker.ts", import.meta.url) });
    const answers = await Promise.allSettled([1, 2, 3].map(() => checks.check({ actual: "1", expected: "1", mode: "exact" })));
    assert.deepEqual(answers.map((answer) => answer.status), ["rejected", "rejected", "rejected"]);
    assert.equal(checks.workers, 0);
  });

  it("closing stops the workers; a check after it fails", async () => {
    const checks = new CheckPool();
    await checks.check({ actual: "1", expected: "1", mode: "exact" });
    assert.equal(checks.workers, 1);
    await checks.close();
    assert.equal(checks.workers, 0);
    await assert.rejects(checks.check({ actual: "1", expected: "1", mode: "exact" }), /closed/);
  });

  it("the budget is 5 s by default", () => {
    assert.equal(CHECK_BUDGET_MS, 5_000);
    assert.equal(new CheckPool().budgetMs, CHECK_BUDGET_MS);
  });
});

describe("judgeRun", () => {
  const accepted = (): ExecutionRecord => notRun({ verdict: "AC", cause: "normal_exit", actor: "runtime", errorMessage: null }, [], RUN_LIMITS).result;
  const answering = (answer: CheckAnswer): OutputChecks & { asked: number } => {
    const fake = { asked: 0, check: async () => (fake.asked++, answer) };
    return fake;
  };

  it("a check past its budget is WA for exceeding the judge's budget: never IE, never a stall", async () => {
    const judged = await judgeRun(answering({ overrun: true, budgetMs: 5_000 }), accepted(), bytes("1\n"), "1\n");
    assert.equal(judged.verdict, "WA");
    assert.equal(judged.evidence.verdict_cause, "check_budget_exceeded");
    assert.equal(judged.evidence.verdict_actor, "judge");
    assert.equal(judged.evidence.mismatch, undefined);
    assert.equal(judged.error_message, "wrong answer: the output check ran past the judge's time budget of 5 s and was stopped; the output was not judged correct");
  });

  it("through a real stalling worker: the same verdict", async () => {
    const checks = pool({ workers: 1, budgetMs: 1_000, workerUrl: STALLING_WORKER });
    const judged = await judgeRun(checks, accepted(), bytes("1"), "stall", { compare: "exact" });
    assert.deepEqual([judged.verdict, judged.evidence.verdict_cause, judged.evidence.verdict_actor], ["WA", "check_budget_exceeded", "judge"]);
    assert.match(judged.error_message ?? "", /budget of 1 s/);
  });

  it("a mismatch is WA with where; equal output keeps AC; a run not AC, or without expected output, is not checked", async () => {
    const checks = pool();
    const wrong = await judgeRun(checks, accepted(), bytes("1 2\n3 x\n"), "1 2\n3 4\n", { compare: "exact" });
    assert.deepEqual(wrong.evidence.mismatch, { line: 2, column: 3, token: null, expected: "3 4", actual: "3 x", message: "wrong answer (exact): the lines differ at line 2, column 3" });
    assert.deepEqual([wrong.verdict, wrong.evidence.verdict_cause, wrong.error_message], ["WA", "output_mismatch", "wrong answer (exact): the lines differ at line 2, column 3"]);
    const right = accepted();
    assert.equal(await judgeRun(checks, right, bytes("1  \n"), "1", { compare: "lines" }), right);
    const never = answering({ equal: true });
    const failed = { ...accepted(), verdict: "RE" as const };
    assert.equal(await judgeRun(never, failed, bytes("1"), "2"), failed);
    assert.equal(await judgeRun(never, right, bytes("1"), undefined), right);
    assert.equal(never.asked, 0);
  });
});
