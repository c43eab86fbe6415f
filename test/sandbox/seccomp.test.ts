// The seccomp allow-list (docs/sandbox.md "Seccomp"): the launcher's table against the documented
// one, then every system call number and every argument rule against the filter in real runs.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { LAUNCHER_PATH } from "../../fleet/src/sandbox/launcher.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import { SECCOMP_POLICY_VERSION, launcherSeccompPolicy } from "../../fleet/src/sandbox/policy.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";
import { after, before } from "../hooks.ts";
import { useSandbox } from "../kernel-fixtures.ts";
import { documentedPolicy, refusal, syscallNumbers } from "./seccomp-docs.ts";

/** Every number below this is probed: the x86-64 table ends near 470 today. */
const PROBE_END = 600;
/** uretprobe and uprobe: kernels since 6.15/6.16 pass them by every seccomp filter, and they
 * SIGILL a caller outside the kernel's own uprobe trampoline (docs/sandbox.md). */
const UNFILTERABLE = new Set([335, 336]);
const FIXTURES = join(import.meta.dirname, "fixtures");

const { sandbox } = useSandbox({ firstId: 61_700 });
const binDir = tempStateDir("codecell-seccomp-");
const binaries: Record<string, string> = {};

before(() => {
  if (!requireKernel()) return;
  for (const name of ["syscall-probe", "argument-probe"]) {
    binaries[name] = join(binDir, name);
    execFileSync("gcc", ["-O2", "-static", "-o", binaries[name], join(FIXTURES, `${name}.c`)]);
  }
});
after(() => rmSync(binDir, { recursive: true, force: true }));

/** Runs a probe in the sandbox; its stdout as "name" -> "result" pairs. */
async function probe(name: string, args: string[] = []): Promise<Map<string, string>> {
  const { result } = await sandbox.run({
    argv: [`/opt/${name}`, ...args],
    binds: [{ hostPath: binaries[name]!, sandboxPath: `/opt/${name}` }],
    limits: RUN_LIMITS,
  });
  assert.equal(result.verdict, "AC", `${name}: ${result.verdict} ${result.signal ?? ""} ${result.stderr}\n${result.stdout.slice(-400)}`);
  const lines = new Map<string, string>();
  for (const line of result.stdout.trim().split("\n")) {
    const [key = "", rc = "", errno = ""] = line.split(" ");
    lines.set(key, Number(rc) < 0 ? `errno ${errno}` : key.startsWith("personality") || key === "core-limit" ? `${rc} ${errno}` : Number(rc) === 0 ? "0" : "fd");
  }
  return lines;
}

describe("seccomp policy: the launcher's table is the documented one", () => {
  it("the launcher and TypeScript name the same policy version", (t) => {
    if (!requireKernel(t)) return;
    assert.equal(launcherSeccompPolicy(LAUNCHER_PATH).version, SECCOMP_POLICY_VERSION);
  });

  it("every listed call has the rule docs/sandbox.md gives it, by name and number; unlisted ones ENOSYS", (t) => {
    if (!requireKernel(t)) return;
    const policy = launcherSeccompPolicy(LAUNCHER_PATH);
    const numbers = syscallNumbers();
    assert.equal(policy.defaultAction, "ENOSYS");
    const launcher = new Map([...policy.entries.values()].map((entry) => [entry.name, entry.action]));
    assert.deepEqual(Object.fromEntries([...launcher].sort()), Object.fromEntries([...documentedPolicy()].sort()));
    for (const [nr, entry] of policy.entries) assert.equal(numbers.get(entry.name), nr, `${entry.name} is system call ${numbers.get(entry.name)}, the launcher says ${nr}`);
  });
});

