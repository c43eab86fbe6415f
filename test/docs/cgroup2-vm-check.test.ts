// `npm run test:cgroup2` on a machine without its tools names each missing one and the package that
// brings it, before anything starts (scripts/cgroup2-vm.sh, docs/testing.md). The script runs here
// with /boot, /lib/modules, /bin/busybox and PATH moved to places this test makes, so what the
// machine itself has installed decides nothing.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { after } from "../hooks.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");
const SCRIPT = join(ROOT, "scripts", "cgroup2-vm.sh");
const hostCommand = (name: string) => execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
const BASH = hostCommand("bash");

describe("scripts/cgroup2-vm.sh --check", () => {
  const dir = mkdtempSync(join(tmpdir(), "cgroup2-vm-check-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const place = (name: string) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const executable = (path: string) => {
    writeFileSync(path, "#!/bin/sh\nexit 0\n");
    chmodSync(path, 0o755);
    return path;
  };
  const run = (env: Record<string, string>) => {
    const result = spawnSync(BASH, [SCRIPT, "--check"], { encoding: "utf8", env: { HOME: dir, ...env } });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  const empty = place("empty");
  const boot = place("boot");
  writeFileSync(join(boot, "vmlinuz-9.9.9-test"), "");
  writeFileSync(join(boot, "vmlinuz-10.0.0-test"), "");
  const modules = place("modules");
  mkdirSync(join(modules, "10.0.0-test"));
  const bin = place("bin");
  for (const tool of ["qemu-system-x86_64", "cpio", "gzip", "find"]) executable(join(bin, tool));
  for (const tool of ["sort", "tail"]) symlinkSync(hostCommand(tool), join(bin, tool));
  const busybox = executable(join(dir, "busybox"));

  it("with nothing installed: every missing tool and its package, status 2, nothing started", () => {
    const result = run({ PATH: empty, CGROUP2_VM_BOOT: empty, CGROUP2_VM_MODULES: empty, CGROUP2_VM_BUSYBOX: join(empty, "busybox") });
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.deepEqual(result.stderr.split("\n"), [
      "cgroup2-vm: cannot start the VM; missing:",
      `  a kernel: no ${empty}/vmlinuz-* (apt-get install linux-image-amd64)`,
      "  qemu-system-x86_64 (apt-get install qemu-system-x86)",
      `  a static busybox: no ${empty}/busybox (apt-get install busybox-static)`,
      "  cpio (apt-get install cpio)",
      "  gzip (apt-get install gzip)",
      "  find (apt-get install findutils)",
      "cgroup2-vm: scripts/provision.sh --test-tools installs all of them (as root).",
      "",
    ]);
  });

  it("with every tool present: ready, naming the newest kernel by version", () => {
    const result = run({ PATH: bin, CGROUP2_VM_BOOT: boot, CGROUP2_VM_MODULES: modules, CGROUP2_VM_BUSYBOX: busybox });
    assert.equal(result.stderr, "");
    assert.equal(result.status, 0);
    assert.equal(result.stdout, `cgroup2-vm: ready: kernel ${boot}/vmlinuz-10.0.0-test, ${bin}/qemu-system-x86_64, ${busybox}\n`);
  });

  it("a kernel without its modules and a dynamically linked busybox are named too", () => {
    const dynamic = hostCommand("bash");
    const result = run({ PATH: `${bin}:${empty}:/usr/bin:/bin`, CGROUP2_VM_BOOT: boot, CGROUP2_VM_MODULES: empty, CGROUP2_VM_BUSYBOX: dynamic });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, new RegExp(`the kernel's modules: no ${empty}/10\\.0\\.0-test \\(apt-get install --reinstall linux-image-10\\.0\\.0-test\\)`));
    assert.ok(result.stderr.includes(`a static busybox: ${dynamic} is linked dynamically`), result.stderr);
    assert.ok(!result.stderr.includes("qemu-system-x86_64 ("), result.stderr);
  });
});
