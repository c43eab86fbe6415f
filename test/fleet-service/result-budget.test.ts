// The result budget (docs/fleet-node.md, "Result budget"): what a record carries of the programs'
// output is bounded per submission, so the largest Completed / GetResult / TestFinished message
// stays well under the gRPC-Web frame cap; judging still sees every test's whole capture. Pure
// tests of the arithmetic and the trimming, the send guard, then a real run of 50 tests that each
// print 1 MiB to stdout and 1 MiB to stderr, read with the edge's own gRPC-Web client.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { after, before } from "../hooks.ts";
import {
  ExecuteRequest,
  ExecuteResponse,
  GetResultResponse,
  RunState,
  Verdict,
  type ExecutionResult,
} from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { MAX_FRAME_BYTES } from "../../proto/grpc-web/codec.ts";
import { fleetMethods, serverStream, unary } from "../../proto/grpc-web/client.ts";
import { MAX_TESTS } from "../../proto/submission-rules.ts";
import type { ExecuteOutcome, TestOutcome } from "../../fleet/src/engine.ts";
import type { ExecutionRecord } from "../../fleet/src/sandbox/run-spec.ts";
import { createFleetService } from "../../fleet/src/service/fleet-service.ts";
import { FleetNode } from "../../fleet/src/service/fleet-node.ts";
import { fingerprint } from "../../fleet/src/service/fingerprint.ts";
import { createLogger } from "../../fleet/src/service/logger.ts";
import { encodedSizeBound, MAX_MESSAGE_BYTES } from "../../fleet/src/service/message-size.ts";
import { resultToProto, testToProto } from "../../fleet/src/service/result-to-proto.ts";
import {
  DECIDING_OUTPUT_RESERVE,
  OUTPUT_TRIMMED,
  OutputBudget,
  RESULT_OUTPUT_BUDGET,
} from "../../fleet/src/service/result-budget.ts";
import { Run } from "../../fleet/src/service/run-registry.ts";
import { ServiceError, Status } from "../../fleet/src/service/errors.ts";
import { createFakeEngine } from "./fake-engine.ts";
import { startTestNode, TOKEN, usingRealEngine, type TestNode } from "./helpers.ts";

const MiB = 1024 * 1024;
const times = { submissionId: "00000000-0000-4000-8000-000000000000", startedAt: new Date(0), completedAt: new Date(1) };

/** A run's record with the largest evidence the node writes (every control named, errors, a mismatch). */
function record(partial: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const long = (what: string) => `${what} `.repeat(40);
  return {
    verdict: "AC",
    exit_code: 0,
    signal: null,
    stdout: "",
    stderr: "",
    output_integrity: "complete",
    error_message: long("an error message"),
    cpu_time_secs: 1.5,
    wall_time_secs: 2.5,
    memory_peak_bytes: 256 * MiB,
    evidence: {
      verdict_cause: "output_mismatch",
      verdict_actor: "judge",
      isolation_mode: "strict",
      controls_applied: Array.from({ length: 48 }, (_, i) => `control_number_${i}_with_a_long_name`),
      controls_missing: Array.from({ length: 8 }, (_, i) => `missing_control_${i}`),
      cgroup: {
        memory_limit_bytes: 256 * MiB, memory_peak_bytes: 256 * MiB, oom_events: 1e6, oom_kill_events: 1e6,
        cpu_usage_usec: 1e12, process_count: 64, process_limit: 64,
      },
      timing: { cpu_ms: 1e6, cpu_time_ms: 1e6, wall_ms: 1e6, cpu_wall_ratio: 1.25, divergence: "cpu_bound" },
      process_lifecycle: { reap_status: "clean", descendant_containment: "ok", zombie_count: 3 },
      judge_actions: ["sigkill_on_wall_timeout", "sigkill_cgroup_remnants", "sigkill_leftover_processes"],
      collection_errors: Array.from({ length: 8 }, (_, i) => long(`collection error ${i}`)),
      limits: { wall_time_ms: 10_000, cpu_time_ms: 10_000, memory_bytes: 256 * MiB, processes: 64, output_bytes: MiB },
      mismatch: { line: 1e6, column: 1e6, token: 1e6, expected: "\u{1F600}".repeat(40), actual: "\u{1F600}".repeat(40), message: long("differs") },
    },
    ...partial,
  };
}

