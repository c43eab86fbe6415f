import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after } from "../hooks.ts";
import { detectCgroupDriver } from "../../fleet/src/sandbox/cgroup/detect.ts";
import { ownCgroupPath } from "../../fleet/src/sandbox/cgroup/files.ts";
import { CgroupV1Driver } from "../../fleet/src/sandbox/cgroup/v1.ts";
import { CgroupV2Driver } from "../../fleet/src/sandbox/cgroup/v2.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";

const MiB = 1024 * 1024;

describe("cgroup driver detection", () => {
  const v1Mountinfo = [
    "30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory",
    "31 25 0:27 / /sys/fs/cgroup/pids rw,relatime shared:10 - cgroup cgroup rw,pids",
    "32 25 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:11 - cgroup cgroup rw,cpu,cpuacct",
    "33 25 0:29 / /sys/fs/cgroup/unified rw,relatime shared:12 - cgroup2 cgroup2 rw",
  ].join("\n");
  it("picks v1 when the hierarchies are separate, even beside an empty cgroup2 mount", () => {
    const driver = detectCgroupDriver("codecell/x", v1Mountinfo);
    assert.ok(typeof driver !== "string");
    assert.equal(driver.version, "v1");
  });
  it("picks v2 when /sys/fs/cgroup is a cgroup2 mount", () => {
    const driver = detectCgroupDriver("codecell/x", "25 1 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate");
    assert.ok(typeof driver !== "string");
    assert.equal(driver.version, "v2");
  });
  it("finds this process's own cgroup per hierarchy", () => {
    const text = "4:memory:/a/b\n2:cpu,cpuacct:/c\n0::/unified\n";
    assert.equal(ownCgroupPath("memory", text), "/a/b");
    assert.equal(ownCgroupPath("cpuacct", text), "/c");
    assert.equal(ownCgroupPath("", text), "/unified");
    assert.throws(() => ownCgroupPath("pids", text));
  });
  it("explains when neither is usable", () => {
    assert.match(String(detectCgroupDriver("codecell/x", "")), /no usable cgroup/);
  });
});

