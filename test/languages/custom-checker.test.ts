// Custom checkers on the real kernel, at the engine: a Python and a C++ (testlib.h, ~200 KB, in its
// files) permutation checker accept reordered output and give WA with their message for a wrong
// number; testlib's exit codes (PE, points); a checker's own failure (exit 3, a crash, a limit, a
// compile error) is WA `checker_failed` by actor `checker`, never IE, and the engine stays ready.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EngineChecker, EngineRequest, ExecuteOutcome } from "../../fleet/src/engine.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";
import {
  CPP_TESTLIB_CHECKER, PYTHON_PERMUTATION_CHECKER, REVERSE_PROGRAM, WRONG_PROGRAM, exitingChecker, permutationTest, testlibHeader,
} from "../../shared-fixtures/checkers.ts";

const { engine, stateDir } = useEngine("codecell-custom-checker-");

const TESTS = [permutationTest(3, "three"), permutationTest(5, "five")].map((t) => ({ name: t.name!, stdin: t.stdin, expected: t.expected_output }));

const judge = (checker: EngineChecker, code = REVERSE_PROGRAM, extra: Partial<EngineRequest> = {}): Promise<ExecuteOutcome> =>
  engine.execute({ language: "python", code, stdin: "", tests: TESTS, checker, ...extra });

const PYTHON: EngineChecker = { language: "python", code: PYTHON_PERMUTATION_CHECKER };
const CPP: EngineChecker = { language: "cpp", code: CPP_TESTLIB_CHECKER, files: [{ path: "testlib.h", content: testlibHeader() }] };

describe("permutation checkers", { concurrency: 1 }, () => {
  for (const [label, checker] of [["Python", PYTHON], ["C++ with testlib.h", CPP]] as const) {
    it(`${label}: reordered output is AC on every test; the checker's message is evidence`, async (t) => {
      if (!requireKernel(t)) return;
      const outcome = await judge(checker);
      assert.equal(outcome.result.verdict, "AC", outcome.result.error_message ?? "");
      assert.equal(outcome.tests?.length, 2);
      for (const test of outcome.tests!) {
        assert.equal(test.result.verdict, "AC", test.result.error_message ?? "");
        assert.equal(test.result.evidence.verdict_cause, "normal_exit");
        assert.equal(test.result.evidence.checker?.exit_code, 0);
        assert.match(test.result.evidence.checker?.message ?? "", /^ok \d numbers$/);
      }
      assert.equal(outcome.tests![1]!.result.stdout, "5 4 3 2 1\n", "the program's own output, reversed");
    });

    it(`${label}: a wrong number is WA by the checker, its stderr the message`, async (t) => {
      if (!requireKernel(t)) return;
      const outcome = await judge(checker, WRONG_PROGRAM);
      assert.equal(outcome.result.verdict, "WA");
      const { evidence, error_message } = outcome.tests![0]!.result;
      assert.equal(evidence.verdict_cause, "wrong_answer");
      assert.equal(evidence.verdict_actor, "checker");
      assert.equal(evidence.checker?.exit_code, 1);
      assert.equal(evidence.checker?.message, "wrong answer 999 is not in the expected output");
      assert.equal(error_message, evidence.checker?.message);
      assert.equal(evidence.mismatch, undefined, "no built-in compare ran");
      assert.equal(outcome.result.exit_code, 0, "the program's own exit status stays in the record");
    });
  }

  it("the checker is compiled once per submission and cached like a program: the next submission compiles nothing", async (t) => {
    if (!requireKernel(t)) return;
    const entries = () => readdirSync(join(stateDir, "compile-cache")).filter((name) => !name.startsWith(".")).length;
    const checker = { language: "c", code: `#include <stdio.h>\nint main(void) { fputs("ok\\n", stderr); return 0; } /* ${randomUUID()} */\n` };
    const before = entries();
    const first = await judge(checker);
    assert.equal(first.result.verdict, "AC", first.result.error_message ?? "");
    assert.equal(entries(), before + 1, "one artifact for two tests: the checker's (the program is Python)");
    const second = await judge(checker);
    assert.equal(second.result.verdict, "AC", second.result.error_message ?? "");
    assert.equal(entries(), before + 1, "the second submission took the checker from the cache");
  });

  it("the testlib.h stand-in is about the size of testlib.h", () => {
    const size = Buffer.byteLength(testlibHeader());
    assert.ok(size >= 200 * 1024 && size < 210 * 1024, `${size} bytes`);
  });
});

