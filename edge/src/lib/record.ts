// The public result record (spec §2.1) and its mapping from the fleet's ExecutionResult.
// Pure: unit tested against hand-built proto messages.
import { OutputIntegrity, Verdict } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { Evidence, ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";

export const SCHEMA_VERSION = "1.0";

export type JobStatus = "pending" | "running" | "completed" | "error";

export interface EvidenceRecord {
  verdict_cause: string;
  verdict_actor: string;
  isolation_mode: string;
  controls_applied: string[];
  controls_missing: string[];
  cgroup: {
    memory_limit_bytes: number; memory_peak_bytes: number; oom_events: number; oom_kill_events: number;
    cpu_usage_usec: number; process_count: number; process_limit: number;
  };
  timing: { cpu_ms: number; cpu_time_ms: number; wall_ms: number; cpu_wall_ratio: number; divergence: string };
  process_lifecycle: { reap_status: string; descendant_containment: string; zombie_count: number };
  judge_actions: string[];
  collection_errors: string[];
}

export interface ResultRecord {
  id: string;
  language: string;
  job_status: JobStatus;
  schema_version: string;
  verdict: string | null;
  exit_code: number | null;
  signal: number | null;
  stdout: string | null;
  stderr: string | null;
  output_integrity: string | null;
  error_message: string | null;
  cpu_time_secs: number | null;
  wall_time_secs: number | null;
  memory_peak_bytes: number | null;
  evidence: EvidenceRecord | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export function isTerminal(status: JobStatus): boolean {
  return status === "completed" || status === "error";
}

/** ISO 8601 UTC with milliseconds, e.g. 2026-11-21T20:36:37.123Z. */
export function isoMs(ms: number): string {
  return new Date(ms).toISOString();
}

export function newRecord(id: string, language: string, createdAtMs: number): ResultRecord {
  return {
    id, language, job_status: "pending", schema_version: SCHEMA_VERSION,
    verdict: null, exit_code: null, signal: null, stdout: null, stderr: null, output_integrity: null,
    error_message: null, cpu_time_secs: null, wall_time_secs: null, memory_peak_bytes: null, evidence: null,
    created_at: isoMs(createdAtMs), started_at: null, completed_at: null,
  };
}

const VERDICTS: Record<number, string> = {
  [Verdict.VERDICT_AC]: "AC", [Verdict.VERDICT_RE]: "RE", [Verdict.VERDICT_TLE]: "TLE", [Verdict.VERDICT_MLE]: "MLE",
  [Verdict.VERDICT_PLE]: "PLE", [Verdict.VERDICT_FSE]: "FSE", [Verdict.VERDICT_SIG]: "SIG", [Verdict.VERDICT_IE]: "IE",
};

const INTEGRITY: Record<number, string> = {
  [OutputIntegrity.OUTPUT_INTEGRITY_COMPLETE]: "complete",
  [OutputIntegrity.OUTPUT_INTEGRITY_TRUNCATED_BY_JUDGE_LIMIT]: "truncated_by_judge_limit",
  [OutputIntegrity.OUTPUT_INTEGRITY_CRASH_MID_WRITE]: "crash_mid_write",
  [OutputIntegrity.OUTPUT_INTEGRITY_WRITE_ERROR]: "write_error",
};

export function mapEvidence(e: Evidence | undefined): EvidenceRecord | null {
  if (!e) return null;
  const c = e.cgroup;
  const t = e.timing;
  const p = e.processLifecycle;
  return {
    verdict_cause: e.verdictCause,
    verdict_actor: e.verdictActor,
    isolation_mode: e.isolationMode,
    controls_applied: [...e.controlsApplied],
    controls_missing: [...e.controlsMissing],
    cgroup: {
      memory_limit_bytes: c?.memoryLimitBytes ?? 0, memory_peak_bytes: c?.memoryPeakBytes ?? 0,
      oom_events: c?.oomEvents ?? 0, oom_kill_events: c?.oomKillEvents ?? 0, cpu_usage_usec: c?.cpuUsageUsec ?? 0,
      process_count: c?.processCount ?? 0, process_limit: c?.processLimit ?? 0,
    },
    timing: { cpu_ms: t?.cpuMs ?? 0, cpu_time_ms: t?.cpuMs ?? 0, wall_ms: t?.wallMs ?? 0, cpu_wall_ratio: t?.cpuWallRatio ?? 0, divergence: t?.divergence ?? "" },
    process_lifecycle: {
      reap_status: p?.reapStatus ?? "", descendant_containment: p?.descendantContainment ?? "", zombie_count: p?.zombieCount ?? 0,
    },
    judge_actions: [...e.judgeActions],
    collection_errors: [...e.collectionErrors],
  };
}

/**
 * The completed record from the node's result. `language` stays the edge's canonical name (the
 * node echoes it; the edge's is authoritative for the API). A verdict the edge does not know is
 * reported as IE rather than guessed.
 */
export function completedRecord(base: ResultRecord, r: ExecutionResult, nowMs: number): ResultRecord {
  const verdict = VERDICTS[r.verdict] ?? "IE";
  const unknownVerdict = VERDICTS[r.verdict] === undefined;
  const startedAt = base.started_at ?? (r.startedAt ? r.startedAt.toISOString() : null);
  return {
    ...base,
    job_status: "completed",
    verdict,
    exit_code: r.exitCode ?? null,
    signal: r.signal ?? null,
    stdout: r.stdout,
    stderr: r.stderr,
    output_integrity: INTEGRITY[r.outputIntegrity] ?? "complete",
    error_message: r.errorMessage ?? (unknownVerdict ? `fleet node returned an unknown verdict (${r.verdict})` : null),
    cpu_time_secs: r.cpuTimeSecs,
    wall_time_secs: r.wallTimeSecs,
    memory_peak_bytes: r.memoryPeakBytes,
    evidence: mapEvidence(r.evidence),
    started_at: startedAt ?? isoMs(nowMs),
    completed_at: r.completedAt ? r.completedAt.toISOString() : isoMs(nowMs),
  };
}

/** The `error` state: an internal failure. Outcome fields stay null; error_message says what failed. */
export function errorRecord(base: ResultRecord, message: string, nowMs: number): ResultRecord {
  return {
    ...base,
    job_status: "error",
    verdict: null, exit_code: null, signal: null, stdout: null, stderr: null, output_integrity: null,
    cpu_time_secs: null, wall_time_secs: null, memory_peak_bytes: null, evidence: null,
    error_message: message,
    completed_at: isoMs(nowMs),
  };
}
