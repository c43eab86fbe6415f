// The output budget on a real node (real sandbox, real sockets, the edge's own gRPC-Web client):
// tests that print more than the budget. The Output events of each test and stream, put together,
// are the record's bytes; the tally is exact; the kept total is the budget; cut streams say so;
// judging still saw each run's whole capture. Then the text form, a single run and a compile error.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { after, before } from "../hooks.ts";
import { OutputIntegrity, OutputStream, RunState, Verdict, type ExecuteRequest, type ExecuteResponse, type ExecutionResult } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, serverStream, unary } from "../../proto/grpc-web/client.ts";
import type { DeepPartial } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { OUTPUT_TRIMMED } from "../../fleet/src/service/output-budget.ts";
import { startTestNode, TOKEN, usingRealEngine, type TestNode } from "./helpers.ts";

const MiB = 1024 * 1024;
const KiB = 1024;
const BUDGET = 1.5 * MiB;

// Test n (stdin "n") prints 1 MiB of the letter 'a' + n to stdout and 256 KiB of 'e' to stderr, each ending in a newline.
const code = [
  "#include <stdio.h>",
  "#include <string.h>",
  "static char buf[1 << 20];",
  "int main(void) {",
  "  int n = 0;",
  "  if (scanf(\"%d\", &n) != 1) return 2;",
  "  memset(buf, 'a' + n, sizeof buf); buf[sizeof buf - 1] = '\\n'; fwrite(buf, 1, sizeof buf, stdout);",
  "  memset(buf, 'e', 256 << 10); buf[(256 << 10) - 1] = '\\n'; fwrite(buf, 1, 256 << 10, stderr);",
  "  return 0;",
  "}",
].join("\n");
const printed = (n: number) => {
  const out = Buffer.alloc(MiB, 97 + n);
  out[MiB - 1] = 0x0a;
  const err = Buffer.alloc(256 * KiB, "e");
  err[256 * KiB - 1] = 0x0a;
  return { stdout: out, stderr: err };
};
const wrong = Buffer.from(printed(0).stdout);
wrong[MiB - 2] = 0x78;
// t0 is WA (it decides) and kept whole; t2 and t3 are AC on their whole output though their records keep little or none of it.
const tests = [0, 1, 2, 3].map((n) => ({ name: `t${n}`, stdin: Buffer.from(String(n)), ...(n === 0 ? { expectedOutput: wrong } : n >= 2 ? { expectedOutput: printed(n).stdout } : {}) }));

type Events = ExecuteResponse[];
const STREAMS = [["stdout", OutputStream.OUTPUT_STREAM_STDOUT], ["stderr", OutputStream.OUTPUT_STREAM_STDERR]] as const;

/** What the Output events of one test and stream carried, in order. */
const streamed = (events: Events, test: number, stream: OutputStream) =>
  Buffer.concat(events.filter((e) => e.output?.testIndex === test && e.output.stream === stream).map((e) => e.output!.data));

const keptBytes = (result: ExecutionResult) => (result.stdoutBytes?.byteLength ?? 0) + (result.stderrBytes?.byteLength ?? 0);

