// Fail closed: when a control cannot be applied nothing runs, the result is IE naming the
// control, and the node reports itself not ready. The failures here are real, not simulated.
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { describe, it } from "node:test";
import { after } from "../hooks.ts";
import { detectCgroupDriver } from "../../fleet/src/sandbox/cgroup/detect.ts";
import type { CgroupDriver, CgroupLimits } from "../../fleet/src/sandbox/cgroup/driver.ts";
import { CgroupV1Driver } from "../../fleet/src/sandbox/cgroup/v1.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import { hostProcessesWith, requireKernel, tempStateDir } from "../helpers.ts";

const stateDirs: string[] = [];
after(() => stateDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("fail closed", () => {
  it("no usable cgroup hierarchy: not ready, and a run is IE without running", async (t) => {
    if (!requireKernel(t)) return;
    const stateDir = tempStateDir();
    stateDirs.push(stateDir);
    const missing = "/nonexistent-cgroupfs";
    const sandbox = await Sandbox.create({
      stateDir,
      slots: 1,
      cgroupDriver: new CgroupV1Driver({ memory: `${missing}/memory`, pids: `${missing}/pids`, cpuacct: `${missing}/cpuacct` }, "codecell"),
    });
    try {
      const health = sandbox.health();
      assert.equal(health.ready, false);
      assert.ok(health.reasons.some((reason) => reason.includes("cgroup v1 memory")), health.reasons.join("; "));
      assert.equal(existsSync(missing), false, "nothing may be created outside cgroupfs");
      const marker = `fail-closed-${process.pid}`;
      const { result } = await sandbox.run({ argv: ["/usr/bin/sleep", "5", marker], limits: RUN_LIMITS });
      assert.equal(result.verdict, "IE");
      assert.equal(result.evidence.isolation_mode, "none");
      assert.ok(result.evidence.controls_missing.includes("memory_limit"));
      assert.ok(result.evidence.controls_missing.includes("process_limit"));
      assert.deepEqual(result.evidence.controls_applied, []);
      assert.match(result.error_message ?? "", /was not run/);
      assert.deepEqual(await hostProcessesWith(marker), []);
    } finally {
      await sandbox.close();
    }
  });

  it("a root filesystem that cannot be assembled: IE naming the control, node not ready", async (t) => {
    if (!requireKernel(t)) return;
    const stateDir = tempStateDir();
    stateDirs.push(stateDir);
    const sandbox = await Sandbox.create({ stateDir, slots: 1, cgroupParent: "codecell-test" });
    try {
      assert.equal(sandbox.health().ready, true, sandbox.health().reasons.join("; "));
      const { result } = await sandbox.run({
        argv: ["/usr/bin/true"],
        binds: [{ hostPath: "/nonexistent/toolchain", sandboxPath: "/opt/toolchain" }],
        limits: RUN_LIMITS,
      });
      assert.equal(result.verdict, "IE");
      assert.equal(result.evidence.controls_missing[0], "root_filesystem");
      assert.equal(result.exit_code, null);
      assert.equal(result.evidence.isolation_mode, "none");
      const health = sandbox.health();
      assert.equal(health.ready, false);
      assert.ok(health.reasons.some((reason) => reason.includes("root_filesystem")), health.reasons.join("; "));
    } finally {
      await sandbox.close();
    }
  });

  it("a launcher that died: not ready, and a run is IE without running", async (t) => {
    if (!requireKernel(t)) return;
    const stateDir = tempStateDir();
    stateDirs.push(stateDir);
    const sandbox = await Sandbox.create({ stateDir, slots: 1, cgroupParent: "codecell-test" });
    try {
      assert.equal(sandbox.health().ready, true, sandbox.health().reasons.join("; "));
      // the zygote is this process's child; a run's launcher (its fork, same command line) is not
      const [zygote, ...others] = hostProcessesWith(`${stateDir}/run/`, process.pid);
      assert.ok(zygote !== undefined && others.length === 0, "exactly one launcher zygote for this sandbox");
      process.kill(zygote, "SIGKILL");
      for (let i = 0; i < 200 && sandbox.health().ready; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const health = sandbox.health();
      assert.equal(health.ready, false);
      assert.ok(health.reasons.some((reason) => reason.includes("launcher zygote exited")), health.reasons.join("; "));
      const marker = `after-zygote-death-${process.pid}`;
      const { result } = await sandbox.run({ argv: ["/usr/bin/sleep", "5", marker], limits: RUN_LIMITS });
      assert.equal(result.verdict, "IE");
      assert.equal(result.evidence.controls_missing[0], "launcher");
      assert.deepEqual(result.evidence.controls_applied, []);
      assert.deepEqual(hostProcessesWith(marker), []);
    } finally {
      await sandbox.close();
    }
  });
});

describe("a file the submission made that cannot be executed is its own fault, not the platform's", () => {
  it("exec format error, a missing file and a non-executable file are RE with a cause; the sandbox stays ready", async (t) => {
    if (!requireKernel(t)) return;
    const stateDir = tempStateDir();
    stateDirs.push(stateDir);
    const sandbox = await Sandbox.create({ stateDir, slots: 1, cgroupParent: "codecell-test", firstId: 61_100 });
    try {
      for (const [what, files, cause] of [
        ["not an executable format", [{ name: "prog", content: "!<arch>\nnot a program\n", executable: true }], "exec_format_error"],
        ["missing", [], "executable_missing"],
        ["not executable", [{ name: "prog", content: "#!/bin/sh\necho hi\n", executable: false }], "not_executable"],
      ] as const) {
        const { result } = await sandbox.run({ argv: ["/box/prog"], files: [...files], limits: RUN_LIMITS });
        assert.equal(result.verdict, "RE", what);
        assert.equal(result.evidence.verdict_cause, cause, what);
        assert.match(result.error_message ?? "", /^runtime error: the program/, what);
        assert.equal(result.evidence.isolation_mode, "strict", what);
        assert.deepEqual(sandbox.health().reasons, [], what);
      }
      assert.equal((await sandbox.run({ argv: ["/usr/bin/true"], limits: RUN_LIMITS })).result.verdict, "AC");
    } finally {
      await sandbox.close();
    }
  });

  it("a platform path that cannot be executed still fails closed", async (t) => {
    if (!requireKernel(t)) return;
    const stateDir = tempStateDir();
    stateDirs.push(stateDir);
    const sandbox = await Sandbox.create({ stateDir, slots: 1, cgroupParent: "codecell-test", firstId: 61_100 });
    try {
      const { result } = await sandbox.run({ argv: ["/usr/bin/no-such-toolchain"], limits: RUN_LIMITS });
      assert.equal(result.verdict, "IE");
      assert.equal(sandbox.health().ready, false);
      assert.ok(sandbox.health().reasons.some((reason) => reason.includes("exec")), sandbox.health().reasons.join("; "));
    } finally {
      await sandbox.close();
    }
  });
});

/** The real driver, with a platform fault that can be switched on and off: run cgroups cannot be made. */
class FaultyCgroups implements CgroupDriver {
  failing = false;
  readonly #inner: CgroupDriver;
  constructor(inner: CgroupDriver) {
    this.#inner = inner;
  }
  get version() {
    return this.#inner.version;
  }
  problems() {
    return this.#inner.problems();
  }
  cpus() {
    return this.#inner.cpus();
  }
  /** While failing, a used cgroup cannot be made ready again either (as when its files refuse): a new one is needed. */
  async create(name: string, limits: CgroupLimits) {
    if (this.failing) throw new Error("mkdir: No space left on device (injected)");
    const cgroup = await this.#inner.create(name, limits);
    const reuse = cgroup.reuse?.bind(cgroup);
    if (reuse) cgroup.reuse = async () => !this.failing && (await reuse());
    return cgroup;
  }
  close() {
    this.#inner.close();
  }
  removeStaleSiblings(isStale: (name: string) => boolean) {
    this.#inner.removeStaleSiblings(isStale);
  }
}

async function waitUntil(check: () => boolean, what: string, ms = 90_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
  }
}

describe("fail closed, then heal", () => {
  it("a cgroup that cannot be made: not ready with the reason and the next retry; ready again by itself once the fault is gone", async (t) => {
    if (!requireKernel(t)) return;
    const stateDir = tempStateDir();
    stateDirs.push(stateDir);
    const driver = detectCgroupDriver(`codecell-test/heal-${process.pid}`);
    assert.ok(typeof driver !== "string", String(driver));
    const faulty = new FaultyCgroups(driver);
    const sandbox = await Sandbox.create({ stateDir, slots: 1, cgroupDriver: faulty });
    try {
      assert.equal(sandbox.health().ready, true, sandbox.health().reasons.join("; "));
      faulty.failing = true;
      let result;
      for (let i = 0; i < 3 && result?.verdict !== "IE"; i++) ({ result } = await sandbox.run({ argv: ["/usr/bin/true"], limits: RUN_LIMITS }));
      assert.equal(result?.verdict, "IE");
      assert.equal(result?.evidence.controls_missing[0], "cgroup");
      const down = sandbox.health();
      assert.equal(down.ready, false);
      assert.ok(down.reasons.some((reason) => reason.includes("cannot create a run cgroup")), down.reasons.join("; "));
      assert.ok(down.reasons.some((reason) => /recovering: .*next self-check at \d{4}-/.test(reason)), down.reasons.join("; "));
      await waitUntil(() => sandbox.health().reasons.some((reason) => /self-check attempt\(s\) failed/.test(reason)), "a failed retry");
      assert.equal(sandbox.health().ready, false, "still not ready while the fault lasts");
      faulty.failing = false;
      await waitUntil(() => sandbox.health().ready, "recovery");
      assert.deepEqual(sandbox.health().reasons, []);
      assert.equal((await sandbox.run({ argv: ["/usr/bin/true"], limits: RUN_LIMITS })).result.verdict, "AC");
    } finally {
      await sandbox.close();
    }
  });

  it("a killed launcher zygote is started again and the node is ready without a restart", async (t) => {
    if (!requireKernel(t)) return;
    const stateDir = tempStateDir();
    stateDirs.push(stateDir);
    const sandbox = await Sandbox.create({ stateDir, slots: 1, cgroupParent: "codecell-test" });
    try {
      const [zygote] = hostProcessesWith(`${stateDir}/run/`, process.pid);
      assert.ok(zygote !== undefined);
      process.kill(zygote, "SIGKILL");
      await waitUntil(() => !sandbox.health().ready, "not ready");
      await waitUntil(() => sandbox.health().ready, "recovery");
      const [respawned, ...others] = hostProcessesWith(`${stateDir}/run/`, process.pid);
      assert.ok(respawned !== undefined && respawned !== zygote && others.length === 0, "one new zygote");
      assert.equal((await sandbox.run({ argv: ["/usr/bin/true"], limits: RUN_LIMITS })).result.verdict, "AC");
    } finally {
      await sandbox.close();
    }
  });
});
