// The judge fields over native gRPC on the real engine: validation of files, args, compiler
// options, tests and checks; test events in order before Completed; WA on the wire; binary stdin
// and stdout bytes; per-request limits; a retried Execute with tests; GetResult.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { status } from "@grpc/grpc-js";
import { SECCOMP_POLICY_VERSION } from "../../fleet/src/sandbox/policy.ts";
import { REQUIRED_CONTROLS } from "../../fleet/src/sandbox/sandbox.ts";
import {
  collect,
  nativeExecute,
  nativeUnary,
  usingRealEngine,
  type NativeClient,
  type TestNode,
  type WireMessage,
} from "./helpers.ts";
import { useNode } from "./use-node.ts";

const MiB = 1024 * 1024;
const bytes = (text: string) => Buffer.from(text);

describe("judge fields over native gRPC", { skip: !usingRealEngine && "needs the real engine" }, () => {
  let node: TestNode;
  let client: NativeClient;
  useNode({ slots: 2 }, (it) => ({ node, client } = it));

  const execute = (request: WireMessage) => collect(nativeExecute(client, { submission_id: randomUUID(), stdin: "", ...request }));
  const completed = (messages: WireMessage[]) => messages.at(-1)!.completed.result;

  test("bad judge fields are INVALID_ARGUMENT naming the field, and run nothing", async () => {
    const before = node.engine.executed.length;
    const c = { language: "c", code: "int main(void) { return 0; }" };
    const py = { language: "python", code: "print(1)" };
    const cases: [WireMessage, RegExp][] = [
      [{ ...c, compiler_options: ["-O2", "-march=native"] }, /compiler_options: "-march=native" not allowed for c/],
      [{ ...py, compiler_options: ["-O2"] }, /compiler_options: "-O2" not allowed for python/],
      [{ ...c, compiler_options: Array(33).fill("-O2") }, /compiler_options has 33 entries/],
      [{ ...c, files: [{ path: "../etc/passwd", content: bytes("x") }] }, /files: "..\/etc\/passwd" has a ".." segment/],
      [{ ...c, files: [{ path: "/abs", content: bytes("x") }] }, /files: "\/abs" is absolute/],
      [{ ...c, files: [{ path: "a.h", content: bytes("x") }, { path: "a.h", content: bytes("y") }] }, /files: "a.h" appears twice/],
      [{ ...c, files: [{ path: "main.c", content: bytes("x") }] }, /main source's own file name/],
      [{ ...c, files: [{ path: "main", content: bytes("x") }] }, /files: "main" is the name of the compiled program/],
      [{ ...c, files: [{ path: "main/x.h", content: bytes("x") }] }, /files: "main\/x\.h" would make "main", the name of the compiled program, a directory/],
      [{ ...c, files: [{ path: "a".repeat(256), content: bytes("x") }] }, /has a segment of 256 bytes; at most 255/],
      [{ ...c, files: [{ path: "util.h.gch", content: bytes("x") }] }, /files: "util\.h\.gch" is a precompiled header/],
      [{ ...py, files: [{ path: `lib/${"b".repeat(256)}`, content: bytes("x") }] }, /has a segment of 256 bytes; at most 255/],
      [{ language: "java", code: "public class Main { public static void main(String[] a) {} }", files: [{ path: "classes", content: bytes("x") }] }, /"classes" is a name the java compile itself uses/],
      [{ ...c, files: Array.from({ length: 33 }, (_, i) => ({ path: `f${i}`, content: bytes("x") })) }, /files has 33 entries/],
      [{ ...c, files: [{ path: "big", content: Buffer.alloc(MiB + 1) }] }, /files total 1048577 bytes/],
      [{ ...py, args: ["ok", "a\0b"] }, /args\[1\] contains a NUL/],
      [{ ...py, args: Array(65).fill("x") }, /args has 65 entries/],
      [{ ...py, tests: Array.from({ length: 101 }, () => ({ name: "", stdin: bytes("") })) }, /tests has 101 entries; at most 100/],
      [{ ...py, tests: [{ name: "a", stdin: bytes("") }], check: { compare: "lines", expected_output: bytes("1") } }, /check.expected_output is for a run without tests/],
      [{ ...py, check: { compare: "fuzzy" } }, /check.compare "fuzzy" is not one of exact, lines, tokens, float, identical, unordered, float_abs, float_rel, tokens_ci/],
      [{ ...py, check: { compare: "float", float_epsilon: 2 } }, /check.float_epsilon 2 is outside \(0, 1\]/],
      [{ ...py, check: { compare: "float", float_epsilon: -1e-6 } }, /float_epsilon .* outside/],
      [{ ...py, stdin_bytes: Buffer.alloc(256 * 1024 + 1) }, /stdin_bytes exceeds/],
    ];
    for (const [request, message] of cases) {
      const { messages, error } = await execute(request);
      assert.equal(error?.code, status.INVALID_ARGUMENT, JSON.stringify(request).slice(0, 100));
      assert.match(error!.details, message);
      assert.deepEqual(messages, []);
    }
    assert.equal(node.engine.executed.length, before, "nothing reached the engine");
  });

  test("NodeInfo names the isolation controls the node enforces, its seccomp policy and CPU mode", async () => {
    const info = await nativeUnary(client, "NodeInfo", {});
    assert.deepEqual(info.isolation_controls, REQUIRED_CONTROLS);
    assert.equal(info.seccomp_policy, SECCOMP_POLICY_VERSION);
    assert.match(info.cpu_mode, /^(dedicated|shared)$/);
  });

  test("tests: started, one TestFinished per test in order, then Completed with every test", async () => {
    const { messages, error } = await execute({
      language: "cpp",
      version: "",
      code: "#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }",
      tests: [
        { name: "one", stdin: bytes("1 2"), expected_output: bytes("3") },
        { name: "two", stdin: bytes("2 2"), expected_output: bytes("5") },
        { name: "three", stdin: bytes("5 5"), expected_output: bytes("10") },
      ],
      check: { compare: "tokens" },
    });
    assert.equal(error, undefined);
    assert.deepEqual(messages.map((m) => m.event), ["started", "test", "test", "test", "completed"]);
    const finished = messages.filter((m) => m.event === "test").map((m) => m.test);
    assert.deepEqual(finished.map((t) => [t.index, t.result.name, t.result.result.verdict]), [
      [0, "one", "VERDICT_AC"],
      [1, "two", "VERDICT_WA"],
      [2, "three", "VERDICT_AC"],
    ]);
    const result = completed(messages);
    assert.equal(result.verdict, "VERDICT_WA", "the first failing test decides");
    assert.equal(result.stdout, "4\n");
    assert.equal(result.evidence.verdict_cause, "output_mismatch");
    assert.equal(result.evidence.verdict_actor, "judge");
    assert.deepEqual({ ...result.evidence.mismatch, message: undefined }, { line: 1, column: 0, token: 1, expected: "5", actual: "4", message: undefined });
    assert.deepEqual(result.tests.map((t: WireMessage) => [t.name, t.result.verdict, t.result.stdout]), [
      ["one", "VERDICT_AC", "3\n"],
      ["two", "VERDICT_WA", "4\n"],
      ["three", "VERDICT_AC", "10\n"],
    ]);
    assert.deepEqual(result.tests.map((t: WireMessage) => t.result), finished.map((t) => t.result.result), "Completed carries what the events said");
  });

  // The rules added for Judges, each on a program's real output: one test the rule accepts, and
  // ones it refuses where an older rule would accept (the comment says which).
  const ECHO = "import sys\nsys.stdout.buffer.write(sys.stdin.buffer.read())";
  const THIRD = "print(float(input()) / 3)";
  const REVERSED = "import sys\nprint('\\n'.join(reversed(sys.stdin.read().split('\\n'))))";
  const judgedTests = async (code: string, compare: string, cases: [string | Buffer, string][], floatEpsilon?: number) => {
    const tests = cases.map(([stdin, expected], i) => ({ name: `t${i}`, stdin: typeof stdin === "string" ? bytes(stdin) : stdin, expected_output: bytes(expected) }));
    const { messages, error } = await execute({ language: "python", code, tests, check: { compare, ...(floatEpsilon ? { float_epsilon: floatEpsilon } : {}) } });
    assert.equal(error, undefined);
    return completed(messages).tests.map((t: WireMessage) => [t.result.verdict, t.result.evidence.mismatch?.line ?? null]);
  };
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

  test("compare identical: bytes exactly; a missing final newline or a byte-order mark (which exact forgives) is WA", async () => {
    const verdicts = await judgedTests(ECHO, "identical", [["42\n", "42\n"], ["42\n", "42"], [Buffer.concat([BOM, bytes("42\n")]), "42\n"]]);
    assert.deepEqual(verdicts, [["VERDICT_AC", null], ["VERDICT_WA", 1], ["VERDICT_WA", 1]]);
  });

  test("compare unordered: the lines in any order; a line not expected is WA naming its line", async () => {
    const verdicts = await judgedTests(REVERSED, "unordered", [["a\nb\nc", "a\nb\nc\n"], ["a\nb\nc", "a\nb\nd\n"]]);
    assert.deepEqual(verdicts, [["VERDICT_AC", null], ["VERDICT_WA", 1]], "the output's first line, c, is not expected");
  });

  test("compare float_abs: |a−e| ≤ ε only (float would take 333333.33 for 333333.3 relatively)", async () => {
    const verdicts = await judgedTests(THIRD, "float_abs", [["1", "0.3333"], ["1000000", "333333.3"]], 1e-4);
    assert.deepEqual(verdicts, [["VERDICT_AC", null], ["VERDICT_WA", 1]]);
  });

  test("compare float_rel: |a−e| ≤ ε·|e| only (float would take 0.0 for 0.00001 absolutely)", async () => {
    const verdicts = await judgedTests(THIRD, "float_rel", [["1000000", "333333.3"], ["0", "0.00001"]], 1e-4);
    assert.deepEqual(verdicts, [["VERDICT_AC", null], ["VERDICT_WA", 1]]);
  });

  test("compare tokens_ci: ASCII letters in either case; other letters as they are", async () => {
    const verdicts = await judgedTests(ECHO, "tokens_ci", [["YES\n  No", "yes no\n"], ["ÉtÉ", "été"]]);
    assert.deepEqual(verdicts, [["VERDICT_AC", null], ["VERDICT_WA", 1]]);
  });

  test("a compile error with tests: one RE, no test event, tests empty", async () => {
    const { messages } = await execute({ language: "c", code: "int main(void) { return nope; }", tests: [{ name: "a", stdin: bytes("") }] });
    assert.deepEqual(messages.map((m) => m.event), ["started", "completed"]);
    const result = completed(messages);
    assert.equal(result.verdict, "VERDICT_RE");
    assert.equal(result.evidence.verdict_cause, "compile_error");
    assert.deepEqual(result.tests, []);
    const binary = completed((await execute({ language: "c", code: "int main(void) { return nope; }", binary_output: true })).messages);
    assert.equal(Buffer.from(binary.stderr_bytes).toString(), binary.stderr, "the diagnostics are in stderr_bytes too");
    assert.match(binary.stderr, /nope/);
    const streamed = await execute({ language: "c", code: "int main(void) { return nope2; }", stream_output: true });
    assert.deepEqual(streamed.messages.map((m) => m.event), ["started", "output", "completed"], "the diagnostics are streamed as stderr");
    assert.equal(streamed.messages[1]!.output.stream, "OUTPUT_STREAM_STDERR");
    assert.equal(Buffer.from(streamed.messages[1]!.output.data).toString(), completed(streamed.messages).stderr);
  });

  test("stop_on_first_failure: the tests after the first failure are absent", async () => {
    const tests = ["1", "x", "3"].map((stdin, i) => ({ name: `t${i}`, stdin: bytes(stdin), expected_output: bytes(stdin) }));
    const code = "import sys\nprint(int(sys.stdin.read()))";
    const { messages } = await execute({ language: "python", code, tests, stop_on_first_failure: true, check: { compare: "lines" } });
    const result = completed(messages);
    assert.deepEqual(result.tests.map((t: WireMessage) => t.result.verdict), ["VERDICT_AC", "VERDICT_RE"]);
    assert.equal(result.verdict, "VERDICT_RE");
    assert.match(result.stderr, /ValueError/);
  });

  test("tests_wall_budget_ms: once the tests used it up, the rest are SKIPPED, each with its TestFinished; the record is TLE", async () => {
    const tests = Array.from({ length: 8 }, (_, i) => ({ name: `t${i}`, stdin: bytes(`${i}`), expected_output: bytes(`${i}`) }));
    const code = "import sys, time\ntime.sleep(0.2)\nsys.stdout.write(sys.stdin.read())";
    const { messages } = await execute({ language: "python", code, tests, tests_wall_budget_ms: 500, check: { compare: "lines" } });
    const result = completed(messages);
    const verdicts: string[] = result.tests.map((t: WireMessage) => t.result.verdict);
    const ran = verdicts.filter((v) => v === "VERDICT_AC").length;
    assert.ok(ran >= 1 && ran < 8, verdicts.join());
    assert.deepEqual(verdicts, [...Array(ran).fill("VERDICT_AC"), ...Array(8 - ran).fill("VERDICT_SKIPPED")]);
    assert.deepEqual(messages.filter((m) => m.event === "test").map((m) => m.test.index), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(result.tests[7].result.evidence.verdict_cause, "tests_wall_budget_exceeded");
    assert.equal(result.verdict, "VERDICT_TLE");
    assert.equal(result.error_message, `${8 - ran} of 8 tests were not run: the tests used up their wall-time budget of 0.5 s`);
  });

  test("all 256 byte values: stdin_bytes in, stdout_bytes out (binary_output); without it no bytes field", async () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const code = "import sys\nsys.stdout.buffer.write(sys.stdin.buffer.read())\nsys.stderr.buffer.write(b'\\xff')";
    const binary = completed((await execute({ language: "python", code, stdin_bytes: all, binary_output: true })).messages);
    assert.equal(binary.verdict, "VERDICT_AC");
    assert.deepEqual(Buffer.from(binary.stdout_bytes), all);
    assert.deepEqual(Buffer.from(binary.stderr_bytes), Buffer.from([0xff]));
    const text = completed((await execute({ language: "python", code, stdin_bytes: all })).messages);
    assert.equal(text._stdout_bytes, undefined);
    assert.equal(text.stdout, all.toString("utf8"));
  });

  test("a per-request memory limit of 64 MiB makes a 100 MiB allocation MLE; the node's default allows it", async () => {
    const code =
      "#include <stdlib.h>\n#include <stdio.h>\nint main(void) { volatile char *p = malloc(100 << 20); long s = 0; for (long i = 0; i < (100 << 20); i += 4096) p[i] = 1; for (long i = 0; i < (100 << 20); i += 4096) s += p[i]; printf(\"%ld\\n\", s); }";
    const narrowed = completed((await execute({ language: "c", code, limits: { memory_bytes: 64 * MiB } })).messages);
    assert.equal(narrowed.verdict, "VERDICT_MLE");
    assert.equal(narrowed.evidence.cgroup.memory_limit_bytes, 64 * MiB);
    const asked = completed((await execute({ language: "c", code, limits: { memory_bytes: 64 * 1024 * MiB } })).messages);
    assert.equal(asked.verdict, "VERDICT_AC", "a limit above the node's default is held to the default, never widened");
    assert.equal(asked.evidence.cgroup.memory_limit_bytes, 256 * MiB);
  });

  test("files, args and compiler options reach a C program; Java's public class HelloWorld runs", async () => {
    const c = completed(
      (
        await execute({
          language: "c",
          code: '#include <stdio.h>\n#include "util.h"\nint main(int argc, char **argv) { printf("%d %s %s\\n", twice(SEED), argv[1], argv[2]); }',
          files: [{ path: "util.h", content: bytes("static int twice(int x) { return 2 * x; }\n") }],
          args: ["first", "second arg"],
          compiler_options: ["-DSEED=21", "-Wall"],
        })
      ).messages,
    );
    assert.equal(c.verdict, "VERDICT_AC", c.stderr);
    assert.equal(c.stdout, "42 first second arg\n");
    const java = completed((await execute({ language: "java", code: 'public class HelloWorld { public static void main(String[] a) { System.out.println("hi " + a[0]); } }', args: ["there"] })).messages);
    assert.equal(java.stdout, "hi there\n", java.stderr);
  });

  test("the same id: the same request attaches and replays its tests; a different one is ALREADY_EXISTS; GetResult has the tests", async () => {
    const id = randomUUID();
    const request = { submission_id: id, language: "python", code: "print(input())", tests: [{ name: "a", stdin: bytes("1"), expected_output: bytes("1") }], check: { compare: "lines" } };
    const first = await collect(nativeExecute(client, request));
    const again = await collect(nativeExecute(client, request));
    assert.deepEqual(again.messages.map((m) => m.event), ["started", "test", "completed"]);
    assert.deepEqual(completed(again.messages), completed(first.messages));
    const runs = node.engine.executed.filter((entry) => entry.code === request.code && entry.tests?.length === 1).length;
    assert.equal(runs, 1, "ran once");
    for (const changed of [
      { ...request, tests: [{ name: "a", stdin: bytes("2"), expected_output: bytes("1") }] },
      { ...request, check: { compare: "exact" } },
      { ...request, args: ["x"] },
      { ...request, stop_on_first_failure: true },
    ]) {
      const { error } = await collect(nativeExecute(client, changed));
      assert.equal(error?.code, status.ALREADY_EXISTS, JSON.stringify(changed).slice(0, 120));
    }
    const response = await nativeUnary(client, "GetResult", { submission_id: id });
    assert.equal(response.state, "RUN_STATE_COMPLETED");
    assert.deepEqual(response.result.tests.map((t: WireMessage) => t.name), ["a"]);
  });

  // Output events come from the sandbox's output tap (RunSpec.onOutput, the sandbox work of issue
  // 14): until it merges no Output event is sent and this stays a todo.
  test("stream_output: Output events of a test come before its TestFinished; their bytes are its output", async () => {
    const { messages } = await execute({
      language: "python",
      code: "import sys\nprint('a', sys.stdin.read())\nprint('b')",
      tests: [{ name: "x", stdin: bytes("1") }, { name: "y", stdin: bytes("2") }],
      stream_output: true,
    });
    // Writes may arrive in one read or several: the order of kinds is checked, bursts merged.
    const kinds = messages.map((m) => (m.event === "output" ? `output${m.output.test_index}` : m.event)).filter((kind, i, all) => kind !== all[i - 1]);
    assert.deepEqual(kinds, ["started", "output0", "test", "output1", "test", "completed"]);
    for (const index of [0, 1]) {
      const data = messages.filter((m) => m.event === "output" && m.output.test_index === index).map((m) => Buffer.from(m.output.data).toString()).join("");
      assert.equal(data, completed(messages).tests[index].result.stdout);
    }
  });
});
