// Output accounted to the run (real kernel): the excess beyond the capture limit is drained by a
// process inside the run's cgroups, the program's fds reveal no host path, and the encoded
// record stays bounded.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { detectCgroupDriver } from "../../fleet/src/sandbox/cgroup/detect.ts";
import type { CgroupDriver, RunCgroup } from "../../fleet/src/sandbox/cgroup/driver.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { ENCODED_OUTPUT_FACTOR } from "../../fleet/src/sandbox/output.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

const MiB = 1024 * 1024;
const PARENT = "codecell-test-drain";
const FIRST_ID = 62_000;

const { sandbox, stateDir } = useSandbox({ cgroupParent: PARENT, firstId: FIRST_ID });

const sh = (script: string, stdin?: string) =>
  sandbox.run({ argv: ["/bin/sh", "-c", script], stdin, limits: { ...RUN_LIMITS, wallTimeMs: 8_000 } });

describe("output beyond the capture limit", () => {
  it("an 8 MiB flood ends AC with the first 1 MiB kept and the rest counted", async (t) => {
    if (!requireKernel(t)) return;
    const { result, discardedBytes } = await sh("head -c 8388608 /dev/zero | tr '\\000' x");
    assert.equal(result.verdict, "AC");
    assert.equal(result.output_integrity, "truncated_by_judge_limit");
    assert.equal(Buffer.byteLength(result.stdout), RUN_LIMITS.outputBytes);
    assert.equal(discardedBytes.stdout, 8 * MiB - RUN_LIMITS.outputBytes);
    assert.ok(result.evidence.controls_applied.includes("output_drain"));
  });

  it("is drained by the run's launcher, inside the run's CPU cgroups and outside its pid budget", async (t) => {
    if (!requireKernel(t)) return;
    // v1 keeps cpu, cpuacct, pids and memory in separate hierarchies, which is what this looks at;
    // on v2 the launcher shares the run's one cgroup (pids.max is one above the program's budget).
    if (!existsSync("/sys/fs/cgroup/cpuacct")) return t.skip("cgroup v2: the drainer is in the run's single cgroup (see docs/sandbox.md)");
    const run = sh("yes flood | head -c 400000000; sleep 0.2");
    let drainer: { pid: number; nspid: string; comm: string } | undefined;
    for (let attempt = 0; attempt < 300 && !drainer; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      for (const relative of busyRuns("/sys/fs/cgroup/cpuacct")) {
        const cpuset = procs(join("/sys/fs/cgroup/cpuset", relative));
        const inPids = procs(join("/sys/fs/cgroup/pids", relative));
        const inMemory = procs(join("/sys/fs/cgroup/memory", relative));
        for (const pid of procs(join("/sys/fs/cgroup/cpuacct", relative))) {
          if (!cpuset.includes(pid) || inPids.includes(pid) || inMemory.includes(pid)) continue;
          const status = safeRead(`/proc/${pid}/status`);
          const nspid = status.match(/^NSpid:\s*(.*)$/m)?.[1]?.trim() ?? "";
          if (nspid) drainer = { pid, nspid, comm: safeRead(`/proc/${pid}/comm`).trim() };
        }
      }
    }
    const { result } = await run;
    assert.ok(drainer, "a process in the run's cpuacct and cpuset cgroups, but not its pids or memory ones");
    assert.equal(drainer.nspid.split(/\s+/).length, 1, "the drainer lives outside the sandbox's pid namespace");
    assert.equal(drainer.comm, "codecell-launch", "the drainer is the run's launcher");
    assert.equal(result.verdict, "AC");
    assert.equal(result.output_integrity, "truncated_by_judge_limit");
    assert.ok(result.evidence.cgroup.cpu_usage_usec > 0);
  });

  it("2 MiB of control characters cannot become a record many times larger", async (t) => {
    if (!requireKernel(t)) return;
    const { result } = await sh("head -c 2097152 /dev/zero | tr '\\000' '\\001'");
    assert.equal(result.verdict, "AC");
    assert.equal(result.output_integrity, "truncated_by_judge_limit");
    const encoded = Buffer.byteLength(JSON.stringify(result.stdout));
    assert.ok(encoded <= RUN_LIMITS.outputBytes * ENCODED_OUTPUT_FACTOR + 2, `encoded stdout is ${encoded} bytes`);
    assert.ok(encoded > RUN_LIMITS.outputBytes, "the cut keeps as much as the encoded cap allows");
  });
});

