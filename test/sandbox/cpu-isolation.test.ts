// CPU isolation on the real kernel: each slot's run cgroup carries its CPU controls, also while a
// neighbour with 64 busy threads runs beside it.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { CPU_PERIOD_USEC, CPU_SHARES_V1, CPU_WEIGHT_V2, housekeepingCpus, pairShare, parseCpuList, planCpuShares, planCpus } from "../../fleet/src/sandbox/cgroup/cpu-policy.ts";
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
  it("an interactive pair shares its slot's dedicated core as it is, and splits a quota in two", () => {
    const dedicated = { mode: "dedicated" as const, cpus: [1], quotaCores: undefined };
    assert.deepEqual(pairShare(dedicated), dedicated);
    assert.deepEqual(pairShare({ mode: "shared", cpus: [0, 1], quotaCores: 0.5 }), { mode: "shared", cpus: [0, 1], quotaCores: 0.25 });
    assert.equal(pairShare(undefined), undefined);
  });
  it("leaves the node the cores no slot has to itself, and none when the slots share them", () => {
    const cpus = [0, 1, 2, 3];
    const oneSlot = planCpuShares("dedicated", 1, cpus);
    const allSlots = planCpuShares("dedicated", 4, cpus);
    const shared = planCpuShares("shared", 2, cpus);
    assert.ok(Array.isArray(oneSlot) && Array.isArray(allSlots) && Array.isArray(shared));
    assert.deepEqual(housekeepingCpus(oneSlot, cpus), [1, 2, 3]);
    assert.deepEqual(housekeepingCpus(allSlots, cpus), []);
    assert.deepEqual(housekeepingCpus(shared, cpus), []);
    assert.deepEqual(planCpus("auto", 1, () => [2, 5]), { shares: [{ mode: "dedicated", cpus: [2], quotaCores: undefined }], housekeeping: [5] });
    assert.match(String(planCpus("auto", 1, () => { throw new Error("no cpuset file"); })), /cannot read the usable CPUs: no cpuset file/);
  });
  it("parses kernel cpu lists", () => {
    assert.deepEqual(parseCpuList("0-2,5,7-8\n"), [0, 1, 2, 5, 7, 8]);
    assert.throws(() => parseCpuList("a-b"));
  });
});

const CPUSET = "/sys/fs/cgroup/cpuset";
const CPU = "/sys/fs/cgroup/cpu";
const PARENT = "codecell-test-cpu";

/** A run cgroup listed a moment ago may since have been removed (its run ended): then it holds nothing. */
function readIfPresent(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

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
      if (readIfPresent(join(CPUSET, relative, "cgroup.procs")).trim() !== "") found.push(relative);
    }
  }
  return found;
}

