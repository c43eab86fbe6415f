// Custom checkers over native gRPC on the real engine: a bad checker is INVALID_ARGUMENT naming
// the field and runs nothing; a C++ checker with testlib.h in its files judges the tests and its
// verdict and evidence travel on the wire; a checker that fails leaves the node ready.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { status } from "@grpc/grpc-js";
import { CPP_TESTLIB_CHECKER, PYTHON_PERMUTATION_CHECKER, REVERSE_PROGRAM, WRONG_PROGRAM, exitingChecker, permutationTest, testlibHeader } from "../../shared-fixtures/checkers.ts";
import { collect, nativeExecute, nativeUnary, usingRealEngine, type NativeClient, type TestNode, type WireMessage } from "./helpers.ts";
import { useNode } from "./use-node.ts";

const MiB = 1024 * 1024;
const bytes = (text: string) => Buffer.from(text);
const TESTS = [permutationTest(3, "three"), permutationTest(6, "six")].map((t) => ({ name: t.name, stdin: bytes(t.stdin), expected_output: bytes(t.expected_output) }));

describe("custom checkers over native gRPC", { skip: !usingRealEngine && "needs the real engine" }, () => {
  let node: TestNode;
  let client: NativeClient;
  useNode({ slots: 2 }, (it) => ({ node, client } = it));

  const execute = (request: WireMessage) => collect(nativeExecute(client, { submission_id: randomUUID(), stdin: "", ...request }));
  const completed = (messages: WireMessage[]) => messages.at(-1)!.completed.result;
  const py = { language: "python", code: REVERSE_PROGRAM, tests: TESTS };
  const checker = { language: "python", code: PYTHON_PERMUTATION_CHECKER };

  test("a bad checker is INVALID_ARGUMENT naming the field, and runs nothing", async () => {
    const before = node.engine.executed.length;
    const cases: [WireMessage, RegExp][] = [
      [{ ...py, checker: { ...checker, language: "cobol" } }, /^checker\.language: unsupported language "cobol"; available: /],
      [{ ...py, checker: { ...checker, version: "0.1" } }, /^checker\.version: unknown version "0\.1" of python/],
      [{ ...py, checker: { ...checker, code: "" } }, /^checker\.code must not be empty/],
      [{ ...py, checker: { ...checker, code: "#".repeat(64 * 1024 + 1) } }, /^checker\.code is 65537 bytes; at most 65536/],
      [{ ...py, checker: { ...checker, files: [{ path: "answer.txt", content: bytes("x") }] } }, /^checker\.files: "answer\.txt" is the name of a file the checker reads/],
      [{ ...py, checker: { ...checker, files: [{ path: "main.py", content: bytes("x") }] } }, /^checker\.files: .*main source's own file name/],
      [{ ...py, checker: { ...checker, files: [{ path: "../x", content: bytes("x") }] } }, /^checker\.files: "\.\.\/x" has a "\.\." segment/],
      [{ ...py, checker: { ...checker, files: [{ path: "big", content: Buffer.alloc(MiB + 1) }] } }, /^checker\.files total 1048577 bytes/],
      [{ ...py, checker, check: { compare: "tokens" } }, /^check\.compare "tokens" does not apply with a checker/],
    ];
    for (const [request, message] of cases) {
      const { messages, error } = await execute(request);
      assert.equal(error?.code, status.INVALID_ARGUMENT, JSON.stringify(request).slice(0, 100));
      assert.match(error!.details, message);
      assert.deepEqual(messages, []);
    }
    assert.equal(node.engine.executed.length, before, "nothing reached the engine");
  });

  test("a C++ checker with testlib.h in its files judges each test; WA and its message travel on the wire", async () => {
    const cpp = { language: "cpp", code: CPP_TESTLIB_CHECKER, files: [{ path: "testlib.h", content: bytes(testlibHeader()) }] };
    const accepted = await execute({ ...py, checker: cpp });
    assert.equal(accepted.error, undefined);
    assert.deepEqual(accepted.messages.map((m) => m.event), ["started", "test", "test", "completed"]);
    const ac = completed(accepted.messages);
    assert.equal(ac.verdict, "VERDICT_AC", ac.error_message);
    assert.deepEqual(ac.tests.map((t: WireMessage) => t.result.evidence.checker.message), ["ok 3 numbers", "ok 6 numbers"]);
    const wrong = completed((await execute({ ...py, code: WRONG_PROGRAM, checker: cpp })).messages);
    assert.equal(wrong.verdict, "VERDICT_WA");
    assert.equal(wrong.evidence.verdict_cause, "wrong_answer");
    assert.equal(wrong.evidence.verdict_actor, "checker");
    assert.equal(wrong.error_message, "wrong answer 999 is not in the expected output");
    assert.equal(wrong.evidence.checker.exit_code, 1);
  });

  test("points: each test's score on the wire (a checker's partial points absolute), the sum and max_score on the result", async () => {
    const halving = {
      language: "python",
      code: 'import sys\ninp, out, ans = (open(f).read() for f in sys.argv[1:4])\nif "half" in inp:\n    sys.stderr.write("points 7.5 half\\n")\n    sys.exit(7)\nsys.exit(0 if out.split() == ans.split() else 1)\n',
    };
    const tests = [["a", "a", 10], ["half", "half", 20], ["b", "c", 70]].map(([stdin, expected, points]) => ({ stdin: bytes(String(stdin)), expected_output: bytes(String(expected)), points }));
    const { messages, error } = await execute({ language: "python", code: "import sys\nsys.stdout.write(sys.stdin.read())", tests, checker: halving });
    assert.equal(error, undefined);
    const result = completed(messages);
    assert.deepEqual(result.tests.map((t: WireMessage) => [t.result.verdict, t.result.score, t.result.max_score]), [["VERDICT_AC", 10, 10], ["VERDICT_WA", 7.5, 20], ["VERDICT_WA", 0, 70]]);
    assert.deepEqual([result.score, result.max_score], [17.5, 100]);
    const events = messages.filter((m) => m.event === "test").map((m) => m.test.result.result.score);
    assert.deepEqual(events, [10, 7.5, 0], "each TestFinished event carries its test's score");
    const unscored = completed((await execute({ ...py, checker })).messages);
    assert.deepEqual([unscored.score, unscored.max_score, unscored.tests[0].result.score], [undefined, undefined, undefined], "no points: no score");
  });

  test("a checker that exits 3 is WA checker_failed; the node stays ready and the next submission is AC", async () => {
    const failed = completed((await execute({ ...py, checker: exitingChecker(3, "FAIL broken answer\n") })).messages);
    assert.equal(failed.verdict, "VERDICT_WA");
    assert.equal(failed.evidence.verdict_cause, "checker_failed");
    assert.equal(failed.evidence.verdict_actor, "checker");
    assert.match(failed.error_message, /^the checker failed \(exit code 3\): FAIL broken answer/);
    const info = await nativeUnary(client, "NodeInfo", {});
    assert.equal(info.ready, true);
    const next = completed((await execute({ ...py, checker })).messages);
    assert.equal(next.verdict, "VERDICT_AC", next.error_message);
  });
});
