// No crash inside the sandbox starts the host's core dump helper, whatever its core_pattern
// (docs/sandbox.md "Core dumps"). The test sets a piped core_pattern, which changes the whole
// kernel: it runs only inside the cgroup v2 VM (scripts/cgroup2-vm.sh, which runs every
// test/sandbox file), never on a host.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";
import { after, before } from "../hooks.ts";

const IN_VM = readFileSync("/proc/cmdline", "utf8").includes("codecell.cmd=");
const PATTERN = "/proc/sys/kernel/core_pattern";
/** The kernel starts a pipe helper from its own root, pid 1's (the VM's initramfs, not the chroot the tests run in). */
const HELPER_DIR = "/codecell-core-test";
const HOST_VIEW = join("/proc/1/root", HELPER_DIR);
const COUNT = join(HOST_VIEW, "count");

let sandbox: Sandbox;
let stateDir: string;
let crasher: string;
let savedPattern: string | undefined;

before(async () => {
  if (!IN_VM || !requireKernel()) return;
  stateDir = tempStateDir("codecell-core-");
  crasher = join(stateDir, "crasher");
  execFileSync("gcc", ["-O2", "-static", "-o", crasher, join(import.meta.dirname, "fixtures", "crasher.c")]);
  mkdirSync(HOST_VIEW, { recursive: true });
  rmSync(COUNT, { force: true });
  writeFileSync(join(HOST_VIEW, "helper"), `#!/bin/sh\necho "$1" >> ${HELPER_DIR}/count\ncat > /dev/null\n`);
  chmodSync(join(HOST_VIEW, "helper"), 0o755);
  savedPattern = readFileSync(PATTERN, "utf8").trim();
  writeFileSync(PATTERN, `|${HELPER_DIR}/helper %p`);
  sandbox = await Sandbox.create({ stateDir: join(stateDir, "sandbox"), slots: 1, cgroupParent: "codecell-test", firstId: 61_800 });
});
after(async () => {
  if (savedPattern !== undefined) writeFileSync(PATTERN, savedPattern);
  await sandbox?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  if (IN_VM) rmSync(HOST_VIEW, { recursive: true, force: true });
});

const helperRuns = (): string[] => (existsSync(COUNT) ? readFileSync(COUNT, "utf8").trim().split("\n").filter(Boolean) : []);

describe("core dumps", { skip: IN_VM ? false : "sets the kernel's core_pattern: runs only in the cgroup v2 VM (scripts/cgroup2-vm.sh), never on a host" }, () => {
  it("no crash in the sandbox starts the piped core_pattern helper; one outside it does", async (t) => {
    if (!requireKernel(t)) return;
    for (const how of ["segv", "abort", "lowered", "child"]) {
      const { result } = await sandbox.run({ argv: ["/opt/crasher", how], binds: [{ hostPath: crasher, sandboxPath: "/opt/crasher" }], limits: RUN_LIMITS });
      t.diagnostic(`${how}: ${result.verdict} signal ${result.signal ?? "-"} exit ${result.exit_code ?? "-"}`);
      if (how !== "child") assert.ok(result.signal === 11 || result.signal === 6, `${how}: ${JSON.stringify(result)}`);
    }
    // The control: the same program outside the sandbox, RLIMIT_CORE 0 as the old launcher set
    // it, does start the helper. Its line in the count file also says the helpers of the crashes
    // above (started synchronously by each crash) have had their turn.
    const control = spawnSync("sh", ["-c", `ulimit -c 0; exec ${crasher} segv`]);
    assert.equal(control.signal, "SIGSEGV");
    for (let i = 0; i < 600 && helperRuns().length === 0; i++) await sleep(100);
    assert.equal(helperRuns().length, 1, `helper runs (pids): ${helperRuns().join(", ")}`);
    const kernelLog = spawnSync("dmesg", [], { encoding: "utf8" }).stdout ?? "";
    t.diagnostic(kernelLog.split("\n").filter((line) => /RLIMIT_CORE|Aborting core/.test(line)).slice(-4).join(" | "));
  });
});
