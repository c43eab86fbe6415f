// A live run's stdin over native gRPC on the real engine (docs/fleet-node.md, "Live stdin"):
// Execute with live_stdin, then SendInput by offset: an echo program answers each line as it is
// sent; a retried call is taken once and a gap refused; a program that does not read makes the
// node take no more than its buffer; a signal reaches the program; a live stdin with tests is refused.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { status } from "@grpc/grpc-js";
import { LIVE_INPUT_BUFFER_BYTES } from "../../fleet/src/service/live-input.ts";
import { collect, nativeExecute, nativeUnary, usingRealEngine, type NativeClient, type WireMessage } from "./helpers.ts";
import { useNode } from "./use-node.ts";

const ECHO = "import sys\nfor line in sys.stdin:\n    print('you said', line.strip(), flush=True)\nprint('bye')\n";

describe("a live stdin over native gRPC", { skip: !usingRealEngine && "needs the real engine" }, () => {
  let client: NativeClient;
  useNode({ slots: 2 }, (it) => ({ client } = it));

  /** Starts a live run; `output()` is what its stdout streamed so far, `done` its messages and status. */
  function live(code: string, extra: WireMessage = {}) {
    const id = randomUUID();
    let stdout = "";
    const waiters: { text: string; resolve: () => void }[] = [];
    const stream = nativeExecute(client, { submission_id: id, language: "python", code, live_stdin: true, stream_output: true, ...extra });
    stream.on("data", (message: WireMessage) => {
      if (message.output?.stream === "OUTPUT_STREAM_STDOUT") stdout += Buffer.from(message.output.data).toString();
      for (const waiter of waiters.filter((w) => stdout.includes(w.text))) waiter.resolve();
    });
    const done = collect(stream);
    const send = (request: WireMessage) => nativeUnary(client, "SendInput", { submission_id: id, ...request });
    const seen = (text: string) => new Promise<void>((resolve) => (stdout.includes(text) ? resolve() : waiters.push({ text, resolve })));
    return { id, send, seen, done, output: () => stdout };
  }

  test("an echo program answers each line as it is sent; the end of input ends it", async () => {
    const run = live(ECHO);
    let offset = 0;
    for (const word of ["one", "two", "three"]) {
      const data = Buffer.from(`${word}\n`);
      const reply = await waitForRun(() => run.send({ offset, data }));
      offset += data.length;
      assert.equal(Number(reply.taken), offset);
      await run.seen(`you said ${word}\n`);
    }
    const retried = await run.send({ offset: 0, data: Buffer.from("one\n") });
    assert.equal(Number(retried.taken), offset, "a retry of bytes already taken is taken once");
    await assert.rejects(run.send({ offset: offset + 5, data: Buffer.from("x") }), (error: { code: number }) => error.code === status.FAILED_PRECONDITION);
    const ended = await run.send({ offset, end: true });
    assert.equal(ended.closed, true);
    const { messages } = await run.done;
    const result = messages.at(-1)!.completed.result;
    assert.equal(result.verdict, "VERDICT_AC");
    assert.equal(Buffer.from(result.stdout_bytes ?? []).toString() || result.stdout, "you said one\nyou said two\nyou said three\nbye\n");
  });

  test("a program that never reads: the node takes at most its buffer, then says it has no room", async () => {
    const run = live("import time\ntime.sleep(2)\n", { limits: { wall_time_ms: 10_000 } });
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    let offset = 0;
    let reply: WireMessage = {};
    for (let sent = 0; sent < 40; sent++) { // 10 MiB offered
      reply = await waitForRun(() => run.send({ offset, data: chunk }));
      offset = Number(reply.taken);
      if (reply.room === 0) break;
    }
    assert.equal(reply.room, 0, "the node's buffer filled");
    assert.ok(offset <= LIVE_INPUT_BUFFER_BYTES + 1024 * 1024, `the node took ${offset} bytes (its buffer is ${LIVE_INPUT_BUFFER_BYTES}, the socket's about 200 KiB)`);
    await run.send({ offset, end: true });
    const { messages } = await run.done;
    assert.equal(messages.at(-1)!.completed.result.verdict, "VERDICT_AC");
  });

  test("SIGINT with SendInput reaches the program", async () => {
    const run = live("import signal, sys, time\nsignal.signal(signal.SIGINT, lambda *a: (print('interrupted', flush=True), sys.exit(5)))\nprint('ready', flush=True)\ntime.sleep(30)\n");
    await run.seen("ready\n");
    await run.send({ offset: 0, signal: "SIGINT" });
    const { messages } = await run.done;
    const result = messages.at(-1)!.completed.result;
    assert.equal(result.verdict, "VERDICT_RE");
    assert.equal(result.exit_code, 5);
    assert.match(run.output(), /interrupted/);
  });

  test("a compiled live run shows the compile stage, then the run stage; its wall limit is the session's, not a run's", async () => {
    const code = "#include <stdio.h>\nint main(void) { char line[64]; while (fgets(line, sizeof line, stdin)) printf(\"got %s\", line); return 0; }\n";
    const run = live(code, { language: "c" });
    const data = Buffer.from("hi\n");
    await waitForRun(() => run.send({ offset: 0, data, end: true }));
    const { messages } = await run.done;
    const stages = messages.filter((m) => m.stage).map((m) => m.stage.name);
    assert.deepEqual(stages, ["compile", "run"]);
    const result = messages.at(-1)!.completed.result;
    assert.equal(result.verdict, "VERDICT_AC");
    assert.equal(result.evidence.limits.wall_time_ms, 300_000);
    assert.equal(Buffer.from(result.stdout_bytes ?? []).toString() || result.stdout, "got hi\n");
  });

  test("a live stdin with tests is INVALID_ARGUMENT; SendInput to an unknown run is NOT_FOUND", async () => {
    const { error } = await collect(nativeExecute(client, { submission_id: randomUUID(), language: "python", code: ECHO, live_stdin: true, tests: [{ name: "t", stdin: Buffer.from("") }] }));
    assert.equal(error?.code, status.INVALID_ARGUMENT);
    assert.match(error!.details, /^live_stdin: /);
    await assert.rejects(nativeUnary(client, "SendInput", { submission_id: randomUUID(), offset: 0 }), (e: { code: number }) => e.code === status.NOT_FOUND);
  });
});

/** SendInput right after Execute may reach the node before the run is registered: tried again briefly. */
async function waitForRun(send: () => Promise<WireMessage>): Promise<WireMessage> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if ((error as { code: number }).code !== status.NOT_FOUND || attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
