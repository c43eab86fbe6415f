// The output budget (docs/fleet-node.md, "Output budget"), without a sandbox: the budget a request
// gets, the allowance's arithmetic (a prefix per stream, the rest counted as dropped), the kept
// record (a copy of the prefix, text decoded from it, the marks of a cut), the heaviest possible
// Completed message of each record form against the gRPC-Web frame cap, and the send guard.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { ExecuteRequest, ExecuteResponse, GetResultResponse, type ExecutionResult } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { MAX_FRAME_BYTES } from "../../proto/grpc-web/codec.ts";
import { OUTPUT_BUDGET_MAX_BYTES } from "../../proto/limits.ts";
import { MAX_TESTS } from "../../proto/submission-rules.ts";
import type { ExecuteOutcome, TestOutcome } from "../../fleet/src/engine.ts";
import type { ExecutionRecord } from "../../fleet/src/sandbox/run-spec.ts";
import { ServiceError, Status } from "../../fleet/src/service/errors.ts";
import { createFleetService } from "../../fleet/src/service/fleet-service.ts";
import { FleetNode } from "../../fleet/src/service/fleet-node.ts";
import { fingerprint } from "../../fleet/src/service/fingerprint.ts";
import { keepOutput } from "../../fleet/src/service/kept-output.ts";
import { createLogger } from "../../fleet/src/service/logger.ts";
import { encodedSizeBound, MAX_MESSAGE_BYTES } from "../../fleet/src/service/message-size.ts";
import { OutputAllowance } from "../../fleet/src/service/output-allowance.ts";
import { OUTPUT_TRIMMED, outputBudgetBytes, TEXT_AND_BYTES_BUDGET_MAX_BYTES, TEXT_BUDGET_MAX_BYTES } from "../../fleet/src/service/output-budget.ts";
import { internalErrorOutcome } from "../../fleet/src/service/result-to-proto.ts";
import { Run } from "../../fleet/src/service/run-registry.ts";
import { SubmissionOutput } from "../../fleet/src/service/submission-output.ts";
import { createFakeEngine } from "../../shared-fixtures/fake-engine.ts";
import { heaviestRecord } from "./heaviest-record.ts";

const MiB = 1024 * 1024;
const times = { submissionId: "00000000-0000-4000-8000-000000000000", startedAt: new Date(0), completedAt: new Date(1) };
const request = (fields: Partial<ExecuteRequest> = {}) => ExecuteRequest.fromPartial({ submissionId: times.submissionId, language: "c", code: "x", ...fields });
const record = (partial: Partial<ExecutionRecord> = {}): ExecutionRecord => ({ ...internalErrorOutcome("c", 1).result, verdict: "AC", error_message: null, ...partial });
const bytes = (text: string) => new TextEncoder().encode(text);

describe("output budget: what a request gets", () => {
  test("0 is the node's cap; a larger ask is clamped; text forms have lower caps", () => {
    assert.equal(outputBudgetBytes(request({ rawOutputOnly: true })), OUTPUT_BUDGET_MAX_BYTES);
    assert.equal(outputBudgetBytes(request({ rawOutputOnly: true, outputBudgetBytes: 100 })), 100);
    assert.equal(outputBudgetBytes(request({ rawOutputOnly: true, outputBudgetBytes: 64 * MiB })), OUTPUT_BUDGET_MAX_BYTES);
    assert.equal(outputBudgetBytes(request()), TEXT_BUDGET_MAX_BYTES);
    assert.equal(outputBudgetBytes(request({ binaryOutput: true, outputBudgetBytes: 4 * MiB })), TEXT_AND_BYTES_BUDGET_MAX_BYTES);
    assert.equal(outputBudgetBytes(request({ binaryOutput: true, rawOutputOnly: true })), OUTPUT_BUDGET_MAX_BYTES, "raw only wins over binary");
  });
});

