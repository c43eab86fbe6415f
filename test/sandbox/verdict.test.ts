import assert from "node:assert/strict";
import { constants } from "node:os";
import { describe, it } from "node:test";
import { expectedIa32Death, ia32Control } from "../../fleet/src/sandbox/ia32.ts";
import { applyStatusLine, emptyReport, endedFirst } from "../../fleet/src/sandbox/launcher-report.ts";
import { filesFault } from "../../fleet/src/sandbox/program-fault.ts";
import { decideVerdict, type VerdictEvidence } from "../../fleet/src/sandbox/verdict.ts";

const { signals } = constants;
const base: VerdictEvidence = {
  cancelled: false,
  exit: { kind: "exited", code: 0 },
  wallTimeout: false,
  cpuTimeout: false,
  oomKills: 0,
  pidsLimitHits: 0,
  fileSizeLimitHits: 0,
};
const decide = (patch: Partial<VerdictEvidence>) => decideVerdict({ ...base, ...patch });

describe("verdict engine", () => {
  it("clean exit 0 is AC with no error message", () => {
    assert.deepEqual(decide({}), { verdict: "AC", cause: "normal_exit", actor: "runtime", errorMessage: null });
  });

  it("non-zero exit is RE", () => {
    const decision = decide({ exit: { kind: "exited", code: 3 } });
    assert.equal(decision.verdict, "RE");
    assert.equal(decision.cause, "nonzero_exit");
    assert.match(decision.errorMessage ?? "", /exit code 3/);
  });

  it("crash signals are RE with a named cause", () => {
    assert.equal(decide({ exit: { kind: "signaled", signal: signals.SIGSEGV } }).cause, "segmentation_fault");
    assert.equal(decide({ exit: { kind: "signaled", signal: signals.SIGFPE } }).verdict, "RE");
    assert.equal(decide({ exit: { kind: "signaled", signal: signals.SIGABRT } }).cause, "abort");
    assert.equal(decide({ exit: { kind: "signaled", signal: signals.SIGSYS } }).cause, "bad_system_call");
  });

  it("a signal the platform did not send is SIG, not an exit-code guess", () => {
    const decision = decide({ exit: { kind: "signaled", signal: signals.SIGTERM } });
    assert.equal(decision.verdict, "SIG");
    assert.equal(decision.actor, "runtime");
    assert.equal(decide({ exit: { kind: "signaled", signal: signals.SIGKILL } }).verdict, "SIG");
  });

  it("MLE needs the OOM killer: SIGKILL alone is not MLE", () => {
    assert.equal(decide({ exit: { kind: "signaled", signal: signals.SIGKILL }, oomKills: 1 }).verdict, "MLE");
    assert.equal(decide({ exit: { kind: "exited", code: 137 } }).verdict, "RE");
  });

  it("TLE needs the wall timer", () => {
    const decision = decide({ exit: { kind: "signaled", signal: signals.SIGKILL }, wallTimeout: true });
    assert.deepEqual([decision.verdict, decision.cause, decision.actor], ["TLE", "wall_timeout", "supervisor"]);
  });

  it("TLE on CPU time is the supervisor's cpu_timeout, whatever the program's own end", () => {
    for (const exit of [{ kind: "signaled" as const, signal: signals.SIGKILL }, { kind: "exited" as const, code: 0 }]) {
      const decision = decide({ exit, cpuTimeout: true });
      assert.deepEqual([decision.verdict, decision.cause, decision.actor], ["TLE", "cpu_timeout", "supervisor"]);
    }
  });

  it("FSE needs SIGXFSZ and a file at the limit; a self-raised SIGXFSZ is SIG", () => {
    assert.equal(decide({ exit: { kind: "signaled", signal: signals.SIGXFSZ }, fileSizeLimitHits: 1 }).verdict, "FSE");
    assert.equal(decide({ exit: { kind: "signaled", signal: signals.SIGXFSZ } }).verdict, "SIG");
    assert.equal(decide({ exit: { kind: "exited", code: 1 }, fileSizeLimitHits: 1 }).verdict, "RE");
  });

  it("precedence is IE > MLE > PLE > FSE > TLE > SIG > RE > AC", () => {
    const everything: Partial<VerdictEvidence> = {
      exit: { kind: "signaled", signal: signals.SIGXFSZ },
      wallTimeout: true,
      cpuTimeout: true,
      oomKills: 1,
      pidsLimitHits: 2,
      fileSizeLimitHits: 1,
    };
    assert.equal(decide({ ...everything, internalError: "x" }).verdict, "IE");
    assert.equal(decide(everything).verdict, "MLE");
    assert.equal(decide({ ...everything, oomKills: 0 }).verdict, "PLE");
    assert.equal(decide({ ...everything, oomKills: 0, pidsLimitHits: 0 }).verdict, "FSE");
    assert.equal(decide({ ...everything, oomKills: 0, pidsLimitHits: 0, fileSizeLimitHits: 0 }).verdict, "TLE");
    assert.equal(decide({ ...everything, oomKills: 0, pidsLimitHits: 0, fileSizeLimitHits: 0, wallTimeout: false }).cause, "cpu_timeout");
    assert.equal(decide({ ...everything, oomKills: 0, pidsLimitHits: 0, fileSizeLimitHits: 0, cpuTimeout: false }).cause, "wall_timeout");
  });

  it("a setup failure is IE naming the control, whatever else is known", () => {
    const decision = decide({ setupFailure: { control: "seccomp", message: "EINVAL" }, exit: undefined });
    assert.equal(decision.verdict, "IE");
    assert.match(decision.errorMessage ?? "", /seccomp/);
  });

  it("no exit status at all is IE, never AC", () => {
    assert.equal(decide({ exit: undefined }).verdict, "IE");
  });

  it("cancellation is IE by the supervisor", () => {
    const decision = decide({ cancelled: true, exit: { kind: "signaled", signal: signals.SIGKILL } });
    assert.deepEqual([decision.verdict, decision.actor, decision.errorMessage], ["IE", "supervisor", "cancelled"]);
  });
});

