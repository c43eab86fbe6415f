// The CPU-time limit of a whole run on the real kernel: the supervisor reads the cgroup's CPU
// accounting (every process and thread) and kills at the limit; sleeping costs no CPU time.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { CpuWatch, MIN_POLL_MS, nextPollDelayMs } from "../../fleet/src/sandbox/cpu-watch.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import type { Limits } from "../../fleet/src/sandbox/run-spec.ts";
import { requireKernel } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

// shared: the one slot may use every core, so two busy processes really run side by side
const { sandbox } = useSandbox({ firstId: 61_300, cpuPolicy: "shared" });

const sh = (script: string, limits: Partial<Limits>) => sandbox.run({ argv: ["/bin/sh", "-c", script], limits: { ...RUN_LIMITS, ...limits } });

describe("the CPU-time limit", { skip: !requireKernelQuiet() }, () => {
  it("two processes burning CPU: TLE cpu_timeout by the supervisor, the cgroup's CPU at least the limit", async () => {
    const { result } = await sh("while :; do :; done & while :; do :; done", { cpuTimeMs: 500, wallTimeMs: 10_000 });
    const { evidence } = result;
    assert.equal(result.verdict, "TLE");
    assert.equal(evidence.verdict_cause, "cpu_timeout");
    assert.equal(evidence.verdict_actor, "supervisor");
    assert.ok(evidence.judge_actions.includes("sigkill_on_cpu_limit"), evidence.judge_actions.join());
    assert.ok(!evidence.judge_actions.includes("sigkill_on_wall_timeout"), evidence.judge_actions.join());
    assert.ok(evidence.cgroup.cpu_usage_usec >= 500_000, `cgroup CPU ${evidence.cgroup.cpu_usage_usec} µs`);
    assert.ok(result.cpu_time_secs >= 0.5, `cpu_time_secs ${result.cpu_time_secs}`);
    assert.equal(result.signal, 9);
    assert.match(result.error_message ?? "", /CPU-time limit/);
    assert.deepEqual(evidence.limits, { wall_time_ms: 10_000, cpu_time_ms: 500, memory_bytes: RUN_LIMITS.memoryBytes, processes: RUN_LIMITS.processes, output_bytes: RUN_LIMITS.outputBytes });
  });

  it("a program that sleeps past its CPU limit is AC: the CPU limit is not a wall limit", async () => {
    // The limit: a second on top of four times what starting /bin/sleep costs here (about a
    // millisecond on real hardware, hundreds in an emulated VM on a busy host); the program sleeps
    // a second and a half longer than that, so only sleeping counted as CPU could reach it.
    const started = await sandbox.run({ argv: ["/bin/sleep", "0"], limits: RUN_LIMITS });
    assert.equal(started.result.verdict, "AC");
    const cpuTimeMs = 1_000 + 4 * Math.ceil(started.result.evidence.cgroup.cpu_usage_usec / 1000);
    const sleepSecs = (cpuTimeMs + 1_500) / 1000;
    const { result } = await sandbox.run({ argv: ["/bin/sleep", String(sleepSecs)], limits: { ...RUN_LIMITS, cpuTimeMs, wallTimeMs: cpuTimeMs + 20_000 } });
    const usedMs = result.evidence.cgroup.cpu_usage_usec / 1000;
    assert.ok(result.wall_time_secs * 1000 > cpuTimeMs, `wall ${result.wall_time_secs} s is above the CPU limit ${cpuTimeMs} ms`);
    assert.equal(result.evidence.limits?.cpu_time_ms, cpuTimeMs);
    // The verdict follows the cgroup's CPU accounting, never the wall clock.
    assert.equal(result.verdict, usedMs < cpuTimeMs ? "AC" : "TLE", `${result.error_message} (cgroup CPU ${usedMs} ms, limit ${cpuTimeMs} ms)`);
    if (result.verdict === "AC") assert.deepEqual(result.evidence.judge_actions, []);
  });

  it("the wall limit keeps its own cause, wall_timeout", async () => {
    const { result } = await sandbox.run({ argv: ["/bin/sleep", "5"], limits: { ...RUN_LIMITS, cpuTimeMs: 5_000, wallTimeMs: 400 } });
    assert.equal(result.verdict, "TLE");
    assert.equal(result.evidence.verdict_cause, "wall_timeout");
    assert.ok(result.evidence.judge_actions.includes("sigkill_on_wall_timeout"));
    assert.deepEqual([result.evidence.limits?.wall_time_ms, result.evidence.limits?.cpu_time_ms], [400, 5_000]);
  });

  it("RLIMIT_CPU stays only a backstop, a second above the CPU limit", async () => {
    const { result } = await sh("grep 'Max cpu time' /proc/self/limits", { cpuTimeMs: 1_500 });
    assert.equal(result.verdict, "AC");
    assert.match(result.stdout, /^Max cpu time\s+3\s+3\s+seconds/);
  });

  it("a run without a usable CPU limit is refused before anything runs", async () => {
    for (const cpuTimeMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, undefined]) {
      await assert.rejects(sandbox.run({ argv: ["/bin/true"], limits: { ...RUN_LIMITS, cpuTimeMs: cpuTimeMs as number } }), /limits.cpuTimeMs must be a positive number/);
    }
    assert.equal(sandbox.health().ready, true);
  });

  it("a run with a memory-limit kill stays MLE under a CPU limit (MLE outranks TLE)", async () => {
    const { result } = await sandbox.run({
      argv: ["/usr/bin/python3", "-c", "x = bytearray(512 * 1024 * 1024)"],
      // Both limits are set; neither is near: the order of the verdicts is under test, not the clock.
      limits: { ...RUN_LIMITS, memoryBytes: 64 * 1024 * 1024, cpuTimeMs: 30_000, wallTimeMs: 120_000 },
    });
    assert.equal(result.verdict, "MLE", `${result.evidence.verdict_cause} ${result.error_message ?? ""}`);
    assert.equal(result.evidence.limits?.memory_bytes, 64 * 1024 * 1024);
  });
});

