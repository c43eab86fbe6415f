// Execute over native gRPC (client built from the .proto by proto-loader): stream order and fields,
// queueing, backpressure, validation, and one run per submission id.
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
  waitFor,
  webClient,
  type NativeClient,
  type TestNode,
  type WireMessage,
} from "./helpers.ts";
import { useNode } from "./use-node.ts";

const seconds = (timestamp: WireMessage) => timestamp.seconds + timestamp.nanos / 1e9;

describe("Execute over native gRPC", () => {
  let node: TestNode;
  let client: NativeClient;
  useNode({ slots: 1, queueCapacity: 2 }, (it) => ({ node, client } = it));

  test("streams started then completed, with every field of the result record", async () => {
    const id = randomUUID();
    const { messages, error } = await collect(
      nativeExecute(client, { submission_id: id, language: "py", code: "print(1)", stdin: "" }),
    );
    assert.equal(error, undefined);
    assert.deepEqual(messages.map((message) => message.event), ["started", "completed"]);
    const startedAt = messages[0]!.started.started_at;
    const result = messages[1]!.completed.result;
    assert.equal(result.submission_id, id);
    assert.equal(result.language, "python");
    assert.equal(result.verdict, "VERDICT_AC");
    assert.equal(result.exit_code, 0);
    assert.equal(result._exit_code, "exit_code", "exit_code is present (proto3 optional)");
    assert.equal(result._signal, undefined, "signal is absent when no signal ended the process");
    assert.equal(result.stdout, "1\n");
    assert.equal(result.stderr, "");
    assert.equal(result.output_integrity, "OUTPUT_INTEGRITY_COMPLETE");
    assert.equal(result._error_message, undefined, "error_message is absent on success");
    assert.equal(typeof result.cpu_time_secs, "number");
    assert.ok(result.wall_time_secs > 0);
    assert.ok(result.memory_peak_bytes > 0);
    assert.deepEqual(result.started_at, startedAt, "the record's started_at is the started event's");
    assert.ok(seconds(result.completed_at) >= seconds(result.started_at));
    assert.equal(typeof result.compile_cache_hit, "boolean");
    const evidence = result.evidence;
    assert.equal(evidence.verdict_cause, "normal_exit");
    assert.equal(evidence.verdict_actor, "runtime");
    assert.equal(evidence.isolation_mode, "strict");
    assert.ok(evidence.controls_applied.length > 0);
    assert.deepEqual(evidence.controls_missing, []);
    assert.ok(evidence.cgroup.memory_limit_bytes > 0);
    assert.ok(evidence.cgroup.process_limit > 0);
    assert.equal(typeof evidence.timing.divergence, "string");
    assert.equal(evidence.process_lifecycle.reap_status, "clean");
    assert.deepEqual(evidence.judge_actions, []);
  });

  test("C runs, and the canonical language is reported", async () => {
    const { messages } = await collect(
      nativeExecute(client, {
        submission_id: randomUUID(),
        language: "c",
        code: '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n',
        stdin: "",
      }),
    );
    const result = messages.at(-1)!.completed.result;
    assert.equal(result.verdict, "VERDICT_AC");
    assert.equal(result.language, "c");
    assert.equal(result.stdout, "hello\n");
  });

  test("version: a listed version or alias reaches the engine as the listed version; none means the default", async () => {
    // A language the engine offers in two versions: the fake engine's python, the real one's javascript.
    const hello: Record<string, string> = { python: "print(1)", javascript: "console.log(1)" };
    const offered = node.engine.languages();
    const language = Object.keys(hello).find((name) => offered.filter((l) => l.name === name).length >= 2)!;
    const fallback = offered.find((l) => l.name === language && l.default)!;
    const other = offered.find((l) => l.name === language && !l.default)!;
    const cases = [[other.version, other.version], [other.aliases[0]!, other.version], ["", fallback.version], [fallback.aliases[0]!, fallback.version]] as const;
    for (const [requested, expected] of cases) {
      const before = node.engine.executed.length;
      const { messages, error } = await collect(nativeExecute(client, { submission_id: randomUUID(), language, code: hello[language]!, version: requested }));
      assert.equal(error, undefined);
      assert.equal(messages.at(-1)!.completed.result.version, expected, "the result names the version that ran");
      assert.equal(node.engine.executed.length, before + 1);
      assert.equal(node.engine.executed.at(-1)!.version, expected, `requested "${requested}"`);
    }
  });

  test("more calls than slots: queued events with positions that move up, FIFO", async () => {
    const marker = `blocker-${randomUUID()}`;
    const blocker = nativeExecute(client, { submission_id: randomUUID(), language: "python", code: markedSleeper(marker), stdin: "" });
    await firstMessage(blocker, (message) => message.event === "started");
    const second = nativeExecute(client, { submission_id: randomUUID(), language: "python", code: "print('second')", stdin: "" });
    await firstMessage(second, (message) => message.event === "queued");
    const third = nativeExecute(client, { submission_id: randomUUID(), language: "python", code: "print('third')", stdin: "" });
    const secondDone = collect(second);
    const thirdDone = collect(third);
    await waitFor(() => node.server.node.scheduler.queueDepth === 2, "two queued runs");

    const info = await nativeUnary(client, "NodeInfo", {});
    assert.equal(info.free_slots, 0);
    assert.equal(info.queue_depth, 2);

    blocker.cancel(); // frees the slot (and kills the blocker)
    const [secondResult, thirdResult] = await Promise.all([secondDone, thirdDone]);
    assert.deepEqual(
      secondResult.messages.map((message) => message.event),
      ["started", "completed"],
      "first queued event was consumed by firstMessage; then started, completed",
    );
    assert.deepEqual(
      thirdResult.messages.map((message) => (message.event === "queued" ? `queued ${message.queued.position}` : message.event)),
      ["queued 2", "queued 1", "started", "completed"],
    );
    assert.equal(secondResult.messages.at(-1)!.completed.result.stdout, "second\n");
    assert.equal(thirdResult.messages.at(-1)!.completed.result.stdout, "third\n");
    const order = node.engine.executed.map((request) => request.code);
    assert.ok(order.indexOf("print('second')") < order.indexOf("print('third')"), "FIFO");
    await waitFor(() => processesWith(marker).length === 0, "blocker gone");
  });

  test("a full queue answers RESOURCE_EXHAUSTED; a withdrawn queued run never executes", async () => {
    const marker = `blocker-${randomUUID()}`;
    const blocker = nativeExecute(client, { submission_id: randomUUID(), language: "python", code: markedSleeper(marker), stdin: "" });
    await firstMessage(blocker, (message) => message.event === "started");
    const queuedCode = `print('${randomUUID()}')`;
    const queued = [0, 1].map(() =>
      nativeExecute(client, { submission_id: randomUUID(), language: "python", code: queuedCode, stdin: "" }),
    );
    const queuedDone = queued.map((stream) => collect(stream));
    await waitFor(() => node.server.node.scheduler.queueDepth === 2, "queue full");

    const rejected = await collect(nativeExecute(client, { submission_id: randomUUID(), language: "python", code: "print(3)", stdin: "" }));
    assert.equal(rejected.error?.code, status.RESOURCE_EXHAUSTED);
    assert.deepEqual(rejected.messages, []);

    for (const stream of queued) stream.cancel();
    for (const done of queuedDone) assert.equal((await done).error?.code, status.CANCELLED);
    await waitFor(() => node.server.node.scheduler.queueDepth === 0, "queue emptied by withdrawal");
    blocker.cancel();
    await waitFor(() => processesWith(marker).length === 0, "blocker gone");
    assert.equal(node.engine.executed.filter((request) => request.code === queuedCode).length, 0);
  });

  test("the same submission id runs once: attach while queued, attach across transports, replay after", async () => {
    const marker = `blocker-${randomUUID()}`;
    const blocker = nativeExecute(client, { submission_id: randomUUID(), language: "python", code: markedSleeper(marker), stdin: "" });
    await firstMessage(blocker, (message) => message.event === "started");

    const id = randomUUID();
    const code = `print('once ${id}')`;
    const request = { submission_id: id, language: "python", code, stdin: "" };
    const first = nativeExecute(client, request);
    await firstMessage(first, (message) => message.event === "queued");
    const firstDone = collect(first);
    const retry = collect(nativeExecute(client, { ...request, language: "py" })); // alias, same request
    const webRetry = (async () => {
      const events = [];
      for await (const event of webClient(node.webUrl).execute({ submissionId: id, language: "python", code, stdin: "" })) {
        events.push(event);
      }
      return events;
    })();
    await waitFor(() => node.server.node.registry.get(id)?.subscribers === 3, "both retries attached");
    blocker.cancel();

    const [a, b, web] = await Promise.all([firstDone, retry, webRetry]);
    assert.deepEqual(b.messages.map((message) => message.event), ["queued", "started", "completed"]);
    assert.deepEqual(a.messages.at(-1), b.messages.at(-1), "both native streams carry the same outcome");
    assert.deepEqual(web.map((event) => Object.keys(event).find((key) => event[key as keyof typeof event])), ["queued", "started", "completed"]);
    assert.equal(web.at(-1)!.completed!.result!.stdout, `once ${id}\n`);

    const replay = await collect(nativeExecute(client, request));
    assert.deepEqual(replay.messages.map((message) => message.event), ["started", "completed"]);
    assert.deepEqual(replay.messages.at(-1), a.messages.at(-1));
    assert.equal(node.engine.executed.filter((entry) => entry.code === code).length, 1, "engine ran it once");

    const reused = await collect(nativeExecute(client, { ...request, code: "print('other')" }));
    assert.equal(reused.error?.code, status.ALREADY_EXISTS);
    await waitFor(() => processesWith(marker).length === 0, "blocker gone");
  });

  test("bad requests are INVALID_ARGUMENT and run nothing", async () => {
    const before = node.engine.executed.length;
    const cases: [WireMessage, RegExp][] = [
      [{ submission_id: "not-a-uuid", language: "python", code: "print(1)" }, /submission_id must be a UUID/],
      [{ submission_id: randomUUID(), language: "python", code: "" }, /code must not be empty/],
      [{ submission_id: randomUUID(), language: "cobol", code: "x" }, /unsupported language "cobol"; available: .*python/],
      [{ submission_id: randomUUID(), language: "python", code: "x".repeat(64 * 1024 + 1) }, /code exceeds/],
      [{ submission_id: randomUUID(), language: "python", code: "x", stdin: "y".repeat(256 * 1024 + 1) }, /stdin exceeds/],
      [{ submission_id: randomUUID(), language: "python", code: "x", version: "2.7" }, /^unknown version "2\.7" of python; available: \S/],
    ];
    for (const [request, message] of cases) {
      const { error } = await collect(nativeExecute(client, request));
      assert.equal(error?.code, status.INVALID_ARGUMENT, JSON.stringify(request).slice(0, 80));
      assert.match(error!.details, message);
    }
    await assert.rejects(nativeUnary(client, "GetResult", { submission_id: "nope" }), { code: status.INVALID_ARGUMENT });
    assert.equal(node.engine.executed.length, before);
  });

  test("GetResult of an id the node never saw is RUN_STATE_UNKNOWN", async () => {
    const response = await nativeUnary(client, "GetResult", { submission_id: randomUUID() });
    assert.equal(response.state, "RUN_STATE_UNKNOWN");
    assert.equal(response.result, null);
  });
});
