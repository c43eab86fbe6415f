// A live stdin on the real kernel (docs/sandbox.md, "Live stdin"): what the supervisor writes
// reaches the program as it comes, and its end is the program's end of input; a program that
// never reads takes no more than the kernel's socket buffers, the rest waits in the caller's
// bounded stream; the program cannot write back into its stdin.
import assert from "node:assert/strict";
import { EventEmitter, once } from "node:events";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { requireKernel } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

const { sandbox } = useSandbox({ cgroupParent: "codecell-test-live-stdin", firstId: 61_950 });
const limits = { ...RUN_LIMITS, wallTimeMs: 20_000 };

describe("live stdin", () => {
  it("an echo program answers each line as it is sent, then ends at end of input", async (t) => {
    if (!requireKernel(t)) return;
    const input = new PassThrough();
    let output = "";
    const arrived: (() => void)[] = [];
    const run = sandbox.run({
      argv: ["/bin/sh", "-c", "while read -r line; do echo \"you said $line\"; done; echo bye"],
      liveStdin: input,
      limits,
      onOutput: (stream, data) => {
        if (stream !== "stdout") return;
        output += Buffer.from(data).toString();
        arrived.shift()?.();
      },
    });
    for (const word of ["one", "two", "three"]) {
      const answered = new Promise<void>((resolve) => arrived.push(resolve));
      input.write(`${word}\n`);
      await answered;
      assert.ok(output.endsWith(`you said ${word}\n`), `answered before the next line was sent: ${JSON.stringify(output)}`);
    }
    input.end();
    const { result } = await run;
    assert.equal(result.verdict, "AC", result.error_message ?? "");
    assert.equal(result.stdout, "you said one\nyou said two\nyou said three\nbye\n");
  });

  it("a program that never reads takes only the socket's buffers; the rest waits unread in the caller's stream", async (t) => {
    if (!requireKernel(t)) return;
    const HIGH_WATER = 64 * 1024;
    const input = new PassThrough({ highWaterMark: HIGH_WATER });
    const run = sandbox.run({ argv: ["/bin/sh", "-c", "sleep 2"], liveStdin: input, limits });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let offered = 0;
    const deadline = performance.now() + 1_500;
    while (offered < 10 * 1024 * 1024 && performance.now() < deadline) {
      if (input.write(chunk)) offered += chunk.length;
      else {
        offered += chunk.length;
        await Promise.race([once(input, "drain"), new Promise((resolve) => setTimeout(resolve, 200))]);
      }
    }
    const waiting = input.readableLength + input.writableLength;
    const taken = offered - waiting;
    assert.ok(offered < 10 * 1024 * 1024, `the writer was held back (offered ${offered} bytes)`);
    assert.ok(taken <= 1024 * 1024, `the sandbox side took ${taken} bytes it could not deliver (the socket's buffers are about 200 KiB)`);
    input.end();
    const { result } = await run;
    assert.equal(result.verdict, "AC", result.error_message ?? "");
  });

  it("the program's stdin names no host path: a pipe the launcher fills, not the node's socket", async (t) => {
    if (!requireKernel(t)) return;
    const input = new PassThrough();
    const probe = [
      "import os, socket, stat",
      "print(os.readlink('/proc/self/fd/0').split(':')[0])",
      "print('socket' if stat.S_ISSOCK(os.fstat(0).st_mode) else 'not a socket')",
      "try: print('peer', socket.socket(fileno=os.dup(0)).getpeername())",
      "except OSError as e: print('no peer', e.errno)",
      "print('read', os.read(0, 64).decode().strip())",
    ].join("\n");
    const run = sandbox.run({ argv: ["/usr/bin/python3", "-c", probe], liveStdin: input, limits });
    input.end("hello\n");
    const { result } = await run;
    assert.equal(result.verdict, "AC", `${result.error_message ?? ""} ${result.stderr}`);
    assert.doesNotMatch(result.stdout, /launcher\.sock|\/work|\/tmp|\.state/, "no host path reaches the program");
    assert.equal(result.stdout, "pipe\nnot a socket\nno peer 88\nread hello\n");
  });

  it("the program cannot write into its stdin", async (t) => {
    if (!requireKernel(t)) return;
    const input = new PassThrough();
    const run = sandbox.run({ argv: ["/bin/sh", "-c", "trap '' PIPE; echo back >&0 && echo wrote || echo refused"], liveStdin: input, limits });
    const { result } = await run;
    input.end();
    assert.equal(result.stdout, "refused\n");
  });
});

describe("a live session's signals", () => {
  it("SIGINT reaches the program alone: its handler runs and the run ends as the program decides", async (t) => {
    if (!requireKernel(t)) return;
    const input = new PassThrough();
    const signals = new EventEmitter();
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    const run = sandbox.run({
      argv: ["/bin/sh", "-c", "trap 'echo interrupted; exit 5' INT; echo ready; while :; do sleep 0.05; done"],
      liveStdin: input,
      signals,
      limits,
      onOutput: (stream, data) => {
        if (Buffer.from(data).toString().includes("ready")) started();
      },
    });
    await ready;
    signals.emit("signal", "SIGINT");
    const { result } = await run;
    input.end();
    assert.equal(result.verdict, "RE", result.error_message ?? "");
    assert.equal(result.exit_code, 5);
    assert.equal(result.stdout, "ready\ninterrupted\n");
  });

  it("SIGKILL ends the program by that signal: SIG, not a platform kill", async (t) => {
    if (!requireKernel(t)) return;
    const input = new PassThrough();
    const signals = new EventEmitter();
    const run = sandbox.run({ argv: ["/bin/sh", "-c", "echo ready; read x"], liveStdin: input, signals, limits, onOutput: () => signals.emit("signal", "SIGKILL") });
    const { result } = await run;
    input.end();
    assert.equal(result.verdict, "SIG", result.error_message ?? "");
    assert.equal(result.signal, 9);
  });
});