describe("output allowance: a prefix per stream, in arrival order", () => {
  test("chunks keep what fits; the chunk that crosses the budget is cut; later ones keep nothing", () => {
    const allowance = new OutputAllowance(10);
    assert.deepEqual([...allowance.take("stdout", bytes("abcd"), 0)], [...bytes("abcd")]);
    assert.deepEqual([...allowance.take("stderr", bytes("EFG"), 0)], [...bytes("EFG")]);
    assert.deepEqual([...allowance.take("stdout", bytes("hijkl"), 1)], [...bytes("hij")]);
    assert.equal(allowance.take("stderr", bytes("MN"), 1).byteLength, 0);
    assert.equal(allowance.take("stdout", bytes("op"), 0).byteLength, 0);
    assert.deepEqual(allowance.keptOf(0), { stdout: 4, stderr: 3 });
    assert.deepEqual(allowance.keptOf(1), { stdout: 3, stderr: 0 });
    assert.deepEqual(allowance.keptOf(7), { stdout: 0, stderr: 0 });
    assert.equal(allowance.dropped, true);
    assert.deepEqual(allowance.tally(), { budgetBytes: 10, stdoutKeptBytes: 7, stdoutDroppedBytes: 4, stderrKeptBytes: 3, stderrDroppedBytes: 2 });
  });

  test("within the budget nothing is dropped", () => {
    const allowance = new OutputAllowance(10);
    allowance.take("stdout", bytes("0123456789"), 0);
    assert.equal(allowance.dropped, false);
  });
});

describe("kept record: the prefix, copied, in the record's form", () => {
  const run = (stdout: Uint8Array, stderr: Uint8Array) => ({ name: "t", result: record({ stdout: "whole", stderr: "whole" }), stdoutBytes: stdout, stderrBytes: stderr });

  test("raw only: a copy of each kept prefix, no text; a cut stream marks the record", () => {
    const capture = bytes("hello world");
    const kept = keepOutput(run(capture, bytes("err")), { stdout: 5, stderr: 3 }, { rawOnly: true, binary: false });
    capture.fill(0x78);
    assert.equal(Buffer.from(kept.stdoutBytes).toString(), "hello", "a copy: the capture can go");
    assert.equal(kept.stdoutBytes.buffer.byteLength, 5, "in a buffer of its own, not a view of the capture");
    assert.equal(Buffer.from(kept.stderrBytes).toString(), "err");
    assert.equal(kept.result.stdout, "");
    assert.equal(kept.result.stderr, "");
    assert.equal(kept.result.output_integrity, "truncated_by_judge_limit");
    assert.deepEqual(kept.result.evidence.judge_actions, [OUTPUT_TRIMMED]);
    assert.equal(kept.name, "t");
  });

  test("text: the kept bytes decoded (a character cut in two decodes as U+FFFD), no bytes; whole streams are not marked", () => {
    const cut = keepOutput(run(bytes("a€b"), bytes("")), { stdout: 3, stderr: 0 }, { rawOnly: false, binary: false });
    assert.equal(cut.result.stdout, "a\uFFFD");
    assert.equal(cut.stdoutBytes.byteLength, 0);
    const whole = keepOutput(run(bytes("a€b"), bytes("e")), { stdout: 5, stderr: 1 }, { rawOnly: false, binary: true });
    assert.equal(whole.result.stdout, "a€b");
    assert.equal(Buffer.from(whole.stdoutBytes).toString(), "a€b");
    assert.equal(whole.result.output_integrity, "complete");
    assert.deepEqual(whole.result.evidence.judge_actions, []);
  });

  test("a record already cut by its capture cap stays so; crash_mid_write is kept", () => {
    const crashed = { ...run(bytes("abc"), bytes("")), result: record({ output_integrity: "crash_mid_write" }) };
    assert.equal(keepOutput(crashed, { stdout: 1, stderr: 0 }, { rawOnly: true, binary: false }).result.output_integrity, "crash_mid_write");
  });
});

