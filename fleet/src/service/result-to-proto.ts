// The engine's result record (snake_case, spec §2.1) as the wire message.
import {
  OutputIntegrity as WireIntegrity,
  Verdict as WireVerdict,
  type ExecutionResult as WireResult,
} from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecuteOutcome } from "../engine.ts";
import type { ExecutionResult, OutputIntegrity, Verdict } from "../sandbox/types.ts";

const VERDICTS: Record<Verdict, WireVerdict> = {
  AC: WireVerdict.VERDICT_AC,
  RE: WireVerdict.VERDICT_RE,
  TLE: WireVerdict.VERDICT_TLE,
  MLE: WireVerdict.VERDICT_MLE,
  PLE: WireVerdict.VERDICT_PLE,
  FSE: WireVerdict.VERDICT_FSE,
  SIG: WireVerdict.VERDICT_SIG,
  IE: WireVerdict.VERDICT_IE,
};

const INTEGRITY: Record<OutputIntegrity, WireIntegrity> = {
  complete: WireIntegrity.OUTPUT_INTEGRITY_COMPLETE,
  truncated_by_judge_limit: WireIntegrity.OUTPUT_INTEGRITY_TRUNCATED_BY_JUDGE_LIMIT,
  crash_mid_write: WireIntegrity.OUTPUT_INTEGRITY_CRASH_MID_WRITE,
  write_error: WireIntegrity.OUTPUT_INTEGRITY_WRITE_ERROR,
};

export interface RunTimes {
  submissionId: string;
  startedAt: Date;
  completedAt: Date;
}

export function resultToProto(outcome: ExecuteOutcome, times: RunTimes): WireResult {
  const { result } = outcome;
  const { evidence } = result;
  return {
    submissionId: times.submissionId,
    language: outcome.language,
    verdict: VERDICTS[result.verdict] ?? WireVerdict.VERDICT_UNSPECIFIED,
    exitCode: result.exit_code ?? undefined,
    signal: result.signal ?? undefined,
    stdout: result.stdout,
    stderr: result.stderr,
    outputIntegrity: INTEGRITY[result.output_integrity] ?? WireIntegrity.OUTPUT_INTEGRITY_UNSPECIFIED,
    errorMessage: result.error_message ?? undefined,
    cpuTimeSecs: result.cpu_time_secs,
    wallTimeSecs: result.wall_time_secs,
    memoryPeakBytes: result.memory_peak_bytes,
    evidence: {
      verdictCause: evidence.verdict_cause,
      verdictActor: evidence.verdict_actor,
      isolationMode: evidence.isolation_mode,
      controlsApplied: evidence.controls_applied,
      controlsMissing: evidence.controls_missing,
      cgroup: {
        memoryLimitBytes: evidence.cgroup.memory_limit_bytes,
        memoryPeakBytes: evidence.cgroup.memory_peak_bytes,
        oomEvents: evidence.cgroup.oom_events,
        oomKillEvents: evidence.cgroup.oom_kill_events,
        cpuUsageUsec: evidence.cgroup.cpu_usage_usec,
        processCount: evidence.cgroup.process_count,
        processLimit: evidence.cgroup.process_limit,
      },
      timing: {
        cpuMs: evidence.timing.cpu_ms,
        wallMs: evidence.timing.wall_ms,
        cpuWallRatio: evidence.timing.cpu_wall_ratio,
        divergence: evidence.timing.divergence,
      },
      processLifecycle: {
        reapStatus: evidence.process_lifecycle.reap_status,
        descendantContainment: evidence.process_lifecycle.descendant_containment,
        zombieCount: evidence.process_lifecycle.zombie_count,
      },
      judgeActions: evidence.judge_actions,
      collectionErrors: evidence.collection_errors,
    },
    startedAt: times.startedAt,
    completedAt: times.completedAt,
    compileCacheHit: outcome.compileCacheHit,
  };
}

/** Stands in for an outcome when the engine itself failed: the run still ends, as IE. */
export function internalErrorOutcome(language: string, wallSecs: number): ExecuteOutcome {
  const result: ExecutionResult = {
    verdict: "IE",
    exit_code: null,
    signal: null,
    stdout: "",
    stderr: "",
    output_integrity: "complete",
    error_message: "internal error",
    cpu_time_secs: 0,
    wall_time_secs: wallSecs,
    memory_peak_bytes: 0,
    evidence: {
      verdict_cause: "internal_error",
      verdict_actor: "supervisor",
      isolation_mode: "strict",
      controls_applied: [],
      controls_missing: [],
      cgroup: {
        memory_limit_bytes: 0,
        memory_peak_bytes: 0,
        oom_events: 0,
        oom_kill_events: 0,
        cpu_usage_usec: 0,
        process_count: 0,
        process_limit: 0,
      },
      timing: { cpu_ms: 0, cpu_time_ms: 0, wall_ms: Math.round(wallSecs * 1000), cpu_wall_ratio: 0, divergence: "unknown" },
      process_lifecycle: { reap_status: "unknown", descendant_containment: "unknown", zombie_count: 0 },
      judge_actions: [],
      collection_errors: ["engine failed; see the node log"],
    },
  };
  return { language, result, compileCacheHit: false };
}
