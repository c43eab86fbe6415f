// The check server on the real kernel (docs/languages.md, "Custom checkers"; docs/sandbox.md,
// "Check server"): one sandbox in the partner slot answers a test set's checks (a dynamic checker
// forked from its warm start, a static one exec'd), each held to the
// checker's own limits, nothing of one check left for the next; once it is gone the checks left
// run in fresh sandboxes, with the same verdicts.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CheckServer, serverLimits } from "../../fleet/src/judge/programs/check-server.ts";
import { checkerJudge, CHECKER_LIMITS, type PreparedChecker } from "../../fleet/src/judge/programs/custom-checker.ts";
import { TESTS_WALL_BUDGET_MS } from "../../proto/submission-rules.ts";
import { requireKernel } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

const { sandbox } = useSandbox({ cgroupParent: "codecell-test-check-server", firstId: 62_000 });

/** A shell checker: `script` runs as check.sh with input.txt output.txt answer.txt. */
const checker = (script: string, limits: Partial<PreparedChecker["limits"]> = {}): PreparedChecker => ({
  argv: ["/bin/sh", "check.sh", "input.txt", "output.txt", "answer.txt"],
  files: [{ name: "check.sh", content: script }, { name: "prepared.txt", content: "kept\n" }],
  limits: { ...CHECKER_LIMITS, ...limits },
});