describe("testlib exit codes", { concurrency: 1 }, () => {
  it("exit 2 is WA with cause presentation_error", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await judge(exitingChecker(2, "wrong output format expected an integer\n"));
    assert.equal(outcome.result.verdict, "WA");
    assert.equal(outcome.result.evidence.verdict_cause, "presentation_error");
    assert.equal(outcome.result.evidence.verdict_actor, "checker");
    assert.equal(outcome.result.error_message, "wrong output format expected an integer");
  });

  it("exit 7 records the points it printed, cause partial", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await judge(exitingChecker(7, "points 0.25 a quarter of the pairs\n"));
    const { verdict, evidence, error_message } = outcome.tests![0]!.result;
    assert.equal(verdict, "WA");
    assert.equal(evidence.verdict_cause, "partial");
    assert.equal(evidence.checker?.points, 0.25);
    assert.equal(error_message, "points 0.25 a quarter of the pairs");
  });

  it("only the first 4 KiB of the checker's stderr is the message", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await judge(exitingChecker(1, `wrong answer ${"x".repeat(10_000)}`));
    assert.equal(Buffer.byteLength(outcome.result.evidence.checker?.message ?? ""), 4096);
  });

  it("a single run without tests is judged by the checker against expected_output", async (t) => {
    if (!requireKernel(t)) return;
    const test = permutationTest(4);
    const outcome = await engine.execute({ language: "python", code: REVERSE_PROGRAM, stdin: test.stdin, checker: PYTHON, check: { compare: "exact", expected: test.expected_output } });
    assert.equal(outcome.result.verdict, "AC", outcome.result.error_message ?? "");
    assert.equal(outcome.result.evidence.checker?.message, "ok 4 numbers");
  });

  it("a program the kernel failed keeps its verdict; the checker does not run", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await judge(PYTHON, "raise SystemExit(3)");
    assert.equal(outcome.result.verdict, "RE");
    assert.equal(outcome.result.evidence.checker, undefined);
  });
});

describe("the checker's own failure", { concurrency: 1 }, () => {
  const failures: [string, EngineChecker, RegExp, string][] = [
    ["exit 3 (testlib's FAIL)", exitingChecker(3, "FAIL the answer file is broken\n"), /^the checker failed \(exit code 3\): FAIL the answer file is broken/, "nonzero_exit"],
    ["an exit code testlib does not define", exitingChecker(42, ""), /^the checker exited with 42/, "nonzero_exit"],
    ["exit 7 without points", exitingChecker(7, "no points here\n"), /printed no points/, "nonzero_exit"],
    ["a crash", { language: "c", code: "int main(void) { volatile int *p = 0; return *p; }" }, /^the checker did not finish: runtime error: SIGSEGV/, "segmentation_fault"],
    ["its CPU limit", { language: "python", code: "while True: pass", limits: { cpuTimeMs: 300 } }, /^the checker did not finish: time limit exceeded/, "cpu_timeout"],
    ["its memory limit", { language: "python", code: "x = bytearray(200 << 20)", limits: { memoryBytes: 64 << 20 } }, /^the checker did not finish: memory limit exceeded/, "oom_kill"],
    ["a compile error", { language: "cpp", code: "int main() { return undeclared; }" }, /^the checker did not compile: .*undeclared/s, "compile_error"],
  ];
  for (const [label, checker, message, cause] of failures) {
    it(`${label} is WA checker_failed by the checker; the engine stays ready and judges the next one`, async (t) => {
      if (!requireKernel(t)) return;
      const outcome = await judge(checker);
      assert.equal(outcome.result.verdict, "WA", outcome.result.error_message ?? "");
      assert.equal(outcome.result.evidence.verdict_cause, "checker_failed");
      assert.equal(outcome.result.evidence.verdict_actor, "checker");
      assert.equal(outcome.result.evidence.checker?.cause, cause);
      assert.match(outcome.result.error_message ?? "", message);
      assert.match(outcome.result.error_message ?? "", /the output was not judged correct$/);
      if (cause === "compile_error") assert.deepEqual(outcome.tests, [], "nothing ran without a checker");
      assert.equal(engine.health().ready, true);
      const next = await judge(PYTHON);
      assert.equal(next.result.verdict, "AC", next.result.error_message ?? "");
    });
  }
});
