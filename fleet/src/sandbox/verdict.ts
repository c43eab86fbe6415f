// The verdict engine: kernel and supervisor evidence in, verdict out. Pure, so every rule of
// docs/api.md (verdicts) has a unit test. Exit codes alone never decide a verdict.
import { constants } from "node:os";
import type { Verdict, VerdictActor } from "./run-spec.ts";

export type ProgramExit = { kind: "exited"; code: number } | { kind: "signaled"; signal: number };

export interface VerdictEvidence {
  /** An isolation control that could not be applied: nothing ran (fail closed). */
  setupFailure?: { control: string; message: string };
  /** Every control applied, but the kernel refused to exec a file the submission made. */
  notRunnable?: { cause: string; message: string };
  /** The request's files could not be placed in /box for a reason of their own (no room, a name): nothing ran. */
  filesNotPlaced?: { cause: string; message: string };
  /** Any other platform failure (launcher crash, missing evidence the verdict needs). */
  internalError?: string;
  cancelled: boolean;
  /** How the program (the sandbox's pid 2) ended; undefined if it never ran or was not seen. */
  exit: ProgramExit | undefined;
  /** The supervisor's wall timer fired and it killed the sandbox. */
  wallTimeout: boolean;
  /**
   * The run's CPU time (the cgroup's accounting, every process and thread) reached the CPU-time
   * limit: the supervisor killed it on a reading, or the last reading showed it over the limit.
   */
  cpuTimeout: boolean;
  /** An interactive run: the supervisor killed it while it and the interactor waited on each other. */
  idleTimeout?: boolean;
  oomKills: number;
  pidsLimitHits: number;
  /** Regular files in the writable mounts that reached RLIMIT_FSIZE. */
  fileSizeLimitHits: number;
}

export interface VerdictDecision {
  verdict: Verdict;
  cause: string;
  actor: VerdictActor;
  errorMessage: string | null;
}

const { signals } = constants;

/** Signals a program raises by crashing: the kernel delivers them, the program caused them. */
const CRASH_SIGNALS = new Map<number, string>([
  [signals.SIGSEGV, "segmentation_fault"],
  [signals.SIGBUS, "bus_error"],
  [signals.SIGFPE, "floating_point_exception"],
  [signals.SIGILL, "illegal_instruction"],
  [signals.SIGABRT, "abort"],
  [signals.SIGTRAP, "trap"],
  [signals.SIGSYS, "bad_system_call"],
]);

export function signalName(signal: number): string {
  const entry = Object.entries(signals).find(([, number]) => number === signal);
  return entry ? entry[0] : `signal ${signal}`;
}

export function decideVerdict(evidence: VerdictEvidence): VerdictDecision {
  const { exit } = evidence;
  if (evidence.setupFailure) {
    const { control, message } = evidence.setupFailure;
    return ie("isolation_incomplete", `isolation control ${control} could not be applied (${message}); the program was not run`);
  }
  if (evidence.cancelled) return { ...ie("cancelled", "cancelled"), actor: "supervisor" };
  if (evidence.filesNotPlaced) return decided("RE", evidence.filesNotPlaced.cause, "kernel", evidence.filesNotPlaced.message);
  if (evidence.notRunnable) return decided("RE", evidence.notRunnable.cause, "kernel", `runtime error: ${evidence.notRunnable.message}`);
  if (evidence.internalError) return ie("internal_error", evidence.internalError);
  // Before the exit status: the run's OOM killer may have chosen the run's init (it is in the run's
  // cgroups while the program lives), which then never reports the program's end.
  if (evidence.oomKills > 0) {
    return decided("MLE", "oom_kill", "kernel", "memory limit exceeded: the cgroup OOM killer ended the program");
  }
  if (!exit) return ie("no_exit_status", "the sandbox ended without reporting how the program ended");
  if (evidence.pidsLimitHits > 0) {
    return decided("PLE", "pids_limit", "kernel", "process limit exceeded: the cgroup refused to create more processes or threads");
  }
  if (exit.kind === "signaled" && exit.signal === signals.SIGXFSZ && evidence.fileSizeLimitHits > 0) {
    return decided("FSE", "file_size_limit", "kernel", "file size limit exceeded: a write went past the file-size limit");
  }
  if (evidence.cpuTimeout) {
    return decided("TLE", "cpu_timeout", "supervisor", "time limit exceeded: the run used its whole CPU-time limit");
  }
  if (evidence.idleTimeout) {
    return decided("TLE", "idleness", "supervisor", "time limit exceeded: the program and the interactor were both waiting on each other");
  }
  if (evidence.wallTimeout) {
    return decided("TLE", "wall_timeout", "supervisor", "time limit exceeded: killed when the wall-clock limit expired");
  }
  if (exit.kind === "signaled") {
    const crash = CRASH_SIGNALS.get(exit.signal);
    if (crash) return decided("RE", crash, "kernel", `runtime error: ${signalName(exit.signal)} (${crash.replaceAll("_", " ")})`);
    return decided("SIG", "signal", "runtime", `killed by ${signalName(exit.signal)}, not sent by the platform`);
  }
  if (exit.code !== 0) return decided("RE", "nonzero_exit", "runtime", `runtime error: exit code ${exit.code}`);
  return { verdict: "AC", cause: "normal_exit", actor: "runtime", errorMessage: null };
}

function decided(verdict: Verdict, cause: string, actor: VerdictActor, errorMessage: string): VerdictDecision {
  return { verdict, cause, actor, errorMessage };
}

function ie(cause: string, errorMessage: string): VerdictDecision {
  return { verdict: "IE", cause, actor: "supervisor", errorMessage };
}