// This machine mounts cgroup v1 controllers, so the v2 driver is exercised against a fake
// cgroupfs tree: a directory whose files stand in for the kernel's (see README).
describe("cgroup v2 driver against a fake cgroupfs tree", () => {
  const root = tempStateDir("fake-cgroup2-");
  after(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, "cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n");
  writeFileSync(join(root, "cgroup.subtree_control"), "");

  it("enables memory, pids, cpu and cpuset down to its parent and writes the limits", async () => {
    const driver = new CgroupV2Driver(root, "codecell/node1", { verifyFilesystem: false });
    assert.deepEqual(driver.problems(), []);
    assert.equal(readFileSync(join(root, "cgroup.subtree_control"), "utf8"), "+memory +pids +cpu +cpuset");
    assert.equal(readFileSync(join(root, "codecell", "node1", "cgroup.subtree_control"), "utf8"), "+memory +pids +cpu +cpuset");
    writeFileSync(join(root, "codecell", "node1", "cpuset.cpus.effective"), "0-3\n");
    assert.deepEqual(driver.cpus(), [0, 1, 2, 3]);
    const cpu = { mode: "shared" as const, cpus: [0, 1, 2, 3], quotaCores: 0.5 };
    const cgroup = await driver.create("run1", { memoryBytes: 256 * MiB, processes: 64, cpu });
    const dir = join(root, "codecell", "node1", "run1");
    assert.equal(readFileSync(join(dir, "memory.max"), "utf8"), String(256 * MiB));
    assert.equal(readFileSync(join(dir, "memory.swap.max"), "utf8"), "0");
    // two above the program's budget: the output drainer and the run's init share the cgroup
    assert.equal(readFileSync(join(dir, "pids.max"), "utf8"), "66");
    assert.equal(readFileSync(join(dir, "cpuset.cpus"), "utf8"), "0,1,2,3");
    assert.equal(readFileSync(join(dir, "cpu.weight"), "utf8"), "100");
    assert.equal(readFileSync(join(dir, "cpu.max"), "utf8"), "50000 100000");
    assert.ok(cgroup.controls.includes("cpu_isolation"));
    assert.deepEqual(cgroup.drainerProcsFiles, [join(dir, "cgroup.procs")]);
    assert.deepEqual(cgroup.drainerReturnProcsFiles, [join(root, ownCgroupPath(""), "cgroup.procs")]);
    assert.deepEqual(cgroup.initReturnProcsFiles, [join(root, ownCgroupPath(""), "cgroup.procs")]);
    const dedicated = await driver.create("run1b", { memoryBytes: MiB, processes: 4, cpu: { mode: "dedicated", cpus: [2], quotaCores: undefined } });
    assert.equal(readFileSync(join(root, "codecell", "node1", "run1b", "cpuset.cpus"), "utf8"), "2");
    assert.equal(readFileSync(join(root, "codecell", "node1", "run1b", "cpu.max"), "utf8"), "max 100000");
    assert.ok(dedicated.controls.includes("cpu_isolation"));
    assert.deepEqual(cgroup.procsFiles, [join(dir, "cgroup.procs")]);

    writeFileSync(join(dir, "memory.max"), `${256 * MiB}\n`);
    writeFileSync(join(dir, "memory.peak"), "1234567\n");
    writeFileSync(join(dir, "memory.events"), "low 0\nhigh 0\nmax 5\noom 2\noom_kill 1\noom_group_kill 0\n");
    writeFileSync(join(dir, "cpu.stat"), "usage_usec 4321\nuser_usec 4000\nsystem_usec 321\n");
    writeFileSync(join(dir, "pids.current"), "0\n");
    writeFileSync(join(dir, "pids.events"), "max 3\n");
    writeFileSync(join(dir, "cgroup.procs"), "");
    assert.deepEqual(cgroup.read(), {
      memoryLimitBytes: 256 * MiB,
      memoryPeakBytes: 1234567,
      oomEvents: 2,
      oomKillEvents: 1,
      cpuUsageUsec: 4321,
      processCount: 0,
      processLimit: 64,
      pidsLimitHits: 3,
      errors: [],
    });
    cgroup.killAll();
    assert.equal(readFileSync(join(dir, "cgroup.kill"), "utf8"), "1");
  });

  it("records unreadable counters as collection errors instead of inventing values", async () => {
    const driver = new CgroupV2Driver(root, "codecell/node2", { verifyFilesystem: false });
    driver.problems();
    const cgroup = await driver.create("run2", { memoryBytes: MiB, processes: 4 });
    const readings = cgroup.read();
    assert.equal(readings.memoryPeakBytes, 0);
    assert.ok(readings.errors.some((error) => error.startsWith("memory.peak")));
    assert.ok(readings.errors.some((error) => error.startsWith("pids.events")));
  });

  it("refuses a tree that is not really cgroupfs unless told it is a fake", () => {
    const [problem] = new CgroupV2Driver(root, "codecell/node3").problems();
    assert.match(problem ?? "", /is not a cgroup v2 filesystem/);
  });

  it("reports missing controllers", () => {
    const bare = tempStateDir("fake-cgroup2-bare-");
    writeFileSync(join(bare, "cgroup.controllers"), "cpu io\n");
    const problems = new CgroupV2Driver(bare, "codecell", { verifyFilesystem: false }).problems();
    assert.deepEqual(problems.map((problem) => problem.match(/controller (\w+)/)?.[1]), ["memory", "pids", "cpuset"]);
    rmSync(bare, { recursive: true, force: true });
  });
});