/**
 * The most output one run can put in a record: per stream, the capture cap (1 MiB) as raw bytes
 * and text at the sandbox's encoded-size cap (2 MiB; here as 3-byte characters, as invalid UTF-8 decodes).
 */
function heaviestRun(name: string, verdict: ExecutionRecord["verdict"] = "AC"): TestOutcome {
  const text = "\uFFFD".repeat(Math.floor((2 * MiB) / 3));
  return { name: "n".repeat(256).slice(0, 256 - name.length) + name, result: record({ verdict, stdout: text, stderr: text }), stdoutBytes: new Uint8Array(MiB).fill(0xff), stderrBytes: new Uint8Array(MiB).fill(0xfe) };
}

function outputBytes(result: ExecutionResult): number {
  const own = [result.stdout, result.stderr].reduce((sum, text) => sum + Buffer.byteLength(text), 0) + (result.stdoutBytes?.length ?? 0) + (result.stderrBytes?.length ?? 0);
  return own + result.tests.reduce((sum, test) => sum + (test.result ? outputBytes(test.result) : 0), 0);
}

const completedSize = (result: ExecutionResult) => ExecuteResponse.encode({ completed: { result } }).finish().length;

describe("result budget: arithmetic and trimming (pure)", () => {
  test("the budget's constants leave a wide margin under the frame cap", () => {
    assert.equal(RESULT_OUTPUT_BUDGET, 8 * MiB);
    assert.equal(DECIDING_OUTPUT_RESERVE, 2 * MiB);
    assert.equal(MAX_MESSAGE_BYTES, MAX_FRAME_BYTES);
    assert.ok(RESULT_OUTPUT_BUDGET <= MAX_FRAME_BYTES / 2);
  });

  test("the heaviest possible Completed, GetResult and TestFinished fit the frame cap with margin", () => {
    for (const binaryOutput of [false, true]) {
      const tests = Array.from({ length: MAX_TESTS }, (_, i) => heaviestRun(`t${i}`, i === MAX_TESTS - 1 ? "RE" : "AC"));
      const deciding = tests.at(-1)!;
      const outcome: ExecuteOutcome = {
        language: "python", version: "3.11.2", compileCacheHit: true, result: deciding.result,
        stdoutBytes: deciding.stdoutBytes, stderrBytes: deciding.stderrBytes, tests,
      };
      const result = resultToProto(outcome, { ...times, binaryOutput });
      assert.ok(outputBytes(result) <= RESULT_OUTPUT_BUDGET, `output ${outputBytes(result)} within the budget (binary ${binaryOutput})`);
      const completed = completedSize(result);
      const getResult = GetResultResponse.encode({ state: RunState.RUN_STATE_COMPLETED, result, startedAt: new Date() }).finish().length;
      const budget = new OutputBudget();
      const finished = ExecuteResponse.encode({ test: { index: 0, result: testToProto(heaviestRun("t0"), binaryOutput, budget) } }).finish().length;
      // What is not output (names, evidence, numbers) stays under 1 MiB for 101 records.
      assert.ok(completed - outputBytes(result) < MiB, `overhead ${completed - outputBytes(result)}`);
      for (const [what, size] of [["Completed", completed], ["GetResult", getResult], ["TestFinished", finished]] as const) {
        assert.ok(size < 0.6 * MAX_FRAME_BYTES, `${what} is ${size} bytes (binary ${binaryOutput})`);
        assert.ok(encodedSizeBound(what === "GetResult" ? { state: 4, result, startedAt: new Date() } : what === "Completed" ? { completed: { result } } : { test: { index: 0, result: testToProto(heaviestRun("t0"), binaryOutput, new OutputBudget()) } }) >= size, `the bound of ${what} is an upper bound`);
      }
      // The deciding run is the top level's, within the reserve at least (each stream's text stops
      // short of a 3-byte character that would not fit: at most 2 bytes each).
      assert.equal(result.verdict, Verdict.VERDICT_RE);
      assert.ok(outputBytes({ ...result, tests: [] }) >= DECIDING_OUTPUT_RESERVE - 4);
      assert.ok(result.evidence!.judgeActions.includes(OUTPUT_TRIMMED));
    }
  });

  test("tests share the budget less the reserve in order; the top level gets the reserve and what is left; cut records say so", () => {
    const ascii = (char: string, bytes: number) => char.repeat(bytes);
    const run = (i: number): TestOutcome => {
      const stdout = ascii("o", MiB);
      const stderr = ascii("e", MiB);
      return { name: `t${i}`, result: record({ verdict: i === 4 ? "WA" : "AC", stdout, stderr, evidence: { ...record().evidence, judge_actions: [] } }), stdoutBytes: Buffer.from(stdout), stderrBytes: Buffer.from(stderr) };
    };
    const tests = Array.from({ length: 6 }, (_, i) => run(i));
    const live = new OutputBudget();
    const events = tests.map((test) => testToProto(test, false, live));
    const result = resultToProto({ language: "c", compileCacheHit: false, result: tests[4]!.result, stdoutBytes: tests[4]!.stdoutBytes, stderrBytes: tests[4]!.stderrBytes, tests }, times);
    assert.deepEqual(result.tests, events, "TestFinished events carry what Completed carries");
    const carried = result.tests.map((test) => [test.result!.stdout.length, test.result!.stderr.length, test.result!.evidence!.judgeActions.includes(OUTPUT_TRIMMED)]);
    // 6 MiB for the tests: three whole (2 MiB each), the rest empty and marked.
    assert.deepEqual(carried, [[MiB, MiB, false], [MiB, MiB, false], [MiB, MiB, false], [0, 0, true], [0, 0, true], [0, 0, true]]);
    assert.deepEqual(result.tests.map((test) => test.result!.verdict), [1, 1, 1, 1, 9, 1].map((v) => v as Verdict), "verdicts untouched");
    assert.equal(result.tests[4]!.result!.evidence!.mismatch?.line, 1e6, "evidence untouched but for the mark");
    // The top level: test 4 (the deciding one), whole within the reserve, marked because tests were cut.
    assert.equal(result.stdout.length, MiB);
    assert.equal(result.stderr.length, MiB);
    assert.ok(result.evidence!.judgeActions.includes(OUTPUT_TRIMMED));
    assert.equal(outputBytes(result), RESULT_OUTPUT_BUDGET);
    assert.deepEqual(tests[4]!.result.evidence.judge_actions, [], "the engine's record is not changed");
  });

  test("a record cut in the middle: each stream keeps a prefix of whole characters; raw bytes go before text", () => {
    const budget = new OutputBudget(10, 0);
    const text = "ab€€€"; // 2 + 3 × 3 bytes
    const cut = budget.test({ ...resultToProto({ language: "c", compileCacheHit: false, result: record({ stdout: text, stderr: "xyz" }) }, times), tests: [] });
    // 10 bytes for two streams: stderr needs 3 (under half), stdout gets 7: "ab€" (5 bytes) fits, the next € does not.
    assert.equal(cut.stdout, "ab€");
    assert.equal(cut.stderr, "xyz");
    assert.ok(cut.evidence!.judgeActions.includes(OUTPUT_TRIMMED));
    const binary = new OutputBudget(6, 0).test({
      ...resultToProto({ language: "c", compileCacheHit: false, result: record({ stdout: "hello", stderr: "" }), stdoutBytes: Buffer.from("hello"), stderrBytes: new Uint8Array() }, { ...times, binaryOutput: true }),
      tests: [],
    });
    assert.deepEqual(Buffer.from(binary.stdoutBytes!).toString(), "hello", "the raw bytes (what a base64 record shows) first");
    assert.equal(binary.stdout, "h");
  });

  test("under the budget nothing changes and nothing is marked", () => {
    const tests = [0, 1].map((i) => ({ name: `t${i}`, result: record({ stdout: "4\n", evidence: { ...record().evidence, judge_actions: [] } }), stdoutBytes: Buffer.from("4\n"), stderrBytes: new Uint8Array() }));
    const result = resultToProto({ language: "c", compileCacheHit: false, result: tests[1]!.result, tests, stdoutBytes: tests[1]!.stdoutBytes, stderrBytes: tests[1]!.stderrBytes }, { ...times, binaryOutput: true });
    assert.equal(result.stdout, "4\n");
    assert.deepEqual(result.evidence!.judgeActions, []);
    assert.deepEqual(result.tests.map((t) => [t.result!.stdout, Buffer.from(t.result!.stdoutBytes!).toString(), t.result!.evidence!.judgeActions]), [["4\n", "4\n", []], ["4\n", "4\n", []]]);
  });

  test("encodedSizeBound is an upper bound of the encoding, and close to it for output-heavy messages", () => {
    const result = resultToProto({ language: "c", compileCacheHit: false, result: record({ stdout: "x".repeat(MiB), exit_code: -1 }) }, times);
    const exact = ExecutionResult_encode(result);
    const bound = encodedSizeBound(result);
    assert.ok(bound >= exact && bound < exact * 1.01 + 4096, `${bound} vs ${exact}`);
    assert.ok(encodedSizeBound({ completed: { result } }) >= completedSize(result));
  });
});