/** Polls `look` while `run` is pending; its first answer, once the run has ended. */
async function whileRunning<T>(run: Promise<unknown>, look: () => T | undefined): Promise<T> {
  let settled = false;
  void run.finally(() => (settled = true)).catch(() => undefined);
  while (!settled) {
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

  it("shared: a run beside the job (a check server) gets half the slot's quota, as a pair's side does", async (t) => {
    if (!requireKernel(t)) return;
    const cores = hostCpus().length;
    const slots = cores * 2;
    const sandbox = await Sandbox.create({ stateDir: join(stateDir, "beside"), slots, cgroupParent: PARENT });
    try {
      const files = await sandbox.inJob(async () => {
        const run = sandbox.runBeside(sleeper);
        const seen = await whileRunning(run, busyRunCpuFiles);
        assert.equal((await run).result.verdict, "AC");
        return seen;
      });
      assert.equal(files.quota, String(Math.round((cores / slots / 2) * 100_000)));
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

/** A live run cgroup's CPU controls, on either cgroup version. */
interface RunCpuControls { cpus: number[]; weight: number; quotaUsec: number | "max"; periodUsec: number }

const V2 = "/sys/fs/cgroup";
const onV2 = () => existsSync(join(V2, "cgroup.controllers"));

function runCgroupRoot(): string {
  return onV2() ? join(V2, PARENT) : join(CPUSET, PARENT);
}

/** This process's run cgroups holding a process right now, with their CPU controls. */
function busyRunControls(): RunCpuControls[] {
  const root = runCgroupRoot();
  if (!existsSync(root)) return [];
  const found: RunCpuControls[] = [];
  for (const instance of readdirSync(root).filter((name) => name.startsWith(`i${process.pid}-`))) {
    for (const run of readdirSync(join(root, instance), { withFileTypes: true })) {
      const relative = join(PARENT, instance, run.name);
      if (!run.isDirectory() || readIfPresent(join(root, instance, run.name, "cgroup.procs")).trim() === "") continue;
      found.push(onV2() ? v2Controls(relative) : v1Controls(relative));
    }
  }
  return found;
}

function v2Controls(relative: string): RunCpuControls {
  const read = (file: string) => readFileSync(join(V2, relative, file), "utf8").trim();
  const [quota, period] = read("cpu.max").split(" ");
  return { cpus: parseCpuList(read("cpuset.cpus")), weight: Number(read("cpu.weight")), quotaUsec: quota === "max" ? "max" : Number(quota), periodUsec: Number(period) };
}

function v1Controls(relative: string): RunCpuControls {
  const quota = Number(readFileSync(join(CPU, relative, "cpu.cfs_quota_us"), "utf8"));
  return {
    cpus: parseCpuList(readFileSync(join(CPUSET, relative, "cpuset.cpus"), "utf8")),
    weight: Number(readFileSync(join(CPU, relative, "cpu.shares"), "utf8")),
    quotaUsec: quota === -1 ? "max" : quota,
    periodUsec: Number(readFileSync(join(CPU, relative, "cpu.cfs_period_us"), "utf8")),
  };
}

const usableCpus = () => parseCpuList(readFileSync(onV2() ? join(V2, "cpuset.cpus.effective") : join(CPUSET, "cpuset.effective_cpus"), "utf8"));

// Whether the controls keep a run's timing is measured by `npm run bench:isolation`, not here: a
// timing ratio asserted on a slow or emulated machine fails for the machine's sake. This test
// asserts the mechanism: both runs live at once, each under its slot's controls as planned.
for (const policy of ["dedicated", "shared"] as const) describe(`a neighbour with 64 busy threads (${policy} cores)`, () => {
  let sandbox: Sandbox;
  let slots = 0;
  const stateDir = tempStateDir();
  before(async () => {
    if (!requireKernel()) return;
    // shared: twice as many slots as cores, so each run is held to half a core by its quota
    slots = policy === "dedicated" ? 2 : 2 * availableParallelism();
    sandbox = await Sandbox.create({ stateDir, slots, cgroupParent: PARENT, cpuPolicy: policy });
  });
  after(async () => {
    await sandbox?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it("both runs hold their own CPU controls at once, and the run beside the neighbour is AC", async (t) => {
    if (!requireKernel(t)) return;
    assert.equal(sandbox.health().cpuMode, policy);
    const neighbour = sandbox.run({
      argv: ["/bin/sh", "-c", "for i in $(seq 64); do (while :; do :; done) & done; wait"],
      limits: { ...RUN_LIMITS, processes: 128, wallTimeMs: 3_000 },
    });
    const victim = sandbox.run({
      argv: ["/usr/bin/python3", "-c", "s = 0\nfor i in range(1_000_000): s += i\nprint(s)"],
      limits: { ...RUN_LIMITS, wallTimeMs: 120_000, cpuTimeMs: 60_000 },
    });
    const both = await whileRunning(Promise.all([neighbour, victim]), () => {
      const live = busyRunControls();
      return live.length >= 2 ? live : undefined;
    });
    const [hostile, result] = [(await neighbour).result, (await victim).result];
    assert.equal(hostile.verdict, "TLE", `${hostile.error_message} wall ${hostile.wall_time_secs}s`);
    assert.equal(result.verdict, "AC", `${result.error_message} wall ${result.wall_time_secs}s`);
    assert.equal(result.stdout.trim(), String((1_000_000 * 999_999) / 2));
    assert.ok(result.evidence.controls_applied.includes("cpu_isolation"));
    const cpus = usableCpus();
    const equalWeight = onV2() ? CPU_WEIGHT_V2 : CPU_SHARES_V1;
    for (const controls of both) {
      assert.equal(controls.weight, equalWeight);
      assert.equal(controls.periodUsec, CPU_PERIOD_USEC);
    }
    if (policy === "dedicated") {
      const [a, b] = both.map((controls) => controls.cpus);
      assert.equal(a!.length, 1);
      assert.equal(b!.length, 1);
      assert.notDeepEqual(a, b, "the two runs share no core");
      for (const controls of both) assert.equal(controls.quotaUsec, "max");
    } else {
      for (const controls of both) {
        assert.deepEqual(controls.cpus, cpus);
        assert.equal(controls.quotaUsec, Math.round((cpus.length / slots) * CPU_PERIOD_USEC));
      }
    }
  });
});

/** The pids of `parent`'s children named `comm`, with their command lines. */
function childrenNamed(parent: number, comm: string): { pid: number; cmdline: string[] }[] {
  const found: { pid: number; cmdline: string[] }[] = [];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    const stat = readIfPresent(`/proc/${entry}/stat`);
    const close = stat.lastIndexOf(")");
    if (close < 0 || stat.slice(stat.indexOf("(") + 1, close) !== comm) continue;
    if (Number(stat.slice(close + 2).split(" ")[1]) !== parent) continue;
    found.push({ pid: Number(entry), cmdline: readIfPresent(`/proc/${entry}/cmdline`).split("\0").filter(Boolean) });
  }
  return found;
}

function allowedCpus(pid: number): number[] {
  const line = readIfPresent(`/proc/${pid}/status`).split("\n").find((l) => l.startsWith("Cpus_allowed_list:"));
  return line ? parseCpuList(line.split(":")[1]!.trim()) : [];
}

describe("where the launcher's processes wait (dedicated cores)", () => {
  const stateDir = tempStateDir();
  after(() => rmSync(stateDir, { recursive: true, force: true }));
  const cores = allowedCpus(process.pid);

  /** The zygote of the sandbox whose state is under `dir`, and its spares once they have settled. */
  async function zygoteAndSpares(dir: string): Promise<{ zygote: { pid: number; cmdline: string[] }; spares: number[][] }> {
    const zygote = childrenNamed(process.pid, "codecell-launch").find((child) => child.cmdline.some((arg) => arg.startsWith(dir)));
    assert.ok(zygote, "the zygote was not found");
    await new Promise((resolve) => setTimeout(resolve, 200)); // the spares of the runs just over
    const spares = childrenNamed(zygote.pid, "codecell-spare").map(({ pid }) => allowedCpus(pid));
    return { zygote, spares: spares.sort((a, b) => a[0]! - b[0]!) };
  }

  it("each slot's spares wait on the slot's own core; with every core a slot's, the node keeps none", async (t) => {
    if (!requireKernel(t)) return;
    const dir = join(stateDir, "every-core");
    const sandbox = await Sandbox.create({ stateDir: dir, slots: cores.length, cgroupParent: PARENT, cpuPolicy: "dedicated" });
    try {
      assert.equal(sandbox.health().ready, true, sandbox.health().reasons.join("; "));
      const results = await Promise.all(cores.map(() => sandbox.run(sleeper)));
      for (const { result } of results) assert.equal(result.verdict, "AC");
      const { zygote, spares } = await zygoteAndSpares(dir);
      assert.deepEqual(spares, cores.flatMap((core) => [[core], [core]]));
      assert.ok(!zygote.cmdline.includes("--housekeeping-cpus"), zygote.cmdline.join(" "));
    } finally {
      await sandbox.close();
    }
  });

  it("one slot on several cores: its spares wait on its core, the rest are the node's housekeeping cores", async (t) => {
    if (!requireKernel(t)) return;
    if (cores.length < 2) return t.skip("one core: no core is left to the node");
    const dir = join(stateDir, "one-slot");
    const sandbox = await Sandbox.create({ stateDir: dir, slots: 1, cgroupParent: PARENT, cpuPolicy: "dedicated" });
    try {
      assert.equal((await sandbox.run(sleeper)).result.verdict, "AC");
      const { zygote, spares } = await zygoteAndSpares(dir);
      assert.deepEqual(spares, [[cores[0]], [cores[0]]]);
      const flag = zygote.cmdline.indexOf("--housekeeping-cpus");
      assert.ok(flag > 0, zygote.cmdline.join(" "));
      assert.deepEqual(parseCpuList(zygote.cmdline[flag + 1]!), cores.slice(1));
    } finally {
      await sandbox.close();
    }
  });
});
