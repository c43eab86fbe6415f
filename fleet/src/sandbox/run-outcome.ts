// The outcome of a run that was launched: what went wrong on whose side (the platform's or the
// submission's), the verdict, and the record with its evidence.
import type { CgroupReadings } from "./cgroup/driver.ts";
import { REQUIRED_CONTROLS } from "./controls.ts";
import { buildEvidence } from "./evidence.ts";
import type { LauncherReport } from "./launcher-report.ts";
import { capEncodedSize, ENCODED_OUTPUT_FACTOR, outputIntegrity } from "./output.ts";
import { filesFault, programFault } from "./program-fault.ts";
import type { WatchedRun } from "./run-watch.ts";
import type { CgroupLifecycle } from "./slot-cgroups.ts";
import type { ExecutionRecord, RunSpec } from "./run-spec.ts";
import { decideVerdict, type VerdictDecision } from "./verdict.ts";

export interface LaunchedRun {
  spec: RunSpec;
  report: LauncherReport;
  readings: CgroupReadings;
  watched: WatchedRun;
  lifecycle: CgroupLifecycle;
  judgeActions: string[];
  /** Controls held for the run outside the launcher's report: its cgroup's and the kernel's. */
  extraControls: string[];
}

export interface RunFaults {
  /** The request's files did not fit /box, or their names clash: theirs, nothing ran (program-fault.ts). */
  filesNotPlaced: { cause: string; message: string } | undefined;
  notRunnable: { cause: string; message: string } | undefined;
  missing: string[];
  launcherError: string | undefined;
  /** A control that failed, or a program that started without every control reported applied. */
  setupFailure: { control: string; message: string } | undefined;
}

/** The drainer's totals into the captures, and the kill the supervisor caused as the program's end. */
export function completeReport(report: LauncherReport, watched: WatchedRun): void {
  watched.stdout.setWrittenTotal(report.outputTotals.out);
  watched.stderr.setWrittenTotal(report.outputTotals.err);
  // Killing the sandbox kills its init, and with it every process of the pid namespace, so
  // init never reports the program's end: it is the SIGKILL the supervisor caused.
  if (!report.exit && report.killed && report.started) report.exit = { kind: "signaled", signal: 9 };
}

export function findFaults(run: LaunchedRun): RunFaults {
  const { report, spec } = run;
  const filesNotPlaced = filesFault(report.failure, spec.limits.workDirBytes);
  const notRunnable = programFault(report.failure, spec.argv[0]);
  // The environment is applied by execve itself: a refused exec leaves it the only one unapplied.
  const missing = REQUIRED_CONTROLS.filter((control) => !report.applied.includes(control) && !(notRunnable && control === "environment"));
  const launcherError = launcherInternalError(report, run.readings);
  // Only a complete report ("done") can show a control missing: a report cut short (the
  // launcher lost) says nothing about the controls it did not get to, and is an internal error.
  const setupFailure = notRunnable || filesNotPlaced
    ? undefined
    : report.failure
    ? { control: report.failure.control === "box_files" ? "work_dir" : report.failure.control, message: report.failure.message }
    : report.started && report.done && missing.length > 0
      ? { control: missing[0]!, message: "not reported as applied" }
      : undefined;
  return { filesNotPlaced, notRunnable, missing, launcherError, setupFailure };
}

export function decideRun(run: LaunchedRun, faults: RunFaults): VerdictDecision {
  const { report, readings, watched, spec } = run;
  const { limits } = spec;
  // The supervisor's timer can only be late (it starts when it reads "started", after the exec,
  // and a stalled event loop fires it late), never early. A program whose end init reported
  // within the limit by its own clock ended by itself in time, even if the timer fired and the
  // kill crossed its end: only a run still going when the limit expired is a wall timeout.
  const endedInTime = report.wallUsec !== undefined && report.wallUsec <= limits.wallTimeMs * 1000;
  const wallTimeout = watched.wallTimerExpired && !endedInTime;
  return decideVerdict({
    setupFailure: faults.setupFailure,
    filesNotPlaced: faults.filesNotPlaced,
    notRunnable: faults.notRunnable,
    internalError: watched.cpuUnreadable ?? faults.launcherError,
    cancelled: watched.cancelled,
    exit: report.exit,
    wallTimeout,
    idleTimeout: watched.idleKilled && !wallTimeout,
    // killed on a reading, or over the limit at the end (it exited between two readings)
    cpuTimeout: watched.cpuKilled || (!wallTimeout && report.started && watched.cpuWatch.programUsec(readings.cpuUsageUsec) >= limits.cpuTimeMs * 1000),
    oomKills: readings.oomKillEvents,
    pidsLimitHits: readings.pidsLimitHits,
    fileSizeLimitHits: report.fileSizeLimitHits,
  });
}

