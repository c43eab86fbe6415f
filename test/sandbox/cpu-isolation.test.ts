// CPU isolation on the real kernel: each slot's run cgroup carries its CPU controls, and a
// neighbour with 64 busy threads does not change a concurrent run's verdict.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { parseCpuList, planCpuShares } from "../../fleet/src/sandbox/cgroup/cpu-policy.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";

describe("cpu policy planning", () => {
  it("auto gives one core per slot when slots <= cores, else equal shares with a quota", () => {
    assert.deepEqual(planCpuShares("auto", 2, [0, 1]), [
      { mode: "dedicated", cpus: [0], quotaCores: undefined },
      { mode: "dedicated", cpus: [1], quotaCores: undefined },
    ]);
    const shared = planCpuShares("auto", 4, [0, 1]);
    assert.ok(Array.isArray(shared));
    assert.equal(shared.length, 4);
    for (const share of shared) assert.deepEqual(share, { mode: "shared", cpus: [0, 1], quotaCores: 0.5 });
  });
  it("dedicated refuses more slots than cores; shared is honoured even when cores suffice", () => {
    assert.match(String(planCpuShares("dedicated", 3, [0, 1])), /slots \(3\) <= usable cores \(2\)/);
    assert.deepEqual(planCpuShares("shared", 1, [2, 3]), [{ mode: "shared", cpus: [2, 3], quotaCores: 2 }]);
    assert.match(String(planCpuShares("auto", 1, [])), /no usable CPU/);
  });
  it("parses kernel cpu lists", () => {
    assert.deepEqual(parseCpuList("0-2,5,7-8\n"), [0, 1, 2, 5, 7, 8]);
    assert.throws(() => parseCpuList("a-b"));
  });
});

const CPUSET = "/sys/fs/cgroup/cpuset";
const CPU = "/sys/fs/cgroup/cpu";
const PARENT = "codecell-test-cpu";

/** The CPU control files of the first run cgroup seen holding a process (read while it runs). */
function busyRunCpuFiles(): { cpus: string; mems: string; shares: string; period: string; quota: string } | undefined {
  const cgroup = busyRunCgroups()[0];
  if (!cgroup) return undefined;
  return {
    cpus: readFileSync(join(CPUSET, cgroup, "cpuset.cpus"), "utf8").trim(),
    mems: readFileSync(join(CPUSET, cgroup, "cpuset.mems"), "utf8").trim(),
    shares: readFileSync(join(CPU, cgroup, "cpu.shares"), "utf8").trim(),
    period: readFileSync(join(CPU, cgroup, "cpu.cfs_period_us"), "utf8").trim(),
    quota: readFileSync(join(CPU, cgroup, "cpu.cfs_quota_us"), "utf8").trim(),
  };
}

/** Run cgroups of this process's sandboxes that hold a process right now. */
function busyRunCgroups(): string[] {
  const found: string[] = [];
  const root = join(CPUSET, PARENT);
  if (!existsSync(root)) return found;
  for (const instance of readdirSync(root).filter((name) => name.startsWith(`i${process.pid}-`))) {
    for (const run of readdirSync(join(root, instance), { withFileTypes: true })) {
      if (!run.isDirectory()) continue;
      const relative = join(PARENT, instance, run.name);
      if (readFileSync(join(CPUSET, relative, "cgroup.procs"), "utf8").trim() !== "") found.push(relative);
    }
  }
  return found;
}