const ExecutionResult_encode = (result: ExecutionResult) => GetResultResponse.encode({ state: 0, result, startedAt: undefined }).finish().length - 5;

describe("the send guard: no message over the frame cap leaves a node", () => {
  test("an oversize message is a clean INTERNAL status naming the size, not a broken stream", async () => {
    const node = new FleetNode(createFakeEngine(1), createLogger({ level: "silent", nodeId: "guard" }), {
      nodeId: "guard", version: "0", queueCapacity: 1, resultRetentionSecs: 60, maxRetainedResults: 10, maxRetainedResultBytes: 64 * MiB,
    });
    const service = createFleetService(node, () => {});
    const id = randomUUID();
    const request = ExecuteRequest.fromPartial({ submissionId: id, language: "c", code: "x" });
    const run = new Run(id, "c", fingerprint(request, "c"));
    node.registry.add(run);
    run.markStarted(new Date());
    // Only a bug could build this (the budget keeps real results far smaller): 17 MiB of stdout.
    run.complete({ ...resultToProto({ language: "c", compileCacheHit: false, result: record() }, times), stdout: "x".repeat(17 * MiB) });
    const context = { signal: new AbortController().signal, metadata: new Map<string, string>(), transport: "grpc-web" as const, peer: "test" };
    await assert.rejects(service.getResult({ submissionId: id }, context), (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      assert.equal(error.code, Status.INTERNAL);
      assert.match(error.message, /GetResultResponse of \d+ bytes exceeds the \d+-byte frame cap/);
      return true;
    });
    const events: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const event of service.execute(request, context)) events.push(Object.keys(event).filter((k) => (event as Record<string, unknown>)[k])[0]!);
      })(),
      (error: unknown) => error instanceof ServiceError && error.code === Status.INTERNAL && /ExecuteResponse of \d+ bytes/.test(error.message),
    );
    assert.deepEqual(events, ["started"], "what fits is sent; the oversize message becomes the status");
  });
});

