// Isolation properties on the real kernel: what a hostile program can see and do.
import assert from "node:assert/strict";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import type { Engine } from "../../fleet/src/engine.ts";
import { createEngine } from "../../fleet/src/node-engine.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { expectedIa32Death, ia32Control, probeIa32Entry } from "../../fleet/src/sandbox/ia32.ts";
import { LAUNCHER_PATH } from "../../fleet/src/sandbox/launcher.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";

let engine: Engine;
let sandbox: Sandbox;
let stateDir: string;
let server: Server;
let port = 0;
/** Whether this kernel takes the i386 entry at all: decides which mechanism must stop the call. */
const IA32_ENTRY = probeIa32Entry(LAUNCHER_PATH);

before(async () => {
  if (!requireKernel()) return;
  stateDir = tempStateDir();
  engine = await createEngine({ stateDir: `${stateDir}/engine`, slots: 2, cgroupParent: "codecell-test" });
  sandbox = await Sandbox.create({ stateDir: `${stateDir}/sandbox`, slots: 1, cgroupParent: "codecell-test", firstId: 61_000 });
  server = createServer((socket) => socket.end("host secret\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
after(async () => {
  server?.close();
  await engine?.close();
  await sandbox?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

const py = async (code: string) => (await engine.execute({ language: "python", code, stdin: "" })).result;
const c = async (code: string) => (await engine.execute({ language: "c", code, stdin: "" })).result;

describe("isolation", { skip: !quietKernel() }, () => {
  it("runs as an unprivileged uid/gid with no capabilities, no_new_privs and seccomp", async () => {
    const result = await py(`import os
status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
print(os.getuid(), os.geteuid(), os.getgid(), os.getgroups())
for key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"):
    print(key, status[key].strip())`);
    assert.equal(result.verdict, "AC", result.stderr);
    const lines = result.stdout.trim().split("\n");
    const [uid, euid, gid] = lines[0]!.split(" ").map(Number);
    assert.ok(uid! >= 60_000 && uid === euid && gid === uid, lines[0]);
    for (const cap of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]) assert.ok(lines.includes(`${cap} 0000000000000000`), cap);
    assert.ok(lines.includes("NoNewPrivs 1"));
    assert.ok(lines.includes("Seccomp 2"));
  });

  it("concurrent slots run under distinct uids", async () => {
    const code = "import os, time\ntime.sleep(0.3)\nprint(os.getuid())";
    const [a, b] = await Promise.all([py(code), py(code)]);
    assert.notEqual(a.stdout, b.stdout);
  });

  it("sees a minimal read-only root, its own /proc, a minimal /dev and a fixed environment", async () => {
    const result = await py(`import os, socket
print(sorted(os.listdir("/")))
print(sorted(p for p in os.listdir("/proc") if p.isdigit()))
print(sorted(os.listdir("/dev")))
print(sorted(os.environ))
print(socket.gethostname())
for path in ("/usr/x", "/etc/x", "/x"):
    try:
        open(path, "w"); print("wrote", path)
    except OSError as e:
        print("denied", path, e.errno)
open("/box/ok", "w").write("fine"); open("/tmp/ok", "w").write("fine"); print("box and tmp writable")`);
    assert.equal(result.verdict, "AC", result.stderr);
    const [root, pids, dev, env, hostname, ...rest] = result.stdout.trim().split("\n");
    assert.equal(root, "['bin', 'box', 'dev', 'etc', 'lib', 'lib64', 'proc', 'sbin', 'tmp', 'usr']");
    assert.equal(pids, "['1', '2']");
    for (const name of ["null", "zero", "random", "urandom"]) assert.ok(dev!.includes(`'${name}'`), dev);
    assert.ok(!dev!.includes("'sda'") && !dev!.includes("'vda'") && !dev!.includes("'mem'"), dev);
    assert.equal(env, "['HOME', 'LANG', 'LC_ALL', 'LOGNAME', 'PATH', 'PYTHONDONTWRITEBYTECODE', 'PYTHONHASHSEED', 'PYTHONUNBUFFERED', 'TMPDIR', 'USER']");
    assert.equal(hostname, "sandbox");
    assert.deepEqual(rest.slice(0, 3).map((line) => line.split(" ")[0]), ["denied", "denied", "denied"]);
    assert.equal(rest[3], "box and tmp writable");
  });

  it("cannot read /etc/shadow, /root, /home or the project tree", async () => {
    const result = await py(`import os
for path in ("/etc/shadow", "/root", "/home", ${JSON.stringify(process.cwd())}, "/proc/1/root/etc/shadow", "/sys/fs/cgroup"):
    try:
        print(path, "visible", os.listdir(path) if os.path.isdir(path) else open(path).read()[:20])
    except OSError as e:
        print(path, "hidden", e.errno)`);
    assert.equal(result.verdict, "AC", result.stderr);
    for (const line of result.stdout.trim().split("\n")) assert.match(line, / hidden \d+$/, line);
    assert.ok(existsSync("/etc/shadow"), "the host does have /etc/shadow");
  });

  it("has no network: loopback and public addresses are unreachable", async () => {
    const result = await py(`import socket
for host in ("127.0.0.1", "203.0.113.1"):
    s = socket.socket(); s.settimeout(2)
    try:
        s.connect((host, ${port})); print(host, "connected", s.recv(100))
    except OSError as e:
        print(host, "refused", e.errno)`);
    assert.equal(result.verdict, "AC", result.stderr);
    assert.match(result.stdout, /^127\.0\.0\.1 refused \d+\n203\.0\.113\.1 refused \d+\n$/);
  });

  it("seccomp refuses kernel attack surface", async () => {
    const result = await c(`#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/vm_sockets.h>
#include <linux/netlink.h>
static void check(const char *name, long rc) { printf("%s %s %d\\n", name, rc == -1 ? "refused" : "ALLOWED", rc == -1 ? errno : 0); }
int main(void) {
  check("mount", mount("none", "/tmp", "tmpfs", 0, 0));
  check("umount", umount2("/tmp", MNT_DETACH));
  check("unshare", unshare(CLONE_NEWUSER));
  check("setns", setns(0, 0));
  check("clone_newuser", syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0));
  check("ptrace", ptrace(PTRACE_TRACEME, 0, 0, 0));
  check("bpf", syscall(SYS_bpf, BPF_PROG_LOAD, 0, 0));
  check("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0));
  check("add_key", syscall(SYS_add_key, "user", "x", "y", 1, 0));
  check("perf_event_open", syscall(SYS_perf_event_open, 0, 0, -1, -1, 0));
  check("userfaultfd", syscall(SYS_userfaultfd, 0));
  check("io_uring_setup", syscall(SYS_io_uring_setup, 1, 0));
  check("kexec_load", syscall(SYS_kexec_load, 0, 0, 0, 0));
  check("init_module", syscall(SYS_init_module, 0, 0, ""));
  check("reboot", syscall(SYS_reboot, 0, 0, 0, 0));
  check("swapon", syscall(SYS_swapon, "/x", 0));
  check("acct", syscall(SYS_acct, "/x"));
  check("pivot_root", syscall(SYS_pivot_root, "/", "/"));
  check("chroot", chroot("/"));
  check("netlink", socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE));
  check("vsock", socket(AF_VSOCK, SOCK_STREAM, 0));
  return 0;
}`);
    assert.equal(result.verdict, "AC", result.stderr);
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines.length, 21);
    // EPERM from the filter, not EFAULT/EINVAL/EBADF from the kernel: keyctl, io_uring_setup,
    // perf_event_open and setns with these arguments would fail differently without seccomp.
    for (const line of lines) {
      if (/^(netlink|vsock) /.test(line)) assert.match(line, / refused (1|97)$/, line);
      else assert.match(line, / refused 1$/, line);
    }
  });

  it(`no 32-bit system call reaches the kernel (this kernel: ${IA32_ENTRY === "refused_by_kernel" ? "the i386 entry faults before seccomp" : "seccomp kills the i386 entry"})`, async () => {
    const result = await c(`#include <stdio.h>
int main(void){ long ret; printf("before\\n"); fflush(stdout);
  __asm__ volatile ("int $0x80" : "=a"(ret) : "a"(20)); /* i386 getpid */
  printf("after %ld\\n", ret); return 0; }`);
    const expected = expectedIa32Death(IA32_ENTRY);
    assert.equal(result.verdict, "RE");
    assert.equal(result.signal, expected.signal);
    assert.equal(result.evidence.verdict_cause, expected.cause);
    assert.equal(result.stdout, "before\n");
    assert.ok(result.evidence.controls_applied.includes(ia32Control(IA32_ENTRY)), result.evidence.controls_applied.join(","));
  });

  it("never follows a symlink, hard link or special file planted where the host reads", async () => {
    const secret = "/etc/shadow";
    // Python ignores SIGXFSZ by default; restore it so the death triggers the host's file scan.
    const plant = (what: string) => `import os, signal
${what}
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
os.kill(os.getpid(), signal.SIGXFSZ)`;
    for (const [what, reason] of [
      [`os.symlink("${secret}", "artifact")`, "symlink"],
      [`open("real", "w").write("x"); os.link("real", "artifact")`, "hard link"],
      [`os.mkfifo("artifact")`, "fifo"],
      [`os.symlink("/usr/lib", "/tmp/big"); os.symlink("/usr/lib", "/box/dir")`, "symlinked dirs in the fsize scan"],
    ] as const) {
      const outcome = await sandbox.run({
        argv: ["/usr/bin/python3", "-c", plant(what)],
        outputFiles: [{ name: "artifact", maxBytes: 1 << 20 }],
        limits: { ...RUN_LIMITS, fileSizeBytes: 4096 },
      });
      assert.equal(outcome.result.verdict, "SIG", `${reason}: ${outcome.result.stderr}`);
      assert.equal(outcome.outputFiles.size, 0, reason);
    }
  });

  it("the host's staging files for a run are gone afterwards", async () => {
    const staging = readdirSync(`${stateDir}/sandbox/run`).flatMap((instance) =>
      readdirSync(`${stateDir}/sandbox/run/${instance}`).filter((name) => name.startsWith("staging-")).flatMap((dir) => readdirSync(`${stateDir}/sandbox/run/${instance}/${dir}`)),
    );
    assert.deepEqual(staging, []);
  });
});

function quietKernel(): boolean {
  try {
    return requireKernel();
  } catch {
    return true;
  }
}
