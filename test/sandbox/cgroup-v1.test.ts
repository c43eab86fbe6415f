// The cgroup v1 driver on the real kernel, file by file: limits moved up and down, CPU controls,
// readings of a real process, killing, failures part-way through, stale siblings, problems.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { after } from "../hooks.ts";
import type { RunCgroup } from "../../fleet/src/sandbox/cgroup/driver.ts";
import { readKeyed } from "../../fleet/src/sandbox/cgroup/files.ts";
import { CgroupV1Driver, REUSE_LEFTOVER_MAX_BYTES, type V1Mounts } from "../../fleet/src/sandbox/cgroup/v1.ts";
import { requireKernel } from "../helpers.ts";

const MiB = 1024 * 1024;
const ROOT = "/sys/fs/cgroup";
const HAS_V1 = existsSync(`${ROOT}/memory/cgroup.procs`) && existsSync(`${ROOT}/cpuset/cgroup.procs`);
const BASE: V1Mounts = { memory: `${ROOT}/memory`, pids: `${ROOT}/pids`, cpuacct: `${ROOT}/cpuacct` };
const FULL: V1Mounts = { ...BASE, cpu: `${ROOT}/cpu`, cpuset: `${ROOT}/cpuset` };
const TOP = `codecell-test/v1drv-${process.pid}`;
const drivers: CgroupV1Driver[] = [];
const read = (controller: string, path: string, file: string) => readFileSync(join(ROOT, controller, path, file), "utf8").trim();

function driver(parent: string, mounts: V1Mounts = FULL): CgroupV1Driver {
  const d = new CgroupV1Driver(mounts, `${TOP}/${parent}`);
  drivers.push(d);
  return d;
}

/** Removes every cgroup under `dir`, deepest first (each must be empty of processes by then). */
function removeTree(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeTree(join(dir, entry.name));
  try {
    rmdirSync(dir);
  } catch {
    // still busy: left for the next run's sweep
  }
}

/** Three children of a process whose budget is two (pids.max 3 with it): the third fork fails. */
const FORK_PAST_LIMIT = `exec /usr/bin/python3 -c '
import os, signal, time
children = []
for _ in range(3):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
'`;

/** Runs `script` in a shell that has joined the cgroup (all but cpuset, which has no CPUs here) before it starts. */
async function runInside(cgroup: RunCgroup, script: string): Promise<void> {
  const child = spawn("/bin/sh", ["-c", `read go; ${script}`], { stdio: ["pipe", "ignore", "ignore"] });
  await new Promise((resolve) => child.once("spawn", resolve));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  for (const file of cgroup.procsFiles.filter((file) => !file.includes("/cpuset/"))) writeFileSync(file, String(child.pid));
  child.stdin!.write("go\n");
  await exited;
}

/** Page cache and anonymous memory charged to a v1 memory cgroup (its memory.stat). */
function chargedPageBytes(memoryDir: string): number {
  const stat = readKeyed(join(memoryDir, "memory.stat"));
  return (stat.get("cache") ?? 0) + (stat.get("rss") ?? 0);
}

after(() => {
  for (const d of drivers) d.close();
  for (const controller of ["memory", "pids", "cpuacct", "cpu", "cpuset"]) {
    removeTree(join(ROOT, controller, TOP));
    // and what an earlier run of this file that was killed left behind
    const parent = join(ROOT, controller, "codecell-test");
    for (const name of existsSync(parent) ? readdirSync(parent) : []) {
      const pid = /^v1drv-(\d+)$/.exec(name)?.[1];
      if (pid && !existsSync(`/proc/${pid}`)) removeTree(join(parent, name));
    }
  }
});