describe("seccomp filter in a real run", () => {
  it(`every system call number from 0 to ${PROBE_END - 1} that the table refuses gets what the table says`, async (t) => {
    if (!requireKernel(t)) return;
    const documented = documentedPolicy();
    const nameOf = new Map([...syscallNumbers()].map(([name, nr]) => [nr, name]));
    for (const name of documented.keys()) assert.ok([...nameOf.values()].includes(name), `unknown system call in the docs: ${name}`);
    const expected = new Map<string, string>();
    for (let nr = 0; nr < PROBE_END; nr++) {
      const want = refusal(documented.get(nameOf.get(nr) ?? ""));
      if (want !== undefined && !UNFILTERABLE.has(nr)) expected.set(String(nr), want);
    }
    assert.ok(expected.size > 250, `${expected.size} numbers to probe`);
    const got = await probe("syscall-probe", [...expected.keys()]);
    const wrong = [...expected].filter(([nr, want]) => got.get(nr) !== want).map(([nr, want]) => `${nr} ${nameOf.get(Number(nr)) ?? "(none)"}: ${got.get(nr) ?? "no answer"}, not ${want}`);
    assert.deepEqual(wrong, []);
  });

  it("socket families other than AF_UNIX/AF_INET/AF_INET6, odd protocols, personalities and RLIMIT_CORE writes are refused", async (t) => {
    if (!requireKernel(t)) return;
    const got = await probe("argument-probe");
    const expected: Record<string, string> = {};
    for (const family of ["AF_ALG", "AF_TIPC", "AF_RDS", "AF_CAN", "AF_SMC", "AF_XDP", "AF_PACKET", "AF_NETLINK", "AF_VSOCK", "AF_KEY", "AF_BLUETOOTH", "AF_QIPCRTR"])
      for (const type of [1, 2, 5, 3]) expected[`socket:${family}:${type}`] = "errno 97";
    Object.assign(expected, {
      "socket:inet:sctp": "errno 93",
      "socket:inet6:sctp-seqpacket": "errno 94",
      "socket:inet:dccp": "errno 94",
      "socket:inet:mptcp": "errno 93",
      "socket:inet:raw": "errno 94",
      "socket:inet:ping": "errno 93",
      "socket:inet:udplite": "errno 93",
      "socket:unix:stream": "fd",
      "socket:unix:seqpacket": "fd",
      "socket:inet:tcp": "fd",
      "socket:inet6:udp": "fd",
      "socketpair:unix": "0",
      "socketpair:inet": "errno 97",
      "socketpair:tipc": "errno 97",
      "personality:query": "0 0",
      "personality:linux": "0 0",
      "personality:bsd": "errno 1",
      "personality:no-randomize": "errno 1",
      "personality:after": "0 0",
      "setrlimit:core": "errno 1",
      "prlimit64:core-set": "errno 1",
      "prlimit64:core-set-and-read": "errno 1",
      "prlimit64:core-read": "0",
      "core-limit": "1 1",
      "setrlimit:nofile": "0",
      "prlimit64:nofile-set": "0",
      sync: "0",
      syncfs: "0",
    });
    assert.deepEqual(Object.fromEntries(got), expected);
  });
});

describe("a launcher of another policy", () => {
  it("fails closed: the sandbox is not ready and runs nothing", async (t) => {
    if (!requireKernel(t)) return;
    const dir = tempStateDir();
    const stale = join(dir, "stale-launcher");
    writeFileSync(stale, "#!/bin/sh\necho 'version deny-list/1'\necho 'default allow'\n", { mode: 0o755 });
    const sandbox = await Sandbox.create({ stateDir: join(dir, "state"), slots: 1, cgroupParent: "codecell-test", launcherPath: stale });
    try {
      const health = sandbox.health();
      assert.equal(health.ready, false);
      assert.match(health.reasons.join("; "), /seccomp policy "deny-list\/1", this node expects allow-list\/1/);
      const { result } = await sandbox.run({ argv: ["/bin/true"], limits: RUN_LIMITS });
      assert.equal(result.verdict, "IE");
    } finally {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
