// What ends a run early and what does not. Checked from the host: the program replaces itself
// with a sleeper whose argv carries a unique marker, and /proc is scanned for that marker.
// Rule under test (ExecuteRequest.detach_on_disconnect): when the last stream of a run ends early,
// the run is killed, unless an Execute for its id set detach_on_disconnect.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { status } from "@grpc/grpc-js";
import { Metadata } from "nice-grpc-common";
import {
  collect,
  firstMessage,
  markedSleeper,
  nativeExecute,
  nativeUnary,
  processesWith,
  TOKEN,
  waitFor,
  webClient,
  type NativeClient,
  type TestNode,
} from "./helpers.ts";
import { useNode } from "./use-node.ts";

describe("cancellation and detach", () => {
  let node: TestNode;
  let client: NativeClient;
  useNode({ slots: 2 }, (it) => ({ node, client } = it));

  const assertKilledByCancel = async (id: string) => {
    const response = await nativeUnary(client, "GetResult", { submission_id: id });
    assert.equal(response.state, "RUN_STATE_COMPLETED");
    assert.equal(response.result.verdict, "VERDICT_IE");
    assert.equal(response.result.error_message, "cancelled");
    assert.ok(response.result.evidence.judge_actions.includes("sigkill_on_cancel"));
  };

  test("native client cancel kills the program", async () => {
    const id = randomUUID();
    const marker = `cancel-native-${id}`;
    const stream = nativeExecute(client, { submission_id: id, language: "python", code: markedSleeper(marker), stdin: "" });
    const done = collect(stream);
    await waitFor(() => processesWith(marker).length > 0, "program running");
    stream.cancel();
    assert.equal((await done).error?.code, status.CANCELLED);
    await waitFor(() => processesWith(marker).length === 0, "program gone after cancel");
    await waitFor(async () => (await nativeUnary(client, "GetResult", { submission_id: id })).state === "RUN_STATE_COMPLETED", "outcome kept");
    await assertKilledByCancel(id);
  });

  test("gRPC-Web client abort kills the program", async () => {
    const id = randomUUID();
    const marker = `cancel-web-${id}`;
    const controller = new AbortController();
    const events = webClient(node.webUrl).execute(
      { submissionId: id, language: "python", code: markedSleeper(marker), stdin: "" },
      { signal: controller.signal },
    );
    const done = (async () => {
      try {
        for await (const _event of events);
        return "ended";
      } catch (error) {
        return (error as Error).name;
      }
    })();
    await waitFor(() => processesWith(marker).length > 0, "program running");
    controller.abort();
    assert.equal(await done, "AbortError");
    await waitFor(() => processesWith(marker).length === 0, "program gone after abort");
    await waitFor(async () => (await nativeUnary(client, "GetResult", { submission_id: id })).state === "RUN_STATE_COMPLETED", "outcome kept");
    await assertKilledByCancel(id);
  });

  test("a passed deadline kills the program (native and gRPC-Web)", async () => {
    const nativeId = randomUUID();
    const nativeCall = collect(
      nativeExecute(
        client,
        { submission_id: nativeId, language: "python", code: markedSleeper(`deadline-${nativeId}`), stdin: "" },
        { deadline: new Date(Date.now() + 1500) },
      ),
    );
    const webId = randomUUID();
    const webCall = (async () => {
      const request = { submissionId: webId, language: "python", code: markedSleeper(`deadline-${webId}`), stdin: "" };
      try {
        // nice-grpc-web has no deadline option; the edge, like this test, sends the grpc-timeout header.
        const metadata = Metadata({ authorization: `Bearer ${TOKEN}`, "grpc-timeout": "1500m" });
        for await (const _event of webClient(node.webUrl).execute(request, { metadata }));
      } catch (error) {
        return (error as { code?: number }).code;
      }
    })();
    assert.equal((await nativeCall).error?.code, status.DEADLINE_EXCEEDED);
    assert.equal(await webCall, status.DEADLINE_EXCEEDED);
    for (const id of [nativeId, webId]) {
      await waitFor(async () => (await nativeUnary(client, "GetResult", { submission_id: id })).state === "RUN_STATE_COMPLETED", "outcome kept");
      await assertKilledByCancel(id);
      assert.deepEqual(processesWith(`deadline-${id}`), []);
    }
  });

  test("detach_on_disconnect: a broken stream leaves the run alone and GetResult recovers the outcome", async () => {
    const id = randomUUID();
    const code = "import time\ntime.sleep(1)\nprint('survived')";
    const stream = nativeExecute(client, { submission_id: id, language: "python", code, stdin: "", detach_on_disconnect: true });
    await firstMessage(stream, (message) => message.event === "started");
    stream.cancel();

    await waitFor(async () => (await nativeUnary(client, "GetResult", { submission_id: id })).state === "RUN_STATE_COMPLETED", "run completed");
    const response = await nativeUnary(client, "GetResult", { submission_id: id });
    assert.equal(response.result.verdict, "VERDICT_AC");
    assert.equal(response.result.stdout, "survived\n");
    assert.deepEqual(response.started_at, response.result.started_at);
    assert.equal(node.engine.executed.filter((request) => request.code === code).length, 1);

    // A retried Execute (the edge after losing its stream) replays the kept outcome.
    const replay = await collect(nativeExecute(client, { submission_id: id, language: "python", code, stdin: "", detach_on_disconnect: true }));
    assert.deepEqual(replay.messages.map((message) => message.event), ["started", "completed"]);
    assert.equal(node.engine.executed.filter((request) => request.code === code).length, 1);
  });

  test("gRPC-Web: detached run survives a dropped stream; GetResult over gRPC-Web sees it running, then completed", async () => {
    const id = randomUUID();
    const code = "import time\ntime.sleep(1)\nprint('web survived')";
    const web = webClient(node.webUrl);
    const events = web.execute({ submissionId: id, language: "python", code, stdin: "", detachOnDisconnect: true });
    for await (const event of events) if (event.started) break; // leaving the loop drops the stream
    const running = await web.getResult({ submissionId: id });
    assert.equal(running.state, 3 /* RUN_STATE_RUNNING */);
    assert.ok(running.startedAt instanceof Date);
    await waitFor(async () => (await web.getResult({ submissionId: id })).state === 4, "run completed");
    const completed = await web.getResult({ submissionId: id });
    assert.equal(completed.result?.stdout, "web survived\n");
    assert.equal(completed.result?.verdict, 1 /* VERDICT_AC */);
  });

  test("a run with another stream still attached is not killed when one stream cancels", async () => {
    const id = randomUUID();
    const code = "import time\ntime.sleep(1)\nprint('still here')";
    const request = { submission_id: id, language: "python", code, stdin: "" };
    const first = nativeExecute(client, request);
    await firstMessage(first, (message) => message.event === "started");
    const second = collect(nativeExecute(client, request));
    await waitFor(() => node.server.node.registry.get(id)?.subscribers === 2, "second stream attached");
    first.cancel();
    const { messages, error } = await second;
    assert.equal(error, undefined);
    assert.equal(messages.at(-1)!.completed.result.stdout, "still here\n");
  });
});