/** Runs `work` with a server of `spec`, as a test set does, and closes it. */
function served<T>(spec: PreparedChecker, tests: number, work: (server: CheckServer) => Promise<T>): Promise<T> {
  return sandbox.inJob(async () => {
    const server = new CheckServer(sandbox, spec, tests);
    try {
      return await work(server);
    } finally {
      await server.close();
    }
  });
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();

describe("check server", { concurrency: 1 }, () => {
  it("answers every check of a test set from one sandbox, its exit code and stderr each check's", async (t) => {
    if (!requireKernel(t)) return;
    const same = checker('cmp -s output.txt answer.txt || { echo "wrong: $(cat output.txt)" >&2; exit 1; }');
    await served(same, 3, async (server) => {
      const first = await server.check("1\n", "2\n", "2\n");
      const second = await server.check("1\n", "3\n", "2\n");
      const third = await server.check("", new Uint8Array(), "");
      assert.equal(first?.record.verdict, "AC", first?.record.error_message ?? server.gone);
      assert.equal(second?.record.exit_code, 1);
      assert.equal(second?.record.evidence.verdict_cause, "nonzero_exit");
      assert.equal(text(second!.stderr), "wrong: 3\n");
      assert.equal(third?.record.verdict, "AC");
      assert.equal(server.served, 3);
      assert.equal(server.gone, undefined);
    });
  });

  it("forks a dynamically linked checker from its warm start, and execs a static one for each check", async (t) => {
    if (!requireKernel(t)) return;
    const parents = "p=$(cut -d' ' -f4 /proc/$$/stat); echo \"$(cat /proc/$p/comm) $(cat /proc/$(cut -d' ' -f4 /proc/$p/stat)/comm)\" >&2; env | grep -c LD_PRELOAD >&2";
    const dynamic = await served(checker(parents), 2, async (server) => [await server.check("", "", ""), await server.check("", "", "")]);
    assert.deepEqual(dynamic.map((checked) => text(checked!.stderr)), ["sh checkd\n0\n", "sh checkd\n0\n"], "the warm shell forked each check; LD_PRELOAD is not in its environment");
    const dir = mkdtempSync(join(tmpdir(), "check-server-static-"));
    writeFileSync(join(dir, "static.c"), '#include <stdio.h>\n#include <unistd.h>\nint main(void) { char path[64], name[32] = ""; snprintf(path, sizeof path, "/proc/%d/comm", (int)getppid()); FILE *f = fopen(path, "r"); if (f && fgets(name, sizeof name, f)) fputs(name, stderr); return 0; }\n');
    execFileSync("cc", ["-static", "-O2", "-o", join(dir, "static"), join(dir, "static.c")]);
    const spec = { ...checker(""), argv: ["./static", "input.txt", "output.txt", "answer.txt"], files: [{ name: "static", content: readFileSync(join(dir, "static")), executable: true }] };
    rmSync(dir, { recursive: true, force: true });
    const staticChecks = await served(spec, 2, async (server) => [await server.check("", "", ""), await server.check("", "", "")]);
    assert.deepEqual(staticChecks.map((checked) => text(checked!.stderr)), ["checkd\n", "checkd\n"], "the server execs a static checker itself");
  });

  it("leaves no process and no file of one check for the next; the prepared files stay", async (t) => {
    if (!requireKernel(t)) return;
    const script = [
      'if [ "$(cat input.txt)" = first ]; then',
      "  sleep 1000 & (setsid sleep 1000 &)",
      "  echo x > left.txt; echo y > /tmp/left.txt; mkdir -p deep/er; echo z > deep/er/file; chmod 500 deep/er deep",
      "  echo changed > prepared.txt; exit 0",
      "fi",
      'for p in /proc/[0-9]*; do cat "$p/comm" 2>/dev/null; done | grep -c sleep >&2',
      "ls -A . >&2; ls -A /tmp | wc -l >&2",
    ].join("\n");
    await served(checker(script), 2, async (server) => {
      const first = await server.check("first", "", "");
      assert.equal(first?.record.verdict, "AC", first?.record.error_message ?? server.gone);
      const second = await server.check("second", "", "");
      assert.equal(second?.record.exit_code, 0, second?.record.error_message ?? server.gone);
      const [sleeps, ...rest] = text(second!.stderr).trim().split("\n");
      assert.equal(sleeps, "0", "no process of the first check is left");
      assert.deepEqual(rest, ["answer.txt", "check.sh", "input.txt", "output.txt", "prepared.txt", "0"], "only the prepared files and this check's");
    });
  });

  it("leaves no IPC object of one check for the next: System V's removed, /dev/shm emptied, no POSIX message queues", async (t) => {
    if (!requireKernel(t)) return;
    const probe = [
      "import ctypes, os, sys",
      "libc = ctypes.CDLL(None, use_errno=True)",
      "seen = []",
      "for name, get in (('shm', lambda f: libc.shmget(0x4c1, 4096, f)), ('msg', lambda f: libc.msgget(0x4c1, f)), ('sem', lambda f: libc.semget(0x4c1, 1, f))):",
      "    seen.append(name + (' old' if get(0) >= 0 else ' new'))",
      "    assert get(0o1600) >= 0, name",
      "seen.append('posix ' + ('old' if os.path.exists('/dev/shm/counter') else 'new'))",
      "open('/dev/shm/counter', 'w').close()",
      "libc.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]",
      "seen.append('mq %d' % (0 if libc.mq_open(b'/counter', 0o100 | 2, 0o600, None) >= 0 else ctypes.get_errno()))",
      "print(' '.join(seen), file=sys.stderr)",
    ].join("\n");
    const spec = { ...checker(""), argv: ["/usr/bin/python3", "check.py", "input.txt", "output.txt", "answer.txt"], files: [{ name: "check.py", content: probe }] };
    const seen = await served(spec, 3, async (server) => {
      const found: string[] = [];
      for (let i = 0; i < 3; i++) {
        const checked = await server.check("", "", "");
        assert.equal(checked?.record.exit_code, 0, `${checked ? text(checked.stderr) : ""} ${server.gone ?? ""}`);
        found.push(text(checked!.stderr).trim());
      }
      return found;
    });
    assert.deepEqual(seen, Array(3).fill("shm new msg new sem new posix new mq 38"));
  });

  it("copies the prepared files in again after each check: what one check wrote into them, the next does not read", async (t) => {
    if (!requireKernel(t)) return;
    const script = [
      "echo more >> prepared.txt; echo more >> data/deep.txt; echo new > data/added.txt",
      "echo \"$(wc -l < prepared.txt) $(wc -l < data/deep.txt) $(ls data | tr '\\n' ' ')$(stat -c %a check.sh)\" >&2",
      "chmod 700 check.sh; rm -f data/deep.txt",
    ].join("\n");
    const spec = { ...checker(script), files: [...checker(script).files!, { name: "data/deep.txt", content: "deep\n" }] };
    const seen = await served(spec, 3, async (server) => {
      const found: string[] = [];
      for (let i = 0; i < 3; i++) {
        const checked = await server.check("", "", "");
        assert.equal(checked?.record.exit_code, 0, `${checked ? text(checked.stderr) : ""} ${server.gone ?? ""}`);
        found.push(text(checked!.stderr).trim());
      }
      return found;
    });
    assert.deepEqual(seen, Array(3).fill("2 2 added.txt deep.txt 644"), "each check finds the files as they were prepared");
  });

  it("holds each check to the checker's CPU, wall and memory limits and goes on serving", async (t) => {
    if (!requireKernel(t)) return;
    const script = 'case "$(cat input.txt)" in cpu) while :; do :; done;; wall) sleep 1000;; memory) head -c 200000000 /dev/zero | tail > /dev/null;; esac; echo fine >&2';
    // The memory hog's pipe (head into tail) spends CPU in both, and a check's CPU counts its
    // children's: its CPU limit leaves room for that, its wall limit for the CPU limit.
    const limits = { cpuTimeMs: 1_500, wallTimeMs: 5_000, memoryBytes: 64 << 20 };
    await served(checker(script, limits), 4, async (server) => {
      const causes: string[] = [];
      for (const input of ["cpu", "wall", "memory", "none"]) {
        const checked = await server.check(input, "", "");
        assert.ok(checked, `the server answered ${input}: ${server.gone}`);
        causes.push(checked.record.evidence.verdict_cause);
      }
      assert.deepEqual(causes, ["cpu_timeout", "wall_timeout", "oom_kill", "normal_exit"]);
      assert.equal(server.served, 4);
    });
  });

  it("counts a check's children's CPU time with its own: a checker that spins in a child it waits for is cpu_timeout", async (t) => {
    if (!requireKernel(t)) return;
    const script = "sh -c 'while :; do :; done'; echo unreachable >&2";
    await served(checker(script, { cpuTimeMs: 300, wallTimeMs: 20_000 }), 1, async (server) => {
      const checked = await server.check("", "", "");
      assert.ok(checked, `the server answered: ${server.gone}`);
      assert.equal(checked.record.evidence.verdict_cause, "cpu_timeout", checked.record.error_message ?? "");
      assert.ok(checked.record.cpu_time_secs >= 0.3, `its CPU time counts the child's: ${checked.record.cpu_time_secs} s`);
    });
  });

  it("keeps the first 4 KiB of a check's stderr and drops the rest", async (t) => {
    if (!requireKernel(t)) return;
    await served(checker("head -c 1000000 /dev/zero | tr '\\0' x >&2; exit 1"), 1, async (server) => {
      const checked = await server.check("", "", "");
      assert.equal(checked?.stderr.byteLength, 4096, server.gone);
      assert.equal(checked?.record.exit_code, 1);
    });
  });

  it("a checker that kills its parent (the warm process) ends the server: that check and the rest run in fresh sandboxes, same verdicts", async (t) => {
    if (!requireKernel(t)) return;
    const spec = checker('kill -9 $PPID 2>/dev/null; cmp -s output.txt answer.txt');
    const program = await sandbox.run({ argv: ["/bin/echo", "42"], limits: CHECKER_LIMITS });
    const verdicts = await served(spec, 2, async (server) => {
      const judge = checkerJudge(sandbox, spec, undefined, server);
      const results = [await judge(program, "", "42\n"), await judge(program, "", "41\n")];
      assert.match(server.gone ?? "", /^it ended/);
      assert.equal(server.served, 0);
      return results.map((result) => `${result.verdict} ${result.evidence.verdict_cause}`);
    });
    assert.deepEqual(verdicts, ["AC normal_exit", "WA wrong_answer"]);
  });

  it("a checker that stops its warm process: no report comes, the node gives the server up and checks in fresh sandboxes", async (t) => {
    if (!requireKernel(t)) return;
    const spec = checker("kill -STOP $PPID 2>/dev/null; cmp -s output.txt answer.txt", { wallTimeMs: 1_000 });
    const program = await sandbox.run({ argv: ["/bin/echo", "42"], limits: CHECKER_LIMITS });
    const verdict = await served(spec, 1, async (server) => {
      const result = await checkerJudge(sandbox, spec, undefined, server)(program, "", "42\n");
      assert.equal(server.gone, "it sent no report in time");
      return `${result.verdict} ${result.evidence.verdict_cause}`;
    });
    assert.equal(verdict, "AC normal_exit");
    assert.deepEqual(sandbox.health().reasons, [], "a server given up is no platform fault");
  });

  it("holds the partner slot: an interactive pair of the same job is refused while the server lives", async (t) => {
    if (!requireKernel(t)) return;
    const sh = { argv: ["/bin/sh", "-c", "exit 0"], limits: CHECKER_LIMITS };
    await served(checker("exit 0"), 1, async (server) => {
      assert.equal((await server.check("", "", ""))?.record.verdict, "AC", server.gone);
      await assert.rejects(sandbox.runInteractive(sh, sh), /the slot's partner holds a run beside the job's/);
    });
    const after = await sandbox.inJob(() => sandbox.runInteractive(sh, sh));
    assert.equal(after.program.result.verdict, "AC", "the partner is free again once the server is closed");
  });

  it("without a partner slot to hold (no job holds a slot) it is gone at once and nothing runs in it", async (t) => {
    if (!requireKernel(t)) return;
    const server = new CheckServer(sandbox, checker("exit 0"), 1);
    assert.equal(await server.check("", "", ""), undefined);
    assert.match(server.gone ?? "", /^it could not start: no free partner slot/);
    await server.close();
  });
});

describe("the check server's own limits", () => {
  it("its CPU is bounded by the submission's tests budget, not the checker's CPU times the tests", () => {
    const checker = { ...CHECKER_LIMITS, cpuTimeMs: 5_000, wallTimeMs: 5_000 };
    const many = serverLimits(checker, 100);
    assert.ok(many.cpuTimeMs <= TESTS_WALL_BUDGET_MS + checker.cpuTimeMs + 1_000, `${many.cpuTimeMs} ms for 100 tests (was 501 s)`);
    assert.equal(serverLimits(checker, 3).cpuTimeMs, 16_000, "a small set: each check's CPU once, and a second");
    const narrow = serverLimits(checker, 100, 10_000);
    assert.equal(narrow.cpuTimeMs, 16_000, "the submission's own narrower budget, and the last check past it");
    assert.ok(narrow.wallTimeMs < many.wallTimeMs, "its wall time too");
  });
});