describe("the CPU watch's schedule (no kernel needed)", () => {
  it("sleeps as long as every core busy could not reach the limit, never under the floor", () => {
    assert.equal(nextPollDelayMs(10_000_000, 2), 5_000);
    assert.equal(nextPollDelayMs(10_000_000, 1), 10_000);
    assert.equal(nextPollDelayMs(1_000, 2), MIN_POLL_MS);
    assert.equal(nextPollDelayMs(50_000, 0), 50);
  });

  it("counts from its first reading, fires once at the limit, and stops on an unreadable counter", async () => {
    const readings = [7_000, 7_000 + 10_000, 7_000 + 30_000, 7_000 + 60_000, 7_000 + 90_000];
    const exceeded: number[] = [];
    await new Promise<void>((resolve) => {
      const watch = new CpuWatch({
        limitMs: 50,
        cores: 1,
        readUsageUsec: () => readings.shift() ?? Number.NaN,
        onExceeded: (used) => {
          exceeded.push(used);
          resolve();
        },
        onUnreadable: () => assert.fail("the counter was readable"),
      });
      watch.start();
      assert.equal(watch.baselineUsec, 7_000);
    });
    assert.deepEqual(exceeded, [60_000]);
    assert.deepEqual(readings, [97_000], "no reading after the limit was reached");

    const problems: string[] = [];
    const broken = new CpuWatch({
      limitMs: 50,
      cores: 1,
      readUsageUsec: () => {
        throw new Error("ENOENT cpu.stat");
      },
      onExceeded: () => assert.fail("nothing was read"),
      onUnreadable: (message) => problems.push(message),
    });
    broken.start();
    assert.deepEqual(problems, ["ENOENT cpu.stat"]);
  });
});

function requireKernelQuiet(): boolean {
  try {
    return requireKernel();
  } catch {
    return true;
  }
}