async function whileRunning<T>(run: Promise<unknown>, look: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const seen = look();
    if (seen !== undefined) {
      await run;
      return seen;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await run;
  throw new Error("the run's cgroup was never seen busy");
}

const hostCpus = () => parseCpuList(readFileSync(join(CPUSET, "cpuset.effective_cpus"), "utf8"));
const sleeper = { argv: ["/bin/sh", "-c", "sleep 1"], limits: { ...RUN_LIMITS, wallTimeMs: 5_000 } };

describe("cpu controls in the run cgroups (cgroup v1)", { skip: !existsSync(CPUSET) }, () => {
  const stateDir = tempStateDir();
  after(() => rmSync(stateDir, { recursive: true, force: true }));

  it("dedicated: a slot's run is confined to its own core, with equal shares and no quota", async (t) => {
    if (!requireKernel(t)) return;
    const sandbox = await Sandbox.create({ stateDir: join(stateDir, "dedicated"), slots: 1, cgroupParent: PARENT, cpuPolicy: "dedicated" });
    try {
      assert.equal(sandbox.health().ready, true, sandbox.health().reasons.join("; "));
      assert.equal(sandbox.health().cpuMode, "dedicated");
      const run = sandbox.run(sleeper);
      const files = await whileRunning(run, busyRunCpuFiles);
      const result = (await run).result;
      assert.equal(result.verdict, "AC");
      assert.ok(result.evidence.controls_applied.includes("cpu_isolation"));
      assert.deepEqual(parseCpuList(files.cpus), [hostCpus()[0]]);
      assert.notEqual(files.mems, "");
      assert.equal(files.shares, "1024");
      assert.equal(files.quota, "-1");
    } finally {
      await sandbox.close();
    }
  });

  it("shared: more slots than cores get every core, equal shares and a quota of cores/slots", async (t) => {
    if (!requireKernel(t)) return;
    const cores = hostCpus().length;
    const slots = cores * 2;
    const sandbox = await Sandbox.create({ stateDir: join(stateDir, "shared"), slots, cgroupParent: PARENT });
    try {
      assert.equal(sandbox.health().cpuMode, "shared");
      const run = sandbox.run(sleeper);
      const files = await whileRunning(run, busyRunCpuFiles);
      assert.equal((await run).result.verdict, "AC");
      assert.deepEqual(parseCpuList(files.cpus), hostCpus());
      assert.equal(files.shares, "1024");
      assert.equal(files.period, "100000");
      assert.equal(files.quota, String(Math.round((cores / slots) * 100_000)));
    } finally {
      await sandbox.close();
    }
  });

  it("dedicated with more slots than cores fails closed: not ready, nothing runs", async (t) => {
    if (!requireKernel(t)) return;
    const sandbox = await Sandbox.create({ stateDir: join(stateDir, "too-many"), slots: hostCpus().length + 1, cgroupParent: PARENT, cpuPolicy: "dedicated" });
    try {
      const health = sandbox.health();
      assert.equal(health.ready, false);
      assert.match(health.reasons.join("; "), /cpu policy dedicated needs slots/);
      const result = (await sandbox.run(sleeper)).result;
      assert.equal(result.verdict, "IE");
      assert.ok(result.evidence.controls_missing.includes("cpu_isolation"));
    } finally {
      await sandbox.close();
    }
  });
});

for (const policy of ["dedicated", "shared"] as const) describe(`a neighbour with 64 busy threads (${policy} cores)`, () => {
  let sandbox: Sandbox;
  const stateDir = tempStateDir();
  before(async () => {
    if (!requireKernel()) return;
    // shared: twice as many slots as cores, so each run is held to half a core by its quota
    const slots = policy === "dedicated" ? 2 : 2 * availableParallelism();
    sandbox = await Sandbox.create({ stateDir, slots, cgroupParent: PARENT, cpuPolicy: policy });
  });
  after(async () => {
    await sandbox?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it("does not turn a concurrent CPU-bound run into TLE", async (t) => {
    if (!requireKernel(t)) return;
    assert.equal(sandbox.health().cpuMode, policy);
    // A fixed amount of CPU work, timed alone first (the machine may be slow, e.g. emulated).
    // Sharing the machine per thread with 64 spinning neighbours it would need ~30 times that;
    // with its own CPU controls it stays within a few times (shared: half a core).
    const argv = ["/usr/bin/python3", "-c", "s = 0\nfor i in range(3_000_000): s += i\nprint(s)"];
    const alone = (await sandbox.run({ argv, limits: RUN_LIMITS })).result;
    assert.equal(alone.verdict, "AC");
    const wallTimeMs = Math.max(4_000, Math.ceil(alone.wall_time_secs * 1000 * 8));
    const victim = { argv, limits: { ...RUN_LIMITS, wallTimeMs } };
    const neighbour = sandbox.run({
      argv: ["/bin/sh", "-c", "for i in $(seq 64); do (while :; do :; done) & done; wait"],
      limits: { ...RUN_LIMITS, processes: 128, wallTimeMs: wallTimeMs + 2_000 },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const result = (await sandbox.run(victim)).result;
    const hostile = (await neighbour).result;
    assert.equal(hostile.verdict, "TLE");
    assert.equal(result.verdict, "AC", `${result.error_message} wall ${result.wall_time_secs}s`);
    assert.equal(result.stdout.trim(), String((3_000_000 * 2_999_999) / 2));
    assert.ok(result.evidence.controls_applied.includes("cpu_isolation"));
  });
});
