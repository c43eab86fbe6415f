// Tenants isolated from each other and from the host's names (real kernel): no signal leaves a
// run, no host-wide kernel quota or watch is reachable, nothing in /proc names the host, and a run
// has its own POSIX shared memory, charged to its own memory limit.
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import type { Engine } from "../../fleet/src/engine.ts";
import { createEngine } from "../../fleet/src/node-engine.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";

const MiB = 1024 * 1024;
let engine: Engine;
let sandbox: Sandbox;
let stateDir: string;

before(async () => {
  if (!requireKernel()) return;
  stateDir = tempStateDir();
  engine = await createEngine({ stateDir: `${stateDir}/engine`, slots: 2, cgroupParent: "codecell-test-tenants" });
  sandbox = await Sandbox.create({ stateDir: `${stateDir}/sandbox`, slots: 1, cgroupParent: "codecell-test-tenants", firstId: 63_000 });
});
after(async () => {
  await engine?.close();
  await sandbox?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

const run = async (language: string, code: string) => (await engine.execute({ language, code, stdin: "" })).result;

describe("tenants isolated from each other", () => {
  it("kill(0) and killpg from a run reach only that run: a concurrent run, the node and the zygote see nothing", async (t) => {
    if (!requireKernel(t)) return;
    let received = 0;
    const count = () => received++;
    process.on("SIGCONT", count);
    try {
      const attacker = run("python", `import os, signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGCONT, signal.SIG_IGN)
time.sleep(0.3)
os.kill(0, signal.SIGTERM)
os.kill(0, signal.SIGCONT)
os.killpg(os.getpgrp(), signal.SIGCONT)
print(os.getsid(0) == os.getpid(), os.getpgrp() == os.getpid())`);
      const neighbour = run("python", "import time\ntime.sleep(1.0)\nprint('alive')");
      const [a, b] = await Promise.all([attacker, neighbour]);
      assert.equal(a.verdict, "AC", a.stderr);
      assert.equal(a.stdout, "True True\n", "the program leads a session and a process group of its own");
      assert.ok(a.evidence.controls_applied.includes("session"));
      assert.equal(b.verdict, "AC", `the neighbour was reached: ${b.verdict} ${b.error_message}`);
      assert.equal(b.stdout, "alive\n");
      assert.equal(received, 0, "the node process received the run's SIGCONT");
      const next = await run("python", "print('zygote alive')");
      assert.equal(next.stdout, "zygote alive\n");
    } finally {
      process.off("SIGCONT", count);
    }
  });

  it("/proc/self/cgroup shows / in every hierarchy (a cgroup namespace per run)", async (t) => {
    if (!requireKernel(t)) return;
    const r = await run("python", "print(open('/proc/self/cgroup').read(), end='')");
    assert.equal(r.verdict, "AC", r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.ok(lines.length >= 1);
    for (const line of lines) assert.match(line, /:\/$/, `a cgroup path is shown: ${line}`);
    assert.ok(r.evidence.controls_applied.includes("cgroup_namespace"));
  });

  it("host-wide kernel quotas and watches are refused: AIO, inotify, modify_ldt, MPTCP; ordinary sockets still open", async (t) => {
    if (!requireKernel(t)) return;
    const r = await run("python", `import ctypes, errno, socket
libc = ctypes.CDLL(None, use_errno=True)
def sc(name, nr, *args):
    ctypes.set_errno(0)
    ret = libc.syscall(nr, *args)
    print(name, ret, errno.errorcode.get(ctypes.get_errno(), ctypes.get_errno()))
ctx = ctypes.c_ulong(0)
sc("io_setup", 206, 8, ctypes.byref(ctx))
sc("io_submit", 209, 0, 0, 0)
sc("inotify_init1", 294, 0)
sc("inotify_init", 253)
sc("modify_ldt", 154, 0, 0, 0)
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)
    print("mptcp allowed")
except OSError as e:
    print("mptcp", errno.errorcode[e.errno])
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
print("tcp socket", s.fileno() > 2)`);
    assert.equal(r.verdict, "AC", r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n"), [
      "io_setup -1 ENOSYS", "io_submit -1 ENOSYS", "inotify_init1 -1 ENOSYS", "inotify_init -1 ENOSYS",
      "modify_ldt -1 EPERM", "mptcp EPROTONOSUPPORT", "tcp socket True",
    ]);
  });
});

describe("nothing of the host's names inside", () => {
  it("mountinfo names no host path, whatever the toolchain or artifact (C from the compile cache, Node's binary)", async (t) => {
    if (!requireKernel(t)) return;
    const show = { c: `#include <stdio.h>\nint main(void){FILE*f=fopen("/proc/self/mountinfo","r");int ch;while((ch=fgetc(f))!=EOF)putchar(ch);return 0;}`,
      javascript: `process.stdout.write(require("fs").readFileSync("/proc/self/mountinfo", "utf8"))` };
    for (const [language, code] of Object.entries(show)) {
      const r = await run(language, code);
      assert.equal(r.verdict, "AC", r.stderr);
      for (const host of [stateDir, process.cwd(), "/root", "node_modules", "compile-cache", "/tmp/"]) {
        assert.ok(!r.stdout.includes(host), `${language}: mountinfo shows ${host}:\n${r.stdout}`);
      }
      // Every mount's source path (the fourth field) is the sandbox path itself or neutral.
      for (const line of r.stdout.trim().split("\n")) {
        const [, , , root, mountPoint] = line.split(" ");
        // "/" (a file system of the sandbox's own, or a hidden bind's overlay), the sandbox path itself
        // (/usr), a /proc mask, or a hidden file bind's own name (the artifact's content hash).
        assert.ok(root === "/" || root === mountPoint || root!.startsWith("/.proc-mask") || /^\/[^/]+$/.test(root!),
          `${language}: ${line}`);
      }
    }
  });

  it("the host's boot id, load and fork counter are not readable; the CPU count still is", async (t) => {
    if (!requireKernel(t)) return;
    const r = await run("python", `import os
print(open("/proc/sys/kernel/random/boot_id").read().strip())
print(open("/proc/loadavg").read().strip())
stat = open("/proc/stat").read().split("\\n")
print([l for l in stat if l.startswith("processes")][0])
print([l for l in stat if l.startswith("ctxt")][0])
print(os.cpu_count())`);
    assert.equal(r.verdict, "AC", r.stderr);
    const [bootId, loadavg, processes, ctxt, cpus] = r.stdout.trim().split("\n");
    assert.match(bootId!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(bootId, readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
    assert.equal(loadavg, "0.00 0.00 0.00 1/1 1");
    assert.equal(processes, "processes 0");
    assert.equal(ctxt, "ctxt 0");
    assert.equal(Number(cpus), Number(readFileSync("/proc/stat", "utf8").split("\n").filter((l) => /^cpu\d/.test(l)).length));
  });

  it("/etc comes from the sandbox's own root: its passwd, not the host's, and no mount for it", async (t) => {
    if (!requireKernel(t)) return;
    const r = await run("python", `print(open("/etc/passwd").read(), end="")
print(any(" /etc/passwd " in l for l in open("/proc/self/mountinfo")))`);
    assert.equal(r.verdict, "AC", r.stderr);
    assert.match(r.stdout, /^root:x:0:0::\/:\/usr\/sbin\/nologin\nrunner0:x:/);
    assert.ok(!r.stdout.includes(readFileSync("/etc/passwd", "utf8").split("\n")[1]!));
    assert.match(r.stdout, /False\n$/);
  });
});

describe("POSIX shared memory per run", () => {
  it("multiprocessing.Lock() and a Queue work", async (t) => {
    if (!requireKernel(t)) return;
    const r = await run("python", `import multiprocessing as mp
lock = mp.Lock()
with lock:
    q = mp.Queue()
    q.put(41)
    print(q.get() + 1)`);
    assert.equal(r.verdict, "AC", r.stderr);
    assert.equal(r.stdout, "42\n");
  });

  it("what a run puts in /dev/shm counts against its memory limit, and is gone with the run", async (t) => {
    if (!requireKernel(t)) return;
    const limits = { ...RUN_LIMITS, memoryBytes: 32 * MiB, wallTimeMs: 8_000 };
    // 4 files of 12 MiB (each below the 16 MiB file-size limit): 48 MiB against a 32 MiB limit.
    const fill = await sandbox.run({ argv: ["/bin/sh", "-c", "for i in 1 2 3 4; do head -c 12582912 /dev/zero > /dev/shm/f$i || exit 1; done; echo kept"], limits });
    assert.equal(fill.result.verdict, "MLE", `${fill.result.verdict}: ${fill.result.stdout} ${fill.result.stderr}`);
    const next = await sandbox.run({ argv: ["/bin/sh", "-c", "ls -A /dev/shm | wc -l"], limits });
    assert.equal(next.result.verdict, "AC", next.result.stderr);
    assert.equal(next.result.stdout.trim(), "0");
  });
});