/** Every test's captured output through a submission's output, as the engine would deliver it. */
function submit(fields: Partial<ExecuteRequest>, tests: TestOutcome[]): ExecutionResult {
  const output = new SubmissionOutput(request(fields), undefined);
  const kept = tests.map((test, index) => {
    for (let at = 0; at < test.stdoutBytes.byteLength; at += 64 * 1024) {
      output.write("stdout", test.stdoutBytes.subarray(at, at + 64 * 1024), index);
      output.write("stderr", test.stderrBytes.subarray(at, at + 64 * 1024), index);
    }
    const keptTest = output.keep(index, test);
    output.sent(index, keptTest);
    return keptTest;
  });
  // The first test decides: the one whose output was kept whole, which a text top level repeats.
  const deciding = kept[0]!;
  const outcome: ExecuteOutcome = {
    language: "c", compileCacheHit: true, result: deciding.result, stdoutBytes: deciding.stdoutBytes, stderrBytes: deciding.stderrBytes, tests: kept, decidingTest: 0,
  };
  return output.result(outcome, times);
}

const completedSize = (result: ExecutionResult) => ExecuteResponse.encode({ completed: { result } }).finish().length;

describe("the heaviest Completed message of each record form fits the frame cap", () => {
  const forms: [string, Partial<ExecuteRequest>][] = [["raw only", { rawOutputOnly: true }], ["text", {}], ["text and bytes", { binaryOutput: true }]];
  for (const [form, fields] of forms) {
    test(`${form}: ${MAX_TESTS} tests, each 1 MiB of invalid UTF-8 on both streams, the largest evidence`, (t) => {
      const tests = Array.from({ length: MAX_TESTS }, (_, i) => heaviestRecord(`t${i}`, i === 0 ? "RE" : "AC"));
      const result = submit({ ...fields, outputBudgetBytes: 64 * MiB }, tests);
      const tally = result.outputTally!;
      assert.equal(tally.stdoutKeptBytes + tally.stderrKeptBytes, outputBudgetBytes(request(fields)), "the whole budget kept");
      assert.equal(tally.stdoutKeptBytes + tally.stdoutDroppedBytes, MAX_TESTS * MiB);
      const completed = completedSize(result);
      const getResult = GetResultResponse.encode({ state: 4, result, startedAt: new Date() }).finish().length;
      t.diagnostic(`${form}: Completed ${(completed / MiB).toFixed(2)} MiB`);
      assert.ok(Math.max(completed, getResult) < 15 * MiB, `${form}: Completed is ${completed} bytes, GetResult ${getResult}`);
      assert.ok(encodedSizeBound({ completed: { result } }) >= completed, "the bound is an upper bound");
      assert.equal(result.outputOfTest, fields.rawOutputOnly ? 0 : undefined);
      assert.ok(result.evidence!.judgeActions.includes(OUTPUT_TRIMMED));
    });
  }

  test("the guard's cap is the frame cap", () => {
    assert.equal(MAX_MESSAGE_BYTES, MAX_FRAME_BYTES);
  });
});

describe("the send guard: no message over the frame cap leaves a node", () => {
  test("an oversize message is a clean INTERNAL status naming the size, not a broken stream", async () => {
    const node = new FleetNode(createFakeEngine(1), createLogger({ level: "silent", nodeId: "guard" }), {
      nodeId: "guard", version: "0", queueCapacity: 1, resultRetentionSecs: 60, maxRetainedResults: 10, maxRetainedResultBytes: 64 * MiB,
    });
    const service = createFleetService(node, () => {});
    const id = randomUUID();
    const execute = request({ submissionId: id });
    const run = new Run(id, "c", fingerprint(execute, "c"));
    node.registry.add(run);
    run.markStarted(new Date());
    // Only a bug could build this (the budget keeps real results far smaller): 17 MiB of stdout.
    const outcome = { language: "c", compileCacheHit: false, result: record() };
    run.complete({ ...new SubmissionOutput(execute, undefined).result(outcome, times), stdout: "x".repeat(17 * MiB) });
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
        for await (const event of service.execute(execute, context)) events.push(Object.keys(event).filter((k) => (event as Record<string, unknown>)[k])[0]!);
      })(),
      (error: unknown) => error instanceof ServiceError && error.code === Status.INTERNAL && /ExecuteResponse of \d+ bytes/.test(error.message),
    );
    assert.deepEqual(events, ["started"], "what fits is sent; the oversize message becomes the status");
  });
});
