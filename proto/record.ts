// The public result record (spec §2.1, §2.3), typed once for both sides: a fleet node's engine
// produces the execution half (ExecutionRecord), the edge wraps it into the ResultRecord the API
// returns. The wire form between them is the proto ExecutionResult (see record-wire.ts).

export const SCHEMA_VERSION = "1.0";

/** Verdicts (spec §2.4), in DESIGN.md's precedence order, strongest first. */
export const VERDICTS = ["IE", "MLE", "PLE", "FSE", "TLE", "SIG", "RE", "AC"] as const;
export type Verdict = (typeof VERDICTS)[number];

export const OUTPUT_INTEGRITY = ["complete", "truncated_by_judge_limit", "crash_mid_write", "write_error"] as const;
export type OutputIntegrity = (typeof OUTPUT_INTEGRITY)[number];

export type VerdictActor = "runtime" | "kernel" | "supervisor";

export type JobStatus = "pending" | "running" | "completed" | "error";

export interface CgroupEvidence {
  memory_limit_bytes: number;
  memory_peak_bytes: number;
  oom_events: number;
  oom_kill_events: number;
  cpu_usage_usec: number;
  process_count: number;
  process_limit: number;
}

export interface TimingEvidence {
  /** CPU time of the run's cgroup (every thread and process of the program, and its output drainer). */
  cpu_ms: number;
  /** The same figure under the name the record's users look for, beside wall time. */
  cpu_time_ms: number;
  wall_ms: number;
  cpu_wall_ratio: number;
  divergence: string;
}

export interface ProcessLifecycleEvidence {
  reap_status: string;
  descendant_containment: string;
  zombie_count: number;
}

/** spec §2.3 */
export interface Evidence {
  verdict_cause: string;
  /** One of VerdictActor when a node wrote it; kept as text so an unknown actor passes through. */
  verdict_actor: string;
  isolation_mode: string;
  controls_applied: string[];
  controls_missing: string[];
  cgroup: CgroupEvidence;
  timing: TimingEvidence;
  process_lifecycle: ProcessLifecycleEvidence;
  judge_actions: string[];
  collection_errors: string[];
}

/** The execution half of the result record: what one sandboxed run produced. */
export interface ExecutionRecord {
  verdict: Verdict;
  exit_code: number | null;
  signal: number | null;
  stdout: string;
  stderr: string;
  output_integrity: OutputIntegrity;
  error_message: string | null;
  cpu_time_secs: number;
  wall_time_secs: number;
  memory_peak_bytes: number;
  evidence: Evidence;
}

type Nullable<T> = { [K in keyof T]: T[K] | null };

/** The record of one submission as the public API returns it (spec §2.1). */
export interface ResultRecord extends Nullable<ExecutionRecord> {
  id: string;
  language: string;
  job_status: JobStatus;
  schema_version: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Dispatches made when more than one was needed (a node lost mid-run: the run went to another). */
  attempts?: number;
}

export function isTerminal(status: JobStatus): boolean {
  return status === "completed" || status === "error";
}
