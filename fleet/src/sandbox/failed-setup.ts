// The outcome of a run that never started: a control could not be applied (fail closed), or the
// submission was refused before anything ran.
import { buildEvidence } from "./evidence.ts";
import type { ExecutionRecord, RunOutcome, RunSpec } from "./run-spec.ts";
import { decideVerdict, type VerdictDecision } from "./verdict.ts";

export function failedSetup(control: string, message: string, missing: string[], limits: RunSpec["limits"]): RunOutcome {
  const decision = decideVerdict({
    setupFailure: { control, message },
    cancelled: false,
    exit: undefined,
    wallTimeout: false,
    cpuTimeout: false,
    oomKills: 0,
    pidsLimitHits: 0,
    fileSizeLimitHits: 0,
  });
  return notRun(decision, [control, ...missing], limits);
}

/** A record for a decision reached without running anything. */
export function notRun(decision: VerdictDecision, missing: string[], limits: RunSpec["limits"]): RunOutcome {
  const result: ExecutionRecord = {
    verdict: decision.verdict,
    exit_code: null,
    signal: null,
    stdout: "",
    stderr: "",
    output_integrity: "complete",
    error_message: decision.errorMessage,
    cpu_time_secs: 0,
    wall_time_secs: 0,
    memory_peak_bytes: 0,
    evidence: buildEvidence({
      decision,
      applied: [],
      missing,
      readings: {
        memoryLimitBytes: limits.memoryBytes,
        memoryPeakBytes: 0,
        oomEvents: 0,
        oomKillEvents: 0,
        cpuUsageUsec: 0,
        processCount: 0,
        processLimit: limits.processes,
        pidsLimitHits: 0,
        errors: [],
      },
      cpuUsec: 0,
      wallMs: 0,
      lifecycle: { reapStatus: "clean", containment: "ok", zombies: 0 },
      judgeActions: [],
      collectionErrors: [],
      limits,
    }),
  };
  return { result, outputFiles: new Map(), stdoutBytes: new Uint8Array(), stderrBytes: new Uint8Array(), discardedBytes: { stdout: 0, stderr: 0 } };
}