describe("cgroup v1 driver, file by file", { skip: !HAS_V1 || !requireKernel() }, () => {
  it("moves the memory limit up and down with swap kept off, and rewrites pids.max (one above the budget, for init) either way", async () => {
    const d = driver("limits");
    assert.deepEqual(d.problems(), []);
    const cgroup = await d.create("run", { memoryBytes: 64 * MiB, processes: 16 });
    const path = `${TOP}/limits/run`;
    assert.equal(read("memory", path, "memory.swappiness"), "0");
    cgroup.setLimits({ memoryBytes: 128 * MiB, processes: 256 });
    assert.deepEqual([read("memory", path, "memory.limit_in_bytes"), read("memory", path, "memory.memsw.limit_in_bytes"), read("pids", path, "pids.max")], [String(128 * MiB), String(128 * MiB), "257"]);
    cgroup.setLimits({ memoryBytes: 32 * MiB, processes: 8 });
    assert.deepEqual([read("memory", path, "memory.limit_in_bytes"), read("memory", path, "memory.memsw.limit_in_bytes"), read("pids", path, "pids.max")], [String(32 * MiB), String(32 * MiB), "9"]);
    assert.deepEqual(cgroup.limits, { memoryBytes: 32 * MiB, processes: 8 });
    assert.deepEqual(cgroup.controls, ["memory_limit", "swap_disabled", "process_limit", "cpu_accounting"]);
    await cgroup.destroy();
  });

  it("CPU controls: a dedicated core, or a share with a quota; cpu_isolation listed once", async () => {
    const d = driver("cpu/nested");
    assert.deepEqual(d.problems(), []);
    for (const level of [`${TOP}/cpu`, `${TOP}/cpu/nested`]) {
      assert.notEqual(read("cpuset", level, "cpuset.cpus"), "", `cpuset.cpus copied down to ${level}`);
      assert.notEqual(read("cpuset", level, "cpuset.mems"), "", `cpuset.mems copied down to ${level}`);
    }
    const cpus = d.cpus();
    assert.ok(cpus.length >= 1);
    const cgroup = await d.create("run", { memoryBytes: 64 * MiB, processes: 16, cpu: { mode: "dedicated", cpus: [cpus[0]!], quotaCores: undefined } });
    const path = `${TOP}/cpu/nested/run`;
    assert.equal(read("cpuset", path, "cpuset.cpus"), String(cpus[0]));
    assert.equal(read("cpuset", path, "cpuset.mems"), read("cpuset", `${TOP}/cpu/nested`, "cpuset.mems"));
    assert.deepEqual([read("cpu", path, "cpu.shares"), read("cpu", path, "cpu.cfs_period_us"), read("cpu", path, "cpu.cfs_quota_us")], ["1024", "100000", "-1"]);
    cgroup.setLimits({ memoryBytes: 64 * MiB, processes: 16, cpu: { mode: "shared", cpus, quotaCores: 0.5 } });
    assert.equal(read("cpu", path, "cpu.cfs_quota_us"), "50000");
    assert.equal(cgroup.controls.filter((control) => control === "cpu_isolation").length, 1);
    // the launcher drains output from the run's three CPU hierarchies (pids and memory excluded)
    assert.deepEqual(cgroup.drainerProcsFiles, ["cpu", "cpuacct", "cpuset"].map((c) => join(ROOT, c, path, "cgroup.procs")));
    assert.equal(cgroup.procsFiles.length, 5);
    await cgroup.destroy();
  });

  it("without cpu and cpuset hierarchies: problems say so, plain runs still work, CPU isolation refuses", async () => {
    const d = driver("nocpu", BASE);
    assert.deepEqual(d.problems(), ["cgroup v1: no cpu hierarchy (needed for CPU shares and quotas)", "cgroup v1: no cpuset hierarchy (needed for dedicated cores)"]);
    assert.deepEqual(d.cpus(), []);
    const plain = await d.create("run", { memoryBytes: 64 * MiB, processes: 16 });
    assert.equal(plain.procsFiles.length, 3);
    assert.deepEqual(plain.drainerProcsFiles, [join(ROOT, "cpuacct", TOP, "nocpu", "run", "cgroup.procs")]);
    await plain.destroy();
    await assert.rejects(d.create("run2", { memoryBytes: MiB, processes: 4, cpu: { mode: "dedicated", cpus: [0], quotaCores: undefined } }), /cpu isolation needs the cpu and cpuset hierarchies/);
    assert.equal(existsSync(join(ROOT, "pids", TOP, "nocpu", "run2")), false, "a failed create leaves nothing behind");
  });

  it("reads a real process's counters, kills it, and names every file it could not read", async () => {
    const d = driver("read");
    d.problems();
    const cgroup = await d.create("run", { memoryBytes: 64 * MiB, processes: 16 });
    // Waits for a line, then burns some CPU inside the cgroup, then sleeps.
    const child = spawn("/bin/sh", ["-c", "read go; i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; exec sleep 30"], { stdio: ["pipe", "ignore", "ignore"] });
    await new Promise((resolve) => child.once("spawn", resolve));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // A v1 cpuset with no CPUs (none were asked for) takes no task: join the others, as a program would.
    for (const file of cgroup.procsFiles.filter((file) => !file.includes("/cpuset/"))) writeFileSync(file, String(child.pid));
    assert.deepEqual(cgroup.pids(), [child.pid]);
    child.stdin!.write("go\n");
    for (let i = 0; i < 200 && cgroup.read().cpuUsageUsec < 50_000; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const readings = cgroup.read();
    assert.deepEqual(readings.errors, []);
    assert.equal(readings.processCount, 1);
    assert.equal(readings.processLimit, 16);
    assert.equal(readings.memoryLimitBytes, 64 * MiB);
    assert.equal(readings.oomKillEvents, 0);
    assert.equal(readings.pidsLimitHits, 0);
    assert.ok(readings.memoryPeakBytes >= 0);
    assert.ok(readings.cpuUsageUsec >= 50_000 && readings.cpuUsageUsec < 30_000_000, `microseconds, not nanoseconds: ${readings.cpuUsageUsec}`);
    cgroup.killAll();
    await exited;
    assert.deepEqual(cgroup.pids(), []);
    await cgroup.destroy();
    assert.equal(existsSync(join(ROOT, "memory", TOP, "read", "run")), false);
    const gone = cgroup.read();
    for (const file of ["memory.oom_control", "memory.limit_in_bytes", "memory.max_usage_in_bytes", "cpuacct.usage", "pids.current", "pids.events"]) {
      assert.ok(gone.errors.some((error) => error.startsWith(file)), `${file}: ${gone.errors.join("; ")}`);
    }
    await cgroup.destroy(); // removing what is already gone is not an error
  });

  it("a used cgroup is reused with its readings from zero; one still holding a run's tmpfs pages is not", async () => {
    const d = driver("reuse");
    d.problems();
    const cgroup = await d.create("run", { memoryBytes: 32 * MiB, processes: 2 });
    // a fork past pids.max (one above the budget) and an allocation past the memory limit
    await runInside(cgroup, `/usr/bin/python3 -c 'x = b"x" * (64 << 20)'; ${FORK_PAST_LIMIT}`);
    const used = cgroup.read();
    assert.ok(used.pidsLimitHits > 0 && used.oomKillEvents > 0 && used.cpuUsageUsec > 0, JSON.stringify(used));
    assert.equal(await cgroup.reuse!(), true);
    const fresh = cgroup.read();
    assert.deepEqual([fresh.pidsLimitHits, fresh.oomKillEvents, fresh.cpuUsageUsec, fresh.errors], [0, 0, 0, []]);
    assert.ok(fresh.memoryPeakBytes <= REUSE_LEFTOVER_MAX_BYTES, `peak restarts from what is left: ${fresh.memoryPeakBytes}`);
    await runInside(cgroup, FORK_PAST_LIMIT);
    const again = cgroup.read();
    assert.ok(again.pidsLimitHits > 0 && again.oomKillEvents === 0, `counts again from the new zero: ${JSON.stringify(again)}`);

    // pages a run wrote to a tmpfs that is still mounted stay charged: too much left to reuse
    const tmpfs = mkdtempSync(join(tmpdir(), "v1-reuse-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "reuse-test", tmpfs]);
    try {
      await runInside(cgroup, `head -c 2097152 /dev/zero > ${tmpfs}/held`);
      assert.equal(await cgroup.reuse!(), false);
    } finally {
      execFileSync("umount", [tmpfs]);
      rmdirSync(tmpfs);
    }
    await cgroup.destroy();
  });

  it("a run that leaves page cache charged has it reclaimed before the cgroup is reused", async () => {
    const d = driver("cache");
    d.problems();
    const cgroup = await d.create("run", { memoryBytes: 32 * MiB, processes: 4 });
    const file = join(mkdtempSync(join(tmpdir(), "v1-cache-")), "written");
    const pageBytes = () => chargedPageBytes(join(ROOT, "memory", TOP, "cache", "run"));
    try {
      // a file on disk written from inside: its page cache is charged to the run's cgroup
      await runInside(cgroup, `dd if=/dev/zero of=${file} bs=64k count=16 conv=fsync 2>/dev/null`);
      assert.ok(pageBytes() >= 512 * 1024, `charged to the run: ${pageBytes()}`);
      assert.equal(await cgroup.reuse!(), true);
      assert.equal(pageBytes(), 0, "reclaimed");
      assert.ok(cgroup.read().memoryPeakBytes <= REUSE_LEFTOVER_MAX_BYTES);
    } finally {
      rmSync(dirname(file), { recursive: true, force: true });
      await cgroup.destroy();
    }
  });

  it("a create that fails part-way removes what it made; stale siblings are swept, live ones kept", async () => {
    const d = driver("inst");
    d.problems();
    mkdirSync(join(ROOT, "pids", TOP, "inst", "taken"));
    await assert.rejects(d.create("taken", { memoryBytes: MiB, processes: 4 }), /EEXIST/);
    assert.equal(existsSync(join(ROOT, "memory", TOP, "inst", "taken")), false);
    rmdirSync(join(ROOT, "pids", TOP, "inst", "taken"));
    for (const sibling of ["old", "live"]) {
      for (const controller of ["memory", "pids", "cpuacct", "cpu", "cpuset"]) mkdirSync(join(ROOT, controller, TOP, sibling, "run"), { recursive: true });
    }
    d.removeStaleSiblings((name) => name === "old");
    for (const controller of ["memory", "pids", "cpuacct", "cpu", "cpuset"]) {
      assert.equal(existsSync(join(ROOT, controller, TOP, "old")), false, `${controller}: stale sibling removed`);
      assert.equal(existsSync(join(ROOT, controller, TOP, "live")), true, `${controller}: live sibling kept`);
      rmdirSync(join(ROOT, controller, TOP, "live", "run"));
      rmdirSync(join(ROOT, controller, TOP, "live"));
    }
  });

  it("refuses a mount that is not cgroupfs and a parent it cannot create", () => {
    const problems = new CgroupV1Driver({ ...FULL, memory: "/tmp" }, `${TOP}/bad`).problems();
    assert.ok(problems.some((problem) => problem.startsWith("cgroup v1 memory: ") && problem.includes("/tmp")), problems.join("; "));
    const blocked = new CgroupV1Driver(FULL, "cgroup.procs/x").problems();
    assert.ok(blocked.some((problem) => /^cgroup v1 pids: cannot create \/sys\/fs\/cgroup\/pids\/cgroup\.procs\/x: /.test(problem)), blocked.join("; "));
  });
});
