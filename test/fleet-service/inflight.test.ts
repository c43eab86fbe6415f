// Bytes in flight (docs/fleet-node.md, "Memory"): what one submission reserves, that the largest
// one fits the least budget, and a node over real sockets that refuses new work past its budget
// with RESOURCE_EXHAUSTED (queued submissions holding their reservation too) and takes work again
// once a submission completes. The engine is the gated double: runs end when the test says so.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { status } from "@grpc/grpc-js";
import { ExecuteRequest } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { MAX_EXECUTE_REQUEST_BYTES, OUTPUT_BUDGET_MAX_BYTES } from "../../proto/limits.ts";
import {
  CAPTURE_COPIES, InflightBytes, NODE_MEMORY_FULL, RAW_OUTPUT_COPIES, REQUEST_COPIES, submissionBytes,
} from "../../fleet/src/service/inflight.ts";
import { encodedSizeBound } from "../../fleet/src/service/message-size.ts";
import { DEFAULT_HEAP_MIB, heapFlag, heapFlagFromEnv, MIN_INFLIGHT_MIB } from "../../fleet/src/service/node-memory.ts";
import { ServiceError, Status } from "../../fleet/src/service/errors.ts";
import { createGatedEngine } from "../../shared-fixtures/fake-engine.ts";
import { collect, firstMessage, nativeExecute, nativeUnary, waitFor, type NativeClient, type TestNode, type WireMessage } from "./helpers.ts";
import { useNode } from "./use-node.ts";

const MiB = 1024 * 1024;

describe("what a submission reserves", () => {
  test("request, output budget and captures, each at its copies", () => {
    const request = ExecuteRequest.fromPartial({ language: "c", code: "int main(){}", rawOutputOnly: true, outputBudgetBytes: 2 * MiB });
    const expected = REQUEST_COPIES * encodedSizeBound(request) + RAW_OUTPUT_COPIES * 2 * MiB + CAPTURE_COPIES * 2 * MiB;
    assert.equal(submissionBytes(request), expected);
    const checked = ExecuteRequest.fromPartial({ ...request, checker: { language: "c", code: "int main(){}" } });
    const checker = encodedSizeBound(checked) - encodedSizeBound(request);
    assert.equal(submissionBytes(checked), expected + REQUEST_COPIES * checker + CAPTURE_COPIES * 2 * MiB, "a checker's capture beside each test's");
  });

  test("the largest submission (a 4 MiB request, a checker and an interactor, the largest budget) fits the least in-flight budget", () => {
    const judge = { language: "c", code: "int main(){}" };
    const largest = (rawOutputOnly: boolean) =>
      ExecuteRequest.fromPartial({ language: "c", code: "x", stdinBytes: new Uint8Array(MAX_EXECUTE_REQUEST_BYTES), checker: judge, interactor: judge, rawOutputOnly, outputBudgetBytes: 64 * MiB });
    for (const raw of [true, false]) assert.ok(submissionBytes(largest(raw)) <= MIN_INFLIGHT_MIB * MiB, `${submissionBytes(largest(raw)) / MiB} MiB (raw ${raw})`);
    assert.ok(submissionBytes(largest(true)) > RAW_OUTPUT_COPIES * OUTPUT_BUDGET_MAX_BYTES);
  });

  test("a reservation past the budget is RESOURCE_EXHAUSTED; a release gives it back once", () => {
    const inflight = new InflightBytes(10);
    const release = inflight.reserve(6);
    assert.throws(() => inflight.reserve(5), (error: unknown) => error instanceof ServiceError && error.code === Status.RESOURCE_EXHAUSTED && error.message.startsWith(NODE_MEMORY_FULL));
    release();
    release();
    assert.equal(inflight.reserved, 0);
    inflight.reserve(10);
    assert.equal(inflight.reserved, 10);
  });
});

describe("the heap limit a node is started with", () => {
  test("its memory budget: 256 MiB + in flight + retained; a starter's own flag wins; the unit's is the default", () => {
    assert.equal(DEFAULT_HEAP_MIB, 1536);
    assert.equal(heapFlag(1024, 256), "--max-old-space-size=1536");
    assert.equal(heapFlag(1024, 256, ["--no-warnings", "--max-old-space-size=3000"]), "--max-old-space-size=3000");
    assert.equal(heapFlagFromEnv({ FLEET_INFLIGHT_MIB: "384", FLEET_MAX_RETAINED_RESULT_MIB: "64" }), "--max-old-space-size=704");
    assert.equal(heapFlagFromEnv({}), `--max-old-space-size=${DEFAULT_HEAP_MIB}`);
    const unit = readFileSync(new URL("../../deploy/codecell-fleet.service", import.meta.url), "utf8");
    assert.match(unit, new RegExp(`^ExecStart=.* --max-old-space-size=${DEFAULT_HEAP_MIB} .*enroll/main\\.ts$`, "m"));
  });
});

describe("a node past its in-flight budget", () => {
  const engine = createGatedEngine(1);
  const request = (id = randomUUID()) => ({ submission_id: id, language: "c", code: "int main(){}", raw_output_only: true, output_budget_bytes: 4 * MiB });
  const each = submissionBytes(ExecuteRequest.fromPartial({ submissionId: randomUUID(), language: "c", code: "int main(){}", rawOutputOnly: true, outputBudgetBytes: 4 * MiB }));
  let node: TestNode;
  let client: NativeClient;
  // Room for two: one running, one queued.
  useNode({ engine, queueCapacity: 8, inflightBytes: 2 * each + 1024 }, (it) => ({ node, client } = it));
  const reservedGauge = async () => Number(/^codecell_fleet_inflight_bytes (\d+)$/m.exec(await node.server.node.metrics.registry.metrics())?.[1]);

  test("a third submission is refused while two are in flight (one queued); after one completes, work is taken again", async () => {
    const running = nativeExecute(client, request());
    await firstMessage(running, (message) => message.event === "started");
    const queued = nativeExecute(client, request());
    assert.equal((await firstMessage(queued, () => true)).event, "queued", "the queue has room: only bytes refuse");
    assert.equal(await reservedGauge(), 2 * each);

    const refusedId = randomUUID();
    const refused = await collect(nativeExecute(client, request(refusedId)));
    assert.equal(refused.error?.code, status.RESOURCE_EXHAUSTED);
    assert.match(refused.error!.details, new RegExp(`^${NODE_MEMORY_FULL}`));
    assert.equal((await nativeUnary(client, "GetResult", { submission_id: refusedId })).state, "RUN_STATE_UNKNOWN", "it never ran here");

    const runningDone = collect(running);
    engine.release();
    assert.equal((await runningDone).error, undefined);
    await waitFor(async () => (await reservedGauge()) === each, "the completed run's bytes released");
    const again = nativeExecute(client, request());
    const first: WireMessage = await firstMessage(again, () => true);
    assert.equal(first.event, "queued", "admitted again");
    const rest = [collect(queued), collect(again)];
    engine.release();
    await waitFor(() => engine.waiting > 0, "the last run at the gate");
    engine.release();
    for (const done of await Promise.all(rest)) assert.equal(done.error, undefined);
    await waitFor(async () => (await reservedGauge()) === 0, "every reservation released");
  });
});