describe("the 32-bit system-call decision", () => {
  it("expects seccomp's SIGSYS where the kernel takes the i386 entry, the kernel's SIGSEGV where it faults", () => {
    assert.deepEqual(expectedIa32Death("reaches_kernel"), { signal: signals.SIGSYS, cause: "bad_system_call" });
    assert.deepEqual(expectedIa32Death("refused_by_kernel"), { signal: signals.SIGSEGV, cause: "segmentation_fault" });
    assert.notEqual(ia32Control("reaches_kernel"), ia32Control("refused_by_kernel"));
  });

  it("the verdict engine names the same cause for either death", () => {
    for (const entry of ["reaches_kernel", "refused_by_kernel"] as const) {
      const { signal, cause } = expectedIa32Death(entry);
      const decision = decide({ exit: { kind: "signaled", signal } });
      assert.equal(decision.verdict, "RE", entry);
      assert.equal(decision.cause, cause, entry);
    }
  });
});

describe("a refused exec of the submission's own file", () => {
  it("is RE with the cause, decided by the kernel's refusal, below IE", () => {
    const notRunnable = { cause: "exec_format_error", message: "the program file is not an executable" };
    const decision = decide({ exit: undefined, notRunnable });
    assert.deepEqual([decision.verdict, decision.cause, decision.actor], ["RE", "exec_format_error", "kernel"]);
    assert.match(decision.errorMessage ?? "", /not an executable/);
    assert.equal(decide({ exit: undefined, notRunnable, setupFailure: { control: "seccomp", message: "x" } }).verdict, "IE");
  });
});