describe("50 tests × (1 MiB stdout + 1 MiB stderr) over gRPC-Web", { skip: !usingRealEngine && "needs the real engine" }, () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ slots: 1 });
  });
  after(() => node.close());

  // Test n (stdin "n") prints 1 MiB of 'o' to stdout and of 'e' to stderr (each ends in a newline);
  // test 13 exits 1 (RE: the deciding test).
  const code = [
    "#include <stdio.h>",
    "#include <string.h>",
    "static char buf[1 << 20];",
    "int main(void) {",
    "  int n = 0;",
    "  if (scanf(\"%d\", &n) != 1) return 2;",
    "  memset(buf, 'o', sizeof buf); buf[sizeof buf - 1] = '\\n'; fwrite(buf, 1, sizeof buf, stdout);",
    "  memset(buf, 'e', sizeof buf); buf[sizeof buf - 1] = '\\n'; fwrite(buf, 1, sizeof buf, stderr);",
    "  return n == 13;",
    "}",
  ].join("\n");
  const stdout = Buffer.alloc(MiB, "o");
  stdout[MiB - 1] = 0x0a;
  const wrong = Buffer.from(stdout);
  wrong[MiB - 2] = 0x78; // 'x': differs in the last line's last character

  test("completes, the Completed message is delivered and decodes, verdicts come from the whole capture, the record says what it cut", async () => {
    const id = randomUUID();
    const tests = Array.from({ length: MAX_TESTS }, (_, i) => ({
      name: `t${i + 1}`,
      stdin: Buffer.from(String(i + 1)),
      // Past the budget, so the record carries none of their output: judged on the whole capture.
      ...(i === 40 ? { expectedOutput: stdout } : i === 45 ? { expectedOutput: wrong } : {}),
    }));
    const target = { url: node.webUrl, token: TOKEN };
    const events = [];
    for await (const event of serverStream(target, fleetMethods.execute, { submissionId: id, language: "c", code, stdin: "", tests, detachOnDisconnect: true })) {
      events.push(event);
    }
    assert.equal(events.filter((e) => e.test).length, MAX_TESTS);
    const result = events.at(-1)!.completed!.result!;
    const verdicts = result.tests.map((t) => t.result!.verdict);
    const expected = Array.from({ length: MAX_TESTS }, (_, i) => (i === 12 ? Verdict.VERDICT_RE : i === 45 ? Verdict.VERDICT_WA : Verdict.VERDICT_AC));
    assert.deepEqual(verdicts, expected);
    assert.equal(result.tests[45]!.result!.evidence!.mismatch?.line, 1);
    assert.equal(result.verdict, Verdict.VERDICT_RE, "the first failing test decides");
    // The deciding test's output whole at the top level; the first three tests whole; the rest cut and marked.
    assert.equal(result.stdout, stdout.toString());
    assert.equal(result.stderr.length, MiB);
    assert.ok(result.evidence!.judgeActions.includes(OUTPUT_TRIMMED));
    for (const [i, test] of result.tests.entries()) {
      const trimmed = test.result!.evidence!.judgeActions.includes(OUTPUT_TRIMMED);
      assert.equal(trimmed, i >= 3, `test ${i}`);
      assert.equal(test.result!.stdout.length, i < 3 ? MiB : 0, `test ${i}`);
      assert.equal(test.result!.outputIntegrity, 1, "the capture itself was complete");
    }
    assert.ok(outputBytes(result) <= RESULT_OUTPUT_BUDGET);
    assert.ok(completedSize(result) < 0.6 * MAX_FRAME_BYTES);
    assert.deepEqual(events.filter((e) => e.test).map((e) => e.test!.result!.result), result.tests.map((t) => t.result), "TestFinished carried the same");
    const kept = await unary(target, fleetMethods.getResult, { submissionId: id }, 10_000);
    assert.equal(kept.state, RunState.RUN_STATE_COMPLETED);
    assert.deepEqual(kept.result, result, "GetResult delivers the same record");
    assert.match(await node.server.node.metrics.registry.metrics(), /^codecell_fleet_results_trimmed_total 1$/m);
  });
});