describe("cgroup v1 driver on the real kernel", () => {
  it("creates the five hierarchies' directories with limits and removes them", async (t) => {
    if (!requireKernel(t)) return;
    if (!existsSync("/sys/fs/cgroup/memory/cgroup.procs")) {
      if (process.env.CI === "true" && existsSync("/sys/fs/cgroup/pids")) throw new Error("expected cgroup v1 here");
      return t.skip("no cgroup v1 memory hierarchy on this machine");
    }
    const parent = `codecell-test/v1-${process.pid}`;
    sweepStaleV1Parents();
    const mounts = { memory: "/sys/fs/cgroup/memory", pids: "/sys/fs/cgroup/pids", cpuacct: "/sys/fs/cgroup/cpuacct" };
    assert.match(new CgroupV1Driver(mounts, parent).problems().join("; "), /no cpu hierarchy.*no cpuset hierarchy/);
    const driver = new CgroupV1Driver({ ...mounts, cpu: "/sys/fs/cgroup/cpu", cpuset: "/sys/fs/cgroup/cpuset" }, parent);
    assert.deepEqual(driver.problems(), []);
    const cpus = driver.cpus();
    const cgroup = await driver.create("run", { memoryBytes: 64 * MiB, processes: 16, cpu: { mode: "dedicated", cpus: [cpus.at(-1)!], quotaCores: undefined } });
    assert.equal(readFileSync(`/sys/fs/cgroup/cpuset/${parent}/run/cpuset.cpus`, "utf8").trim(), String(cpus.at(-1)));
    assert.notEqual(readFileSync(`/sys/fs/cgroup/cpuset/${parent}/run/cpuset.mems`, "utf8").trim(), "");
    assert.equal(readFileSync(`/sys/fs/cgroup/cpu/${parent}/run/cpu.shares`, "utf8").trim(), "1024");
    // the launcher drains the output from the run's CPU hierarchies only, and returns to its own
    assert.deepEqual(cgroup.drainerProcsFiles, ["cpu", "cpuacct", "cpuset"].map((c) => `/sys/fs/cgroup/${c}/${parent}/run/cgroup.procs`));
    assert.deepEqual(cgroup.drainerReturnProcsFiles, ["cpu", "cpuacct", "cpuset"].map((c) => join(`/sys/fs/cgroup/${c}`, ownCgroupPath(c), "cgroup.procs")));
    // the run's init is in every hierarchy while the program lives, then back in the node's own
    assert.deepEqual(cgroup.initReturnProcsFiles, ["memory", "pids", "cpuacct", "cpu", "cpuset"].map((c) => join(`/sys/fs/cgroup/${c}`, ownCgroupPath(c), "cgroup.procs")));
    const readings = cgroup.read();
    assert.deepEqual(readings.errors, []);
    assert.equal(readings.memoryLimitBytes, 64 * MiB);
    assert.equal(readFileSync(`/sys/fs/cgroup/memory/${parent}/run/memory.memsw.limit_in_bytes`, "utf8").trim(), String(64 * MiB));
    assert.equal(readFileSync(`/sys/fs/cgroup/pids/${parent}/run/pids.max`, "utf8").trim(), "17");
    assert.deepEqual(cgroup.pids(), []);
    await cgroup.destroy();
    assert.equal(existsSync(`/sys/fs/cgroup/pids/${parent}/run`), false);
    assert.equal(existsSync(`/sys/fs/cgroup/cpuset/${parent}/run`), false);
    driver.close();
    assert.equal(existsSync(`/sys/fs/cgroup/pids/${parent}`), false, "close removes the parent cgroups it made");
    assert.equal(existsSync(`/sys/fs/cgroup/cpuset/${parent}`), false);
  });
});

/**
 * What an earlier process of this test left when it was killed (a mutation run kills many):
 * `v1-<pid>` trees of dead processes, or of this pid reused. Empty cgroups, removed deepest first.
 */
function sweepStaleV1Parents(): void {
  for (const controller of ["memory", "pids", "cpuacct", "cpu", "cpuset"]) {
    const top = `/sys/fs/cgroup/${controller}/codecell-test`;
    if (!existsSync(top)) continue;
    for (const name of readdirSync(top)) {
      const pid = /^v1-(\d+)$/.exec(name)?.[1];
      if (!pid || (Number(pid) !== process.pid && existsSync(`/proc/${pid}`))) continue;
      removeEmptyTree(join(top, name));
    }
  }
}

function removeEmptyTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyTree(join(dir, entry.name));
  try {
    rmdirSync(dir);
  } catch {
    // still busy: the next run's sweep
  }
}