describe("a request's files that cannot be placed in /box", () => {
  const { errno } = constants;
  const failure = (code: number, message = "copy into /box/lib/data.bin: x") => ({ control: "box_files", errno: code, message });
  it("no room (ENOSPC, EDQUOT, EFBIG) is work_dir_full, with the work dir's size and the file", () => {
    for (const code of [errno.ENOSPC, errno.EDQUOT, errno.EFBIG]) {
      const fault = filesFault(failure(code), 64 * 1024 * 1024);
      assert.equal(fault?.cause, "work_dir_full", String(code));
      assert.match(fault?.message ?? "", /the request's files do not fit in the work dir \(64 MiB\): copy into \/box\/lib\/data\.bin/);
    }
  });
  it("a name the file system refuses or that clashes (ENAMETOOLONG, EEXIST, ENOTDIR, EISDIR) is invalid_file_name", () => {
    for (const code of [errno.ENAMETOOLONG, errno.EEXIST, errno.ENOTDIR, errno.EISDIR]) {
      assert.equal(filesFault(failure(code), 1024)?.cause, "invalid_file_name", String(code));
    }
  });
  it("anything else, or another step, stays the platform's", () => {
    assert.equal(filesFault(failure(errno.EIO), 1024), undefined);
    assert.equal(filesFault(failure(errno.ENOMEM), 1024), undefined);
    assert.equal(filesFault({ control: "work_dir", errno: errno.ENOSPC, message: "mount /box tmpfs" }, 1024), undefined);
    assert.equal(filesFault(undefined, 1024), undefined);
  });
  it("is RE decided below IE", () => {
    const filesNotPlaced = { cause: "work_dir_full", message: "the request's files do not fit" };
    assert.deepEqual(decide({ exit: undefined, filesNotPlaced }), { verdict: "RE", cause: "work_dir_full", actor: "kernel", errorMessage: "the request's files do not fit" });
    assert.equal(decide({ exit: undefined, filesNotPlaced, setupFailure: { control: "seccomp", message: "x" } }).verdict, "IE");
  });
});

describe("the launcher's copy-out report", () => {
  it("a file over its cap is reported with its size", () => {
    const report = emptyReport();
    applyStatusLine(report, "copyout_fail main too_large 104857600");
    applyStatusLine(report, "copyout_fail other missing");
    applyStatusLine(report, "copyout out.txt 12");
    assert.deepEqual(report.copyOuts.get("main"), { reason: "too_large", size: 104857600 });
    assert.deepEqual(report.copyOuts.get("other"), { reason: "missing" });
    assert.deepEqual(report.copyOuts.get("out.txt"), { bytes: 12 });
    assert.deepEqual(report.unparsed, []);
  });
});

describe("which side of an interactive pair ended first", () => {
  const ended = (line: string | undefined, exitedAt: number | undefined) => {
    const report = emptyReport();
    if (line) applyStatusLine(report, line);
    if (exitedAt !== undefined) report.exitedAt = exitedAt;
    return report;
  };
  it("is init's clock, not the order in which the two status streams were read", () => {
    // the interactor ended first (its init's clock), but its `exit` line was read last
    const program = ended("ended_at 5000200", 10);
    const interactor = ended("ended_at 5000100", 20);
    assert.equal(program.endedAtUsec, 5000200);
    assert.deepEqual(program.unparsed, []);
    assert.equal(endedFirst(program, interactor), false);
    assert.equal(endedFirst(interactor, program), true);
  });
  it("falls back to the reading order, and a side with no end ended last", () => {
    assert.equal(endedFirst(ended(undefined, 10), ended("ended_at 5", 20)), true);
    assert.equal(endedFirst(ended(undefined, undefined), ended(undefined, 20)), false);
    assert.equal(endedFirst(ended(undefined, 20), ended(undefined, undefined)), true);
  });
});

describe("every decision, whole", () => {
  const signaled = (signal: number) => ({ kind: "signaled" as const, signal });
  const cases: [string, Partial<VerdictEvidence>, { verdict: string; cause: string; actor: string; errorMessage: string | null }][] = [
    ["clean exit", {}, { verdict: "AC", cause: "normal_exit", actor: "runtime", errorMessage: null }],
    ["non-zero exit", { exit: { kind: "exited", code: 3 } }, { verdict: "RE", cause: "nonzero_exit", actor: "runtime", errorMessage: "runtime error: exit code 3" }],
    ["OOM kill", { exit: signaled(signals.SIGKILL), oomKills: 1 }, { verdict: "MLE", cause: "oom_kill", actor: "kernel", errorMessage: "memory limit exceeded: the cgroup OOM killer ended the program" }],
    ["pids limit", { exit: { kind: "exited", code: 1 }, pidsLimitHits: 2 }, { verdict: "PLE", cause: "pids_limit", actor: "kernel", errorMessage: "process limit exceeded: the cgroup refused to create more processes or threads" }],
    ["file size", { exit: signaled(signals.SIGXFSZ), fileSizeLimitHits: 1 }, { verdict: "FSE", cause: "file_size_limit", actor: "kernel", errorMessage: "file size limit exceeded: a write went past the file-size limit" }],
    ["wall timer", { exit: signaled(signals.SIGKILL), wallTimeout: true }, { verdict: "TLE", cause: "wall_timeout", actor: "supervisor", errorMessage: "time limit exceeded: killed when the wall-clock limit expired" }],
    ["CPU-time limit", { exit: signaled(signals.SIGKILL), cpuTimeout: true }, { verdict: "TLE", cause: "cpu_timeout", actor: "supervisor", errorMessage: "time limit exceeded: the run used its whole CPU-time limit" }],
    ["own SIGTERM", { exit: signaled(signals.SIGTERM) }, { verdict: "SIG", cause: "signal", actor: "runtime", errorMessage: "killed by SIGTERM, not sent by the platform" }],
    ["segfault", { exit: signaled(signals.SIGSEGV) }, { verdict: "RE", cause: "segmentation_fault", actor: "kernel", errorMessage: "runtime error: SIGSEGV (segmentation fault)" }],
    ["bus error", { exit: signaled(signals.SIGBUS) }, { verdict: "RE", cause: "bus_error", actor: "kernel", errorMessage: "runtime error: SIGBUS (bus error)" }],
    ["illegal instruction", { exit: signaled(signals.SIGILL) }, { verdict: "RE", cause: "illegal_instruction", actor: "kernel", errorMessage: "runtime error: SIGILL (illegal instruction)" }],
    ["trap", { exit: signaled(signals.SIGTRAP) }, { verdict: "RE", cause: "trap", actor: "kernel", errorMessage: "runtime error: SIGTRAP (trap)" }],
    ["fpe", { exit: signaled(signals.SIGFPE) }, { verdict: "RE", cause: "floating_point_exception", actor: "kernel", errorMessage: "runtime error: SIGFPE (floating point exception)" }],
    ["abort", { exit: signaled(signals.SIGABRT) }, { verdict: "RE", cause: "abort", actor: "kernel", errorMessage: "runtime error: SIGABRT (abort)" }],
    ["bad system call", { exit: signaled(signals.SIGSYS) }, { verdict: "RE", cause: "bad_system_call", actor: "kernel", errorMessage: "runtime error: SIGSYS (bad system call)" }],
    ["unnamed signal", { exit: signaled(64) }, { verdict: "SIG", cause: "signal", actor: "runtime", errorMessage: "killed by signal 64, not sent by the platform" }],
    ["setup failure", { exit: undefined, setupFailure: { control: "seccomp", message: "EINVAL" } }, { verdict: "IE", cause: "isolation_incomplete", actor: "supervisor", errorMessage: "isolation control seccomp could not be applied (EINVAL); the program was not run" }],
    ["cancelled", { cancelled: true }, { verdict: "IE", cause: "cancelled", actor: "supervisor", errorMessage: "cancelled" }],
    ["internal error", { internalError: "launcher crashed" }, { verdict: "IE", cause: "internal_error", actor: "supervisor", errorMessage: "launcher crashed" }],
    ["no exit status", { exit: undefined }, { verdict: "IE", cause: "no_exit_status", actor: "supervisor", errorMessage: "the sandbox ended without reporting how the program ended" }],
  ];
  for (const [name, patch, expected] of cases) {
    it(name, () => assert.deepEqual(decide(patch), expected));
  }
  it("MLE when the OOM killer counted a kill, even with no exit status (it chose the run's init)", () => {
    assert.equal(decide({ exit: undefined, oomKills: 1 }).verdict, "MLE");
  });
  it("FSE needs death by SIGXFSZ and a file at the limit: an exit code of 25 or another signal is not", () => {
    assert.equal(decide({ exit: { kind: "exited", code: 25 }, fileSizeLimitHits: 1 }).verdict, "RE");
    assert.equal(decide({ exit: signaled(signals.SIGKILL), fileSizeLimitHits: 1 }).verdict, "SIG");
    assert.equal(decide({ exit: signaled(signals.SIGXFSZ), fileSizeLimitHits: 0 }).verdict, "SIG");
  });
});
