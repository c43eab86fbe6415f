// The node has one queue for its slots (sandbox/slot-queue.ts): a run the engine takes directly
// (not through the service) holds a slot the service sees, and a submission waits behind it.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { status } from "@grpc/grpc-js";
import {
  collect,
  firstMessage,
  markedSleeper,
  nativeExecute,
  nativeUnary,
  processesWith,
  usingRealEngine,
  waitFor,
  type NativeClient,
  type TestNode,
} from "./helpers.ts";
import { useNode } from "./use-node.ts";

describe("one queue for the node's slots", { skip: !usingRealEngine && "needs the real engine (its sandbox owns the queue)" }, () => {
  let node: TestNode;
  let client: NativeClient;
  useNode({ slots: 1, queueCapacity: 1 }, (it) => ({ node, client } = it));

  test("a direct engine run holds the slot: NodeInfo shows it, a submission queues behind it, a full queue refuses", async (t) => {
    const marker = `direct-${randomUUID()}`;
    const cancel = new AbortController();
    t.after(() => cancel.abort());
    const direct = node.engine.execute({ language: "python", code: markedSleeper(marker), stdin: "" }, cancel.signal);
    await waitFor(() => processesWith(marker).length > 0, "the direct run started");

    const info = await nativeUnary(client, "NodeInfo", {});
    assert.equal(info.free_slots, 0, "the direct run's slot is in use");
    assert.equal(node.server.node.scheduler.running, 1);

    const submitted = nativeExecute(client, { submission_id: randomUUID(), language: "python", code: "print('after')", stdin: "" });
    const first = await firstMessage(submitted, () => true);
    assert.equal(first.event, "queued", "the submission waits for the slot the direct run holds");
    assert.equal(first.queued.position, 1);
    const submittedDone = collect(submitted);
    const refused = await collect(nativeExecute(client, { submission_id: randomUUID(), language: "python", code: "print(1)", stdin: "" }));
    assert.equal(refused.error?.code, status.RESOURCE_EXHAUSTED, "the queue (capacity 1) is full");

    cancel.abort();
    assert.equal((await direct).result.error_message, "cancelled");
    const done = await submittedDone;
    assert.equal(done.error, undefined);
    const completed = done.messages.find((message) => message.event === "completed");
    assert.equal(completed?.completed.result.stdout, "after\n");
    await waitFor(() => node.server.node.scheduler.running === 0 && node.server.node.scheduler.queueDepth === 0, "the node idle");
  });
});