export interface CapturedBytes {
  stdoutBytes: Buffer;
  stderrBytes: Buffer;
}

export function runRecord(run: LaunchedRun, faults: RunFaults, decision: VerdictDecision, captured: CapturedBytes): ExecutionRecord {
  const { report, readings, watched, spec } = run;
  const { stdout, stderr } = watched;
  // init's own clock when it saw the program end; the supervisor's when it had to kill it.
  const wallMs =
    report.wallUsec !== undefined
      ? report.wallUsec / 1000
      : report.startedAt !== undefined
        ? (report.exitedAt ?? performance.now()) - report.startedAt
        : 0;
  const cpuUsec = readings.cpuUsageUsec || (report.usage ? report.usage.userUsec + report.usage.systemUsec : 0);
  const { stdoutBytes, stderrBytes } = captured;
  const maxEncoded = spec.limits.outputBytes * ENCODED_OUTPUT_FACTOR;
  const [stdoutText, stderrText] = [capEncodedSize(stdoutBytes.toString("utf8"), maxEncoded), capEncodedSize(stderrBytes.toString("utf8"), maxEncoded)];
  return {
    verdict: decision.verdict,
    exit_code: report.exit?.kind === "exited" ? report.exit.code : null,
    signal: report.exit?.kind === "signaled" ? report.exit.signal : null,
    stdout: stdoutText.text,
    stderr: stderrText.text,
    output_integrity: outputIntegrity({
      streams: [
        { truncated: stdout.truncated || stdoutText.cut, error: stdout.error, bytes: stdoutBytes },
        { truncated: stderr.truncated || stderrText.cut, error: stderr.error, bytes: stderrBytes },
      ],
      endedBySignal: report.exit?.kind === "signaled",
    }),
    error_message: decision.errorMessage,
    cpu_time_secs: cpuUsec / 1e6,
    wall_time_secs: wallMs / 1000,
    memory_peak_bytes: readings.memoryPeakBytes,
    evidence: buildEvidence({
      decision,
      ...controlsEvidence(run, faults),
      readings,
      cpuUsec,
      wallMs,
      lifecycle: run.lifecycle,
      judgeActions: run.judgeActions,
      collectionErrors: [...readings.errors, ...report.unparsed],
      limits: spec.limits,
    }),
  };
}

function controlsEvidence(run: LaunchedRun, faults: RunFaults): { applied: string[]; missing: string[] } {
  const { report } = run;
  const { missing, filesNotPlaced } = faults;
  const failedControl = faults.setupFailure?.control;
  const isolated = report.started || faults.notRunnable !== undefined;
  return {
    applied: isolated ? [...report.applied, ...run.extraControls] : report.applied,
    missing: failedControl ? [failedControl, ...missing.filter((control) => control !== failedControl)] : isolated || filesNotPlaced ? missing : [],
  };
}

function launcherInternalError(report: LauncherReport, readings: CgroupReadings): string | undefined {
  if (report.unparsed.length > 0) return `launcher failure: ${report.unparsed[0]}`;
  if (!report.done) return "the launcher ended without reporting the end of the run";
  // Without the drainer's totals the output may be cut short: not a verdict to stand on, unless
  // the kernel's OOM killer explains it (then MLE decides).
  const drained = report.outputTotals.out !== undefined && report.outputTotals.err !== undefined;
  if (report.started && !drained && readings.oomKillEvents === 0) return "the output drainer ended without reporting";
  if (readings.errors.length > 0) return `cgroup evidence could not be read: ${readings.errors.join("; ")}`;
  return undefined;
}
