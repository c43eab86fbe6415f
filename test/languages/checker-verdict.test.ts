// What a custom checker's run means for the program's (fleet/src/judge/programs/checker-verdict.ts), pure:
// testlib's exit codes, the points of exit 7, the 4 KiB message, a failure that is the checker's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CHECKER_MESSAGE_BYTES, checkerMessage, checkerPoints, checkerVerdict } from "../../fleet/src/judge/programs/checker-verdict.ts";
import { notRun } from "../../fleet/src/sandbox/failed-setup.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import type { ExecutionRecord } from "../../fleet/src/sandbox/run-spec.ts";
import type { VerdictDecision } from "../../fleet/src/sandbox/verdict.ts";

const record = (decision: VerdictDecision, exit: number | null = null): ExecutionRecord => ({ ...notRun(decision, [], RUN_LIMITS).result, exit_code: exit });
const PROGRAM = record({ verdict: "AC", cause: "normal_exit", actor: "runtime", errorMessage: null }, 0);
const exited = (code: number) =>
  code === 0 ? record({ verdict: "AC", cause: "normal_exit", actor: "runtime", errorMessage: null }, 0) : record({ verdict: "RE", cause: "nonzero_exit", actor: "runtime", errorMessage: `runtime error: exit code ${code}` }, code);
const text = (s: string) => new TextEncoder().encode(s);

describe("checkerVerdict", () => {
  it("exit 0 keeps the program's AC and adds the checker's evidence", () => {
    const judged = checkerVerdict(PROGRAM, exited(0), text("ok 3 numbers\n"));
    assert.equal(judged.verdict, "AC");
    assert.equal(judged.error_message, null);
    assert.equal(judged.evidence.verdict_cause, "normal_exit");
    assert.deepEqual(judged.evidence.checker, { exit_code: 0, cause: "normal_exit", message: "ok 3 numbers", points: null });
  });

  // [exit code, cause, points]
  const verdicts: [number, string, number | null][] = [[1, "wrong_answer", null], [2, "presentation_error", null], [4, "presentation_error", null], [8, "presentation_error", null], [7, "partial", 12.5]];
  for (const [code, cause, points] of verdicts) {
    it(`exit ${code} is WA, cause ${cause}, by the checker`, () => {
      const judged = checkerVerdict(PROGRAM, exited(code), text("points 12.5 half\n"));
      assert.equal(judged.verdict, "WA");
      assert.equal(judged.evidence.verdict_cause, cause);
      assert.equal(judged.evidence.verdict_actor, "checker");
      assert.equal(judged.evidence.checker?.points, points);
      assert.equal(judged.error_message, "points 12.5 half");
      assert.equal(judged.exit_code, 0, "the program's own exit status stays");
    });
  }

  it("a WA without a message says so in testlib's words", () => {
    assert.equal(checkerVerdict(PROGRAM, exited(1), text("")).error_message, "wrong answer");
    assert.equal(checkerVerdict(PROGRAM, exited(2), text("")).error_message, "wrong output format");
  });

  const failures: [string, ExecutionRecord, RegExp][] = [
    ["exit 3", exited(3), /^the checker failed \(exit code 3\): FAIL x; the output was not judged correct$/],
    ["exit 5", exited(5), /^the checker exited with 5, which is not a checker's verdict/],
    ["exit 7 without points", exited(7), /printed no points/],
    ["TLE", record({ verdict: "TLE", cause: "cpu_timeout", actor: "supervisor", errorMessage: "time limit exceeded" }), /^the checker did not finish: time limit exceeded/],
    ["a crash", record({ verdict: "RE", cause: "segmentation_fault", actor: "kernel", errorMessage: "runtime error: SIGSEGV" }), /did not finish: runtime error: SIGSEGV/],
  ];
  for (const [label, checker, message] of failures) {
    it(`${label} is WA checker_failed by the checker, never IE`, () => {
      const judged = checkerVerdict(PROGRAM, checker, text(label === "exit 3" ? "FAIL x\n" : "no points\n"));
      assert.equal(judged.verdict, "WA");
      assert.equal(judged.evidence.verdict_cause, "checker_failed");
      assert.equal(judged.evidence.verdict_actor, "checker");
      assert.equal(judged.evidence.checker?.cause, checker.evidence.verdict_cause);
      assert.match(judged.error_message ?? "", message);
    });
  }

  it("a platform failure running the checker stays the platform's IE", () => {
    const judged = checkerVerdict(PROGRAM, record({ verdict: "IE", cause: "cancelled", actor: "supervisor", errorMessage: "cancelled" }), text(""));
    assert.equal(judged.verdict, "IE");
    assert.equal(judged.evidence.verdict_cause, "cancelled");
    assert.match(judged.error_message ?? "", /^the checker could not be run: cancelled/);
  });
});

describe("the checker's message and points", () => {
  it("the message is the first 4 KiB of stderr, never a broken character", () => {
    const long = `${"é".repeat(3000)}`;
    const message = checkerMessage(text(long));
    assert.ok(Buffer.byteLength(message) <= CHECKER_MESSAGE_BYTES + 2);
    assert.ok(message.startsWith("éé"));
    assert.equal(checkerMessage(text("wrong answer x \n\n")), "wrong answer x");
  });

  it("points: testlib's `points <value>` line, else null", () => {
    assert.equal(checkerPoints("points 0.25 a quarter"), 0.25);
    assert.equal(checkerPoints("points 3"), 3);
    assert.equal(checkerPoints("points 1e-3 tiny"), 0.001);
    assert.equal(checkerPoints("  points -2 negative"), -2);
    assert.equal(checkerPoints("0.5 without the word"), null);
    assert.equal(checkerPoints("points half"), null);
    assert.equal(checkerPoints(""), null);
  });
});