describe("output budget on a real node", { skip: !usingRealEngine && "needs the real engine" }, () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ slots: 1 });
  });
  after(() => node.close());

  const execute = async (request: DeepPartial<ExecuteRequest>) => {
    const events: Events = [];
    const target = { url: node.webUrl, token: TOKEN };
    for await (const event of serverStream(target, fleetMethods.execute, { submissionId: randomUUID(), language: "c", streamOutput: true, ...request })) events.push(event);
    const result = events.at(-1)!.completed!.result!;
    return { events, result, target };
  };

  test("raw only: events = records per test and stream, exact tally, the budget kept, cuts marked, judged on the whole capture", async () => {
    const { events, result, target } = await execute({ code, tests, rawOutputOnly: true, outputBudgetBytes: BUDGET });
    assert.deepEqual(result.tests.map((t) => t.result!.verdict), [Verdict.VERDICT_WA, Verdict.VERDICT_AC, Verdict.VERDICT_AC, Verdict.VERDICT_AC]);
    for (const [i, { result: record }] of result.tests.entries()) {
      for (const [name, stream] of STREAMS) {
        const kept = Buffer.from(name === "stdout" ? record!.stdoutBytes! : record!.stderrBytes!);
        assert.deepEqual(streamed(events, i, stream), kept, `test ${i} ${name}: the events are the record`);
        assert.ok(printed(i)[name].subarray(0, kept.byteLength).equals(kept), `test ${i} ${name}: a prefix of what it printed`);
      }
      assert.equal(record!.stdout, "");
      assert.equal(record!.stderr, "");
      const cut = keptBytes(record!) < printed(i).stdout.byteLength + printed(i).stderr.byteLength;
      assert.equal(record!.outputIntegrity, cut ? OutputIntegrity.OUTPUT_INTEGRITY_TRUNCATED_BY_JUDGE_LIMIT : OutputIntegrity.OUTPUT_INTEGRITY_COMPLETE, `test ${i}`);
      assert.equal(record!.evidence!.judgeActions.includes(OUTPUT_TRIMMED), cut, `test ${i}`);
    }
    assert.equal(keptBytes(result.tests[0]!.result!), 1.25 * MiB, "the first test whole");
    assert.equal(keptBytes(result.tests[3]!.result!), 0, "the last test past the budget");
    const tally = result.outputTally!;
    assert.equal(tally.budgetBytes, BUDGET);
    assert.equal(tally.stdoutKeptBytes, result.tests.reduce((sum, t) => sum + t.result!.stdoutBytes!.byteLength, 0));
    assert.equal(tally.stderrKeptBytes, result.tests.reduce((sum, t) => sum + t.result!.stderrBytes!.byteLength, 0));
    assert.equal(tally.stdoutKeptBytes + tally.stdoutDroppedBytes, 4 * MiB);
    assert.equal(tally.stderrKeptBytes + tally.stderrDroppedBytes, 4 * 256 * KiB);
    assert.equal(tally.stdoutKeptBytes + tally.stderrKeptBytes, BUDGET, "the whole budget, no more");
    // The top level: the deciding test's output, not repeated.
    assert.equal(result.verdict, Verdict.VERDICT_WA);
    assert.equal(result.outputOfTest, 0);
    assert.equal(result.stdout, "");
    assert.equal(keptBytes(result), 0);
    assert.ok(result.evidence!.judgeActions.includes(OUTPUT_TRIMMED));
    assert.deepEqual(events.filter((e) => e.test).map((e) => e.test!.result), result.tests, "TestFinished carried the same");
    const kept = await unary(target, fleetMethods.getResult, { submissionId: result.submissionId }, 10_000);
    assert.equal(kept.state, RunState.RUN_STATE_COMPLETED);
    assert.deepEqual(kept.result, result, "GetResult delivers the same record");
  });

  test("text: each record's text is its events decoded; the top level carries the deciding test's", async () => {
    const { events, result } = await execute({ code, tests, outputBudgetBytes: BUDGET });
    for (const [i, { result: record }] of result.tests.entries()) {
      assert.equal(record!.stdout, streamed(events, i, OutputStream.OUTPUT_STREAM_STDOUT).toString("utf8"), `test ${i}`);
      assert.equal(record!.stderr, streamed(events, i, OutputStream.OUTPUT_STREAM_STDERR).toString("utf8"), `test ${i}`);
      assert.equal(record!.stdoutBytes, undefined);
    }
    assert.equal(result.outputOfTest, undefined);
    assert.equal(result.stdout, printed(0).stdout.toString("utf8"));
    assert.equal(result.outputTally!.stdoutKeptBytes + result.outputTally!.stderrKeptBytes, BUDGET);
  });

  test("a single run past the budget keeps its first bytes; a compile error's diagnostics go through the budget too", async () => {
    const single = await execute({ code: "#include <stdio.h>\nint main(void) { for (int i = 0; i < 5000; i++) putchar('x'); return 0; }", rawOutputOnly: true, outputBudgetBytes: 1000 });
    assert.deepEqual(Buffer.from(single.result.stdoutBytes!), Buffer.alloc(1000, "x"));
    assert.deepEqual(streamed(single.events, 0, OutputStream.OUTPUT_STREAM_STDOUT), Buffer.alloc(1000, "x"));
    assert.equal(single.result.outputTally!.stdoutDroppedBytes, 4000);
    assert.equal(single.result.outputIntegrity, OutputIntegrity.OUTPUT_INTEGRITY_TRUNCATED_BY_JUDGE_LIMIT);
    const broken = await execute({ code: "int main(void) { return undeclared; }", outputBudgetBytes: 16 });
    assert.equal(broken.result.verdict, Verdict.VERDICT_RE);
    assert.equal(streamed(broken.events, 0, OutputStream.OUTPUT_STREAM_STDERR).byteLength, 16);
    assert.equal(broken.result.stderr, streamed(broken.events, 0, OutputStream.OUTPUT_STREAM_STDERR).toString("utf8"));
    assert.ok(broken.result.outputTally!.stderrDroppedBytes > 0, "the rest of the diagnostics dropped");
  });
});
