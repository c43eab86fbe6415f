// A node's memory under the heaviest output (docs/fleet-node.md, "Memory"): a node process of its
// own (as `npm start` and the systemd unit run it: its heap limit set to its memory budget), ten
// concurrent submissions of 100 tests that each print 2 MiB to stdout and 2 MiB to stderr (past
// the 1 MiB capture caps), streamed, with the largest output budget, and a neighbour's small run.
// The node stays ready, its peak RSS stays under its memory budget, the neighbour's run is AC and
// no result keeps more than its budget.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { after, before } from "../hooks.ts";
import { ExecuteRequest, Verdict, type DeepPartial, type ExecuteResponse, type ExecutionResult } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, serverStream, unary, type FleetTarget } from "../../proto/grpc-web/client.ts";
import { OUTPUT_BUDGET_MAX_BYTES } from "../../proto/limits.ts";
import { startFleet, type Fleet } from "../../scripts/stack/index.ts";
import { submissionBytes } from "../../fleet/src/service/inflight.ts";
import { heapFlag, memoryBudgetMib } from "../../fleet/src/service/node-memory.ts";
import { usingRealEngine, waitFor } from "./helpers.ts";

const MiB = 1024 * 1024;
const INFLIGHT_MIB = 384;
const RETAINED_MIB = 64;
const SUBMISSIONS = 10;
const TESTS = 100;

const code = [
  "#include <stdio.h>",
  "#include <string.h>",
  "static char buf[2 << 20];",
  "int main(void) {",
  "  memset(buf, 'o', sizeof buf); fwrite(buf, 1, sizeof buf, stdout); fflush(stdout);",
  "  memset(buf, 'e', sizeof buf); fwrite(buf, 1, sizeof buf, stderr);",
  "  return 0;",
  "}",
].join("\n");

const heavy = (): DeepPartial<ExecuteRequest> => ({
  submissionId: randomUUID(), language: "c", code, streamOutput: true, rawOutputOnly: true, detachOnDisconnect: true,
  tests: Array.from({ length: TESTS }, (_, i) => ({ name: `t${i}`, stdin: new Uint8Array() })),
});
const neighbour = (): DeepPartial<ExecuteRequest> => ({ submissionId: randomUUID(), language: "python", code: "print(sum(range(10)))", check: { compare: "exact", expectedOutput: Buffer.from("45\n") } });

/** The Completed result and the bytes its Output events carried. */
async function run(target: FleetTarget, request: DeepPartial<ExecuteRequest>): Promise<{ result: ExecutionResult; streamed: number }> {
  let streamed = 0;
  let last: ExecuteResponse | undefined;
  for await (const event of serverStream(target, fleetMethods.execute, request)) {
    streamed += event.output?.data.byteLength ?? 0;
    last = event;
  }
  return { result: last!.completed!.result!, streamed };
}

const kept = (result: ExecutionResult) => result.tests.reduce((sum, t) => sum + (t.result!.stdoutBytes?.byteLength ?? 0) + (t.result!.stderrBytes?.byteLength ?? 0), 0);
const statusKib = (pid: number, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

describe("a node under ten worst-case submissions", { skip: !usingRealEngine && "needs the real engine" }, () => {
  let fleet: Fleet;
  let target: FleetTarget;
  before(async () => {
    fleet = await startFleet({
      env: { FLEET_SLOTS: "2", FLEET_INFLIGHT_MIB: String(INFLIGHT_MIB), FLEET_MAX_RETAINED_RESULT_MIB: String(RETAINED_MIB), NODE_OPTIONS: heapFlag(INFLIGHT_MIB, RETAINED_MIB) },
    });
    target = { url: fleet.url, token: fleet.token };
    await waitFor(async () => (await unary(target, fleetMethods.nodeInfo, {}, 5_000)).ready, "the node ready", 60_000);
  });
  after(() => fleet.stop());

  test("stays ready and within its memory budget; the neighbour is AC; no result keeps more than its budget", { timeout: 600_000 }, async (t) => {
    const budgetMib = memoryBudgetMib(INFLIGHT_MIB, RETAINED_MIB);
    const requests = Array.from({ length: SUBMISSIONS }, heavy);
    assert.ok(SUBMISSIONS * submissionBytes(ExecuteRequest.fromPartial(requests[0]!)) + submissionBytes(ExecuteRequest.fromPartial(neighbour())) <= INFLIGHT_MIB * MiB, "every submission fits the in-flight budget");
    const started = performance.now();
    const heavyRuns = requests.map((request) => run(target, request));
    const neighbourRun = run(target, neighbour());
    let done = false;
    const notReady: string[] = [];
    const watch = (async () => {
      while (!done) {
        const info = await unary(target, fleetMethods.nodeInfo, {}, 10_000);
        if (!info.ready || info.draining) notReady.push(info.notReadyReasons.join("; ") || "draining");
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const results = await Promise.all(heavyRuns);
    const { result: small } = await neighbourRun;
    done = true;
    await watch;
    const seconds = (performance.now() - started) / 1000;
    const peakMib = statusKib(fleet.proc.pid!, "VmHWM") / 1024;
    t.diagnostic(`${SUBMISSIONS} × ${TESTS} tests in ${seconds.toFixed(1)} s; node peak RSS ${peakMib.toFixed(0)} MiB of a ${budgetMib} MiB budget`);

    assert.deepEqual(notReady, [], "NodeInfo said ready throughout");
    assert.equal(small.verdict, Verdict.VERDICT_AC, "the neighbour's run");
    for (const { result, streamed } of results) {
      assert.equal(result.tests.length, TESTS);
      assert.ok(result.tests.every((test) => test.result!.verdict === Verdict.VERDICT_AC));
      const tally = result.outputTally!;
      assert.equal(tally.budgetBytes, OUTPUT_BUDGET_MAX_BYTES);
      assert.equal(tally.stdoutKeptBytes + tally.stderrKeptBytes, kept(result));
      assert.ok(kept(result) <= OUTPUT_BUDGET_MAX_BYTES, `${kept(result)} bytes kept`);
      assert.equal(streamed, kept(result), "the events carried what the record keeps");
      assert.equal(tally.stdoutKeptBytes + tally.stdoutDroppedBytes, TESTS * MiB, "each test's 1 MiB stdout capture counted");
    }
    assert.ok(peakMib < budgetMib, `peak RSS ${peakMib.toFixed(0)} MiB under the ${budgetMib} MiB budget`);
    const info = await unary(target, fleetMethods.nodeInfo, {}, 10_000);
    assert.equal(info.ready, true);
  });
});