describe("what the program's stdio fds reveal", () => {
  it("stdin is a sealed memfd, stdout/stderr are pipes: no host path, no host disk, no peer", async (t) => {
    if (!requireKernel(t)) return;
    const probe = `
import os, socket, sys
print(sys.stdin.read())
for fd in (0, 1, 2): print(fd, os.readlink(f"/proc/self/fd/{fd}"))
try:
    os.write(0, b"x"); print("stdin writable")
except OSError as e: print("stdin write", e.errno)
try:
    socket.socket(fileno=1).getpeername(); print("stdout has a peer")
except OSError as e: print("getpeername", e.errno)
`;
    const { result } = await sandbox.run({
      argv: ["/usr/bin/python3", "-c", probe],
      stdin: "the input",
      limits: { ...RUN_LIMITS, wallTimeMs: 8_000 },
    });
    assert.equal(result.verdict, "AC", result.stderr);
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines[0], "the input");
    assert.match(lines[1]!, /^0 \/memfd:stdin/);
    assert.match(lines[2]!, /^1 pipe:\[\d+\]$/);
    assert.match(lines[3]!, /^2 pipe:\[\d+\]$/);
    assert.match(lines[4]!, /^stdin write (1|9)$/); // EPERM (sealed) or EBADF
    assert.equal(lines[5], "getpeername 88"); // ENOTSOCK
    assert.doesNotMatch(result.stdout, new RegExp(stateDir));
    const fsTypes = await sh("stat -f -c %T /proc/self/fd/0 /proc/self/fd/1 /proc/self/fd/2", "x");
    assert.deepEqual(fsTypes.result.stdout.trim().split("\n"), ["tmpfs", "pipefs", "pipefs"]);
  });
});

describe("a drainer that cannot be placed in the run's cgroups", () => {
  it("fails closed: IE naming output_drain, nothing runs, the node is not ready", async (t) => {
    if (!requireKernel(t)) return;
    const real = detectCgroupDriver(`${PARENT}/i${process.pid}-unplaceable`);
    assert.ok(typeof real !== "string", String(real));
    // The real driver, except that the drainer is sent to a cgroup.procs file that does not exist.
    const driver: CgroupDriver = Object.assign(Object.create(real) as CgroupDriver, {
      version: real.version,
      problems: () => real.problems(),
      cpus: () => real.cpus(),
      close: () => real.close(),
      removeStaleSiblings: (isStale: (name: string) => boolean) => real.removeStaleSiblings(isStale),
      create: async (...args: Parameters<CgroupDriver["create"]>) => unplaceable(await real.create(...args)),
    });
    const dir = tempStateDir();
    const broken = await Sandbox.create({ stateDir: dir, slots: 1, cgroupDriver: driver, firstId: FIRST_ID + 10 });
    try {
      const { result } = await broken.run({ argv: ["/bin/sh", "-c", "echo ran"], limits: RUN_LIMITS });
      assert.equal(result.verdict, "IE");
      assert.equal(result.evidence.controls_missing[0], "output_drain");
      assert.equal(result.stdout, "");
      const health = broken.health();
      assert.equal(health.ready, false);
      assert.match(health.reasons.join("; "), /output_drain/);
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function unplaceable(cgroup: RunCgroup): RunCgroup {
  return new Proxy(cgroup, {
    get(target, property) {
      if (property === "drainerProcsFiles") return ["/nonexistent-cgroupfs/cgroup.procs"];
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function busyRuns(mount: string): string[] {
  const root = join(mount, PARENT);
  if (!existsSync(root)) return [];
  const found: string[] = [];
  for (const instance of readdirSync(root).filter((name) => name.startsWith(`i${process.pid}-`))) {
    for (const run of readdirSync(join(root, instance), { withFileTypes: true })) {
      if (run.isDirectory() && procs(join(root, instance, run.name)).length > 0) found.push(join(PARENT, instance, run.name));
    }
  }
  return found;
}

function procs(dir: string): number[] {
  return safeRead(join(dir, "cgroup.procs")).split("\n").filter(Boolean).map(Number);
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
