// The captured output as raw bytes (RunOutcome.stdoutBytes/stderrBytes) and the live tap
// (RunSpec.onOutput), on the real kernel: every chunk within the capture cap, in order, while the
// program runs, and nothing after run() resolves.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import type { RunOutcome, RunSpec } from "../../fleet/src/sandbox/run-spec.ts";
import { readRunCgroups, requireKernel } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

const { sandbox } = useSandbox({ firstId: 61_500 });

interface Tapped {
  outcome: RunOutcome;
  chunks: { stream: "stdout" | "stderr"; data: Buffer; settled: boolean }[];
}

/** Runs with a tap that records every chunk and whether run() had resolved when it came. */
async function tapped(spec: Omit<RunSpec, "onOutput">, onChunk?: () => void): Promise<Tapped> {
  const chunks: Tapped["chunks"] = [];
  let settled = false;
  const outcome = await sandbox.run({
    ...spec,
    onOutput: (stream, data) => {
      chunks.push({ stream, data: Buffer.from(data), settled });
      onChunk?.();
    },
  });
  settled = true;
  return { outcome, chunks };
}

const joined = (chunks: Tapped["chunks"], stream: "stdout" | "stderr") => Buffer.concat(chunks.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.data));

describe("raw output bytes and the output tap", { skip: !requireKernelQuiet() }, () => {
  it("all 256 byte values through stdin → cat → stdout are stdoutBytes exactly", async () => {
    const every = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte));
    const { outcome, chunks } = await tapped({ argv: ["/bin/cat"], stdin: every, limits: RUN_LIMITS });
    assert.equal(outcome.result.verdict, "AC");
    assert.deepEqual(Buffer.from(outcome.stdoutBytes), every);
    assert.deepEqual(joined(chunks, "stdout"), every);
    assert.equal(outcome.stderrBytes.length, 0);
  });

  it("delivers the first chunk while the program still runs; chunks concatenate to the captured bytes", async () => {
    let runningAtFirstChunk: boolean | undefined;
    const { outcome, chunks } = await tapped(
      { argv: ["/bin/sh", "-c", "echo first; echo oops >&2; sleep 1; echo second; echo again >&2"], limits: RUN_LIMITS },
      () => {
        // the program (its shell, before or in its `sleep 1`) is still in its run cgroup when the first line arrives
        runningAtFirstChunk ??= commandsInRunCgroups().some((command) => command === "sh" || command === "sleep");
      },
    );
    assert.equal(outcome.result.verdict, "AC");
    assert.equal(runningAtFirstChunk, true);
    assert.equal(chunks[0]!.data.toString(), chunks[0]!.stream === "stdout" ? "first\n" : "oops\n", "the first chunk holds only what came before the sleep");
    assert.ok(chunks.length >= 2, `${chunks.length} chunks`);
    assert.ok(chunks.every((chunk) => !chunk.settled), "no chunk after run() resolved");
    assert.deepEqual(joined(chunks, "stdout"), Buffer.from(outcome.stdoutBytes));
    assert.deepEqual(joined(chunks, "stderr"), Buffer.from(outcome.stderrBytes));
    assert.equal(Buffer.from(outcome.stdoutBytes).toString(), "first\nsecond\n");
    assert.equal(Buffer.from(outcome.stderrBytes).toString(), "oops\nagain\n");
    const before = chunks.length;
    await sleep(200);
    assert.equal(chunks.length, before, "nothing delivered after run() resolved");
  });

  it("output beyond the capture cap is not delivered", async () => {
    const { outcome, chunks } = await tapped({
      argv: ["/usr/bin/python3", "-c", "import sys\nfor i in range(50): sys.stdout.write(str(i % 10) * 100); sys.stdout.flush()\nsys.stderr.write('e' * 3000)"],
      limits: { ...RUN_LIMITS, outputBytes: 1000 },
    });
    assert.equal(outcome.result.output_integrity, "truncated_by_judge_limit");
    assert.equal(outcome.stdoutBytes.length, 1000);
    assert.equal(outcome.stderrBytes.length, 1000);
    assert.deepEqual(joined(chunks, "stdout"), Buffer.from(outcome.stdoutBytes));
    assert.deepEqual(joined(chunks, "stderr"), Buffer.from("e".repeat(1000)));
    assert.deepEqual(outcome.discardedBytes, { stdout: 4000, stderr: 2000 });
    assert.equal(outcome.result.stdout, Buffer.from(outcome.stdoutBytes).toString());
  });

  it("a tap that throws does not break the run or its capture", async () => {
    let calls = 0;
    const outcome = await sandbox.run({
      argv: ["/bin/sh", "-c", "echo one; sleep 0.2; echo two"],
      limits: RUN_LIMITS,
      onOutput: () => {
        calls++;
        throw new Error("a broken consumer");
      },
    });
    assert.equal(outcome.result.verdict, "AC");
    assert.equal(Buffer.from(outcome.stdoutBytes).toString(), "one\ntwo\n");
    assert.ok(calls >= 1);
    assert.equal(sandbox.health().ready, true);
  });

  it("mergeStderr: writes to both streams arrive in stdout in the order written; stderr stays empty", async () => {
    const script = "for i in 1 2 3; do echo out$i; echo err$i >&2; done";
    const merged = await tapped({ argv: ["/bin/sh", "-c", script], limits: RUN_LIMITS, mergeStderr: true });
    assert.equal(merged.outcome.result.verdict, "AC");
    assert.equal(Buffer.from(merged.outcome.stdoutBytes).toString(), "out1\nerr1\nout2\nerr2\nout3\nerr3\n");
    assert.equal(merged.outcome.stderrBytes.length, 0);
    assert.ok(merged.chunks.every((c) => c.stream === "stdout"));
    const apart = await tapped({ argv: ["/bin/sh", "-c", script], limits: RUN_LIMITS });
    assert.equal(Buffer.from(apart.outcome.stdoutBytes).toString(), "out1\nout2\nout3\n");
    assert.equal(Buffer.from(apart.outcome.stderrBytes).toString(), "err1\nerr2\nerr3\n");
  });
});

/** The command names (comm) of the processes in this test's run cgroups. */
function commandsInRunCgroups(): string[] {
  const commands: string[] = [];
  for (const pid of readRunCgroups("cgroup.procs").flatMap((text) => text.split("\n").filter(Boolean))) {
    try {
      commands.push(readFileSync(`/proc/${pid}/comm`, "utf8").trim());
    } catch {
      // gone while we looked
    }
  }
  return commands;
}

function requireKernelQuiet(): boolean {
  try {
    return requireKernel();
  } catch {
    return true;
  }
}
