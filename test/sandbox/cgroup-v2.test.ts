// The cgroup v2 driver file by file, against a fake cgroupfs tree (a directory whose files stand in
// for the kernel's): what it writes and when, what it reads, what it names when a file is missing.
// The same driver runs against a real cgroup2 hierarchy in `npm run test:cgroup2`.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after } from "../hooks.ts";
import { CgroupV2Driver } from "../../fleet/src/sandbox/cgroup/v2.ts";
import { tempStateDir } from "../helpers.ts";

const MiB = 1024 * 1024;
const root = tempStateDir("fake-cgroup2-files-");
after(() => rmSync(root, { recursive: true, force: true }));
writeFileSync(join(root, "cgroup.controllers"), "cpuset  cpu\tio memory pids\n");
writeFileSync(join(root, "cgroup.subtree_control"), "");

const fake = (parent: string) => new CgroupV2Driver(root, parent, { verifyFilesystem: false });
const file = (path: string) => readFileSync(join(root, path), "utf8");

describe("cgroup v2 driver, file by file (fake tree)", () => {
  it("enables the controllers at every level of a nested parent, whatever whitespace the kernel lists them with", () => {
    assert.deepEqual(fake("a/b/c").problems(), []);
    for (const level of ["", "a", "a/b", "a/b/c"]) assert.equal(file(join(level, "cgroup.subtree_control")), "+memory +pids +cpu +cpuset", level || "root");
  });

  it("says why it cannot prepare its parent", () => {
    writeFileSync(join(root, "blocker"), "a file where a directory should be");
    const [problem] = fake("blocker/x").problems();
    assert.match(problem ?? "", /^cgroup v2: cannot prepare .*blocker\/x: /);
  });

  it("writes each limit only when it changes: memory, pids (two above the budget: drainer and init) and CPU", async () => {
    const driver = fake("limits");
    driver.problems();
    const cgroup = await driver.create("run", { memoryBytes: 64 * MiB, processes: 16 });
    assert.deepEqual(cgroup.controls, ["memory_limit", "swap_disabled", "process_limit", "cpu_accounting"]);
    assert.equal(file("limits/run/memory.swap.max"), "0");
    assert.deepEqual([file("limits/run/memory.max"), file("limits/run/pids.max")], [String(64 * MiB), "18"]);
    assert.equal(existsSync(join(root, "limits/run/cpu.max")), false, "no CPU controls asked for, none written");
    // Marked by hand: a limit that does not change must not be rewritten.
    writeFileSync(join(root, "limits/run/memory.max"), "unchanged");
    writeFileSync(join(root, "limits/run/pids.max"), "unchanged");
    cgroup.setLimits({ memoryBytes: 64 * MiB, processes: 16 });
    assert.deepEqual([file("limits/run/memory.max"), file("limits/run/pids.max")], ["unchanged", "unchanged"]);
    const share = { mode: "shared" as const, cpus: [0, 1], quotaCores: 0.25 };
    cgroup.setLimits({ memoryBytes: 32 * MiB, processes: 8, cpu: share });
    assert.deepEqual([file("limits/run/memory.max"), file("limits/run/pids.max")], [String(32 * MiB), "10"]);
    assert.deepEqual([file("limits/run/cpuset.cpus"), file("limits/run/cpu.weight"), file("limits/run/cpu.max")], ["0,1", "100", "25000 100000"]);
    writeFileSync(join(root, "limits/run/cpu.max"), "unchanged");
    cgroup.setLimits({ memoryBytes: 32 * MiB, processes: 8, cpu: share });
    assert.equal(file("limits/run/cpu.max"), "unchanged");
    cgroup.setLimits({ memoryBytes: 32 * MiB, processes: 8, cpu: { mode: "dedicated", cpus: [1], quotaCores: undefined } });
    assert.equal(file("limits/run/cpu.max"), "max 100000");
    assert.deepEqual(cgroup.controls.filter((control) => control === "cpu_isolation"), ["cpu_isolation"]);
    assert.deepEqual(cgroup.procsFiles, [join(root, "limits/run/cgroup.procs")]);
  });

  it("reads pids and names every counter it could not read", async () => {
    const driver = fake("reads");
    driver.problems();
    const cgroup = await driver.create("run", { memoryBytes: MiB, processes: 4 });
    writeFileSync(join(root, "reads/run/cgroup.procs"), "12\n34\n");
    assert.deepEqual(cgroup.pids(), [12, 34]);
    rmSync(join(root, "reads/run/memory.max"));
    const readings = cgroup.read();
    for (const name of ["memory.events", "memory.max", "memory.peak", "memory.events oom", "memory.events oom_kill", "cpu.stat", "pids.current", "pids.events"]) {
      assert.ok(readings.errors.some((error) => error.startsWith(`${name}: `)), `${name}: ${readings.errors.join("; ")}`);
    }
    assert.equal(readings.processLimit, 4);
    cgroup.killAll();
    assert.equal(file("reads/run/cgroup.kill"), "1");
  });

  it("a create that fails removes its directory; stale siblings are swept; close removes empty parents", async () => {
    const driver = fake("inst/node");
    driver.problems();
    mkdirSync(join(root, "inst/node/run"));
    await assert.rejects(driver.create("run", { memoryBytes: MiB, processes: 4 }), /EEXIST/);
    mkdirSync(join(root, "inst/old/run"), { recursive: true });
    mkdirSync(join(root, "inst/live"), { recursive: true });
    driver.removeStaleSiblings((name) => name === "old");
    assert.equal(existsSync(join(root, "inst/old")), false);
    assert.equal(existsSync(join(root, "inst/live")), true);
    rmSync(join(root, "inst/node/run"), { recursive: true });
    rmSync(join(root, "inst/live"), { recursive: true });
    rmSync(join(root, "inst/node/cgroup.subtree_control"));
    driver.close();
    assert.equal(existsSync(join(root, "inst/node")), false, "close removes its parent");
  });
});
