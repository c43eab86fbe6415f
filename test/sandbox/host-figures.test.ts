// What a program can see of the host's clocks and counters (real kernel): each run has its own
// time namespace (its clocks since boot start at its set-up) and a /proc whose memory, VM and
// pressure figures are the run's own or zero, not the host's.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { join } from "node:path";
import { LauncherZygote } from "../../fleet/src/sandbox/launcher.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { BASE_ENV, baseRootLayout } from "../../fleet/src/sandbox/rootfs.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine, useSandbox } from "../kernel-fixtures.ts";

const MiB = 1024 * 1024;
const { engine } = useEngine("codecell-test-figures-", { slots: 1, cgroupParent: "codecell-test-figures" });
const { sandbox, stateDir } = useSandbox({ cgroupParent: "codecell-test-figures", firstId: 61_800 });

/** Runs Python `code` and how long the whole run took on the host, in seconds. */
async function timed(code: string, limits = {}) {
  const started = performance.now();
  const { result } = await sandbox.run({ argv: ["/usr/bin/python3", "-c", code], limits: { ...RUN_LIMITS, ...limits } });
  return { result, hostSecs: (performance.now() - started) / 1000 };
}

describe("the host's clocks and counters are not the program's", { skip: !requireKernel() }, () => {
  it("uptime, CLOCK_BOOTTIME, CLOCK_MONOTONIC and sysinfo's uptime count from the run's set-up", async () => {
    const { result, hostSecs } = await timed(`import ctypes, time
class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("pad", ctypes.c_char * 256)]
info = SysInfo()
assert ctypes.CDLL(None).sysinfo(ctypes.byref(info)) == 0
print(float(open("/proc/uptime").read().split()[0]))
print(time.clock_gettime(time.CLOCK_BOOTTIME))
print(time.clock_gettime(time.CLOCK_MONOTONIC))
print(info.uptime)`);
    assert.equal(result.verdict, "AC", result.stderr);
    const [uptime, boottime, monotonic, sysinfoUptime] = result.stdout.trim().split("\n").map(Number);
    // The host booted before this test began; the run's clocks began inside the run.
    for (const [name, value] of Object.entries({ uptime, boottime, monotonic })) {
      assert.ok(value! >= 0 && value! <= hostSecs, `${name} ${value} s inside a run of ${hostSecs} s`);
    }
    // sysinfo rounds its uptime up to the next second
    assert.ok(sysinfoUptime! >= 0 && sysinfoUptime! <= Math.ceil(hostSecs), `sysinfo uptime ${sysinfoUptime} s inside a run of ${hostSecs} s`);
    assert.ok(result.evidence.controls_applied.includes("time_namespace"), result.evidence.controls_applied.join());
  });

  it("/proc/meminfo is the run's memory limit; /proc/vmstat has the kernel's names, all zero; /proc/pressure shows nothing", async () => {
    const memoryBytes = 200 * MiB;
    const { result } = await timed(`import os
mem = {line.split(":")[0]: line.split(":")[1].strip() for line in open("/proc/meminfo")}
print(mem["MemTotal"], mem["MemFree"], mem["MemAvailable"], mem["SwapTotal"], sep=",")
vmstat = [line.split() for line in open("/proc/vmstat")]
print(sorted({value for _, value in vmstat}), " ".join(name for name, _ in vmstat))
print(sorted(os.listdir("/proc/pressure")) if os.path.isdir("/proc/pressure") else [])`, { memoryBytes });
    assert.equal(result.verdict, "AC", result.stderr);
    const [meminfo, vmstat, pressure] = result.stdout.trim().split("\n");
    const kB = `${memoryBytes / 1024} kB`;
    assert.equal(meminfo, `${kB},${kB},${kB},0 kB`);
    const hostNames = readFileSync("/proc/vmstat", "utf8").trim().split("\n").map((line) => line.split(" ")[0]);
    assert.equal(vmstat, `['0'] ${hostNames.join(" ")}`);
    assert.equal(pressure, "[]");
    assert.ok(result.evidence.controls_applied.includes("proc_masks"), result.evidence.controls_applied.join());
  });

  it("Node's os.totalmem() is the run's memory limit", async () => {
    const memoryBytes = 192 * MiB;
    const { result } = await engine.execute({ language: "javascript", code: `console.log(require("os").totalmem())`, stdin: "", limits: { memoryBytes } });
    assert.equal(result.verdict, "AC", result.stderr);
    assert.equal(Number(result.stdout.trim()), memoryBytes);
  });

  it("without the run's memory limit the launcher refuses before anything runs (fail proc_masks)", async () => {
    const zygote = await LauncherZygote.start(join(stateDir, "bare.sock"));
    try {
      const layout = baseRootLayout(join(stateDir, "etc"));
      const launched = zygote.launch({
        uid: 61_890, gid: 61_890, hostname: "sandbox", cgroupProcsFiles: [], memoryLimitBytes: 0,
        bindsReadOnly: layout.binds.filter((bind) => !bind.copy), symlinks: layout.symlinks, boxBytes: 1 << 20, tmpBytes: 1 << 20,
        copyIn: [], copyOut: [], rlimits: {}, env: { ...BASE_ENV }, cwd: "/box", argv: ["/bin/true"],
      }, undefined);
      launched.stdout.resume();
      launched.stderr.resume();
      await launched.finished;
      assert.equal(launched.report.failure?.control, "proc_masks", JSON.stringify(launched.report.failure));
      assert.equal(launched.report.started, false);
      assert.equal(launched.report.done, true);
    } finally {
      await zygote.close();
    }
  });
});
