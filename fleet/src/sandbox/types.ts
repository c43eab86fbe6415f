// The narrow core interface of a fleet node: what one execution asks for and what it returns.
// Transports (gRPC, gRPC-Web) and the language layer are thin adapters around these types.

/** Verdicts of the result record (spec §2.4), in DESIGN.md's precedence order, strongest first. */
export const VERDICTS = ["IE", "MLE", "PLE", "FSE", "TLE", "SIG", "RE", "AC"] as const;
export type Verdict = (typeof VERDICTS)[number];

export const OUTPUT_INTEGRITY = ["complete", "truncated_by_judge_limit", "crash_mid_write", "write_error"] as const;
export type OutputIntegrity = (typeof OUTPUT_INTEGRITY)[number];

export type VerdictActor = "runtime" | "kernel" | "supervisor";

/** Per-run limits. Server-side defaults live in limits.ts; a caller may only narrow them. */
export interface Limits {
  wallTimeMs: number;
  memoryBytes: number;
  processes: number;
  fileSizeBytes: number;
  /** Size cap of the writable work dir (/box) and of /tmp, each. */
  workDirBytes: number;
  /** Capture cap per stream (stdout, stderr); the rest is drained and counted. */
  outputBytes: number;
  openFiles: number;
  stackBytes: number;
}

/** A file placed into the sandbox's work dir (/box) before the program starts. */
export interface InputFile {
  /** A plain file name inside /box: no slashes, no "..". */
  name: string;
  content: Uint8Array | string;
  executable?: boolean;
}

/** A read-only bind of a host path into the sandbox root (toolchains, artifacts). */
export interface Bind {
  hostPath: string;
  sandboxPath: string;
  /** A small file (at most 256 KiB) copied into the root instead: no mount shows its host path. */
  copy?: boolean;
}

/** A file the host takes out of /box after the program ends (compile artifacts). */
export interface OutputFileRequest {
  name: string;
  maxBytes: number;
}

/** What to run: a command line inside an assembled root filesystem. */
export interface RunSpec {
  argv: string[];
  /** Extra environment on top of the fixed minimal one (PATH, HOME, LANG, ...). */
  env?: Record<string, string>;
  stdin?: Uint8Array | string;
  files?: InputFile[];
  /** Extra read-only binds (language toolchains, cached artifacts). */
  binds?: Bind[];
  /** Files to copy out of /box after the run, through the no-follow file layer. */
  outputFiles?: OutputFileRequest[];
  limits: Limits;
}

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
  verdict_actor: VerdictActor;
  isolation_mode: string;
  controls_applied: string[];
  controls_missing: string[];
  cgroup: CgroupEvidence;
  timing: TimingEvidence;
  process_lifecycle: ProcessLifecycleEvidence;
  judge_actions: string[];
  collection_errors: string[];
}

/** The execution half of the result record (spec §2.1). */
export interface ExecutionResult {
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

/** One sandboxed run's outcome plus what only the host needs (artifacts, raw counters). */
export interface RunOutcome {
  result: ExecutionResult;
  /** Copied-out files by name (only those that were regular files within maxBytes). */
  outputFiles: Map<string, Uint8Array>;
  /** Bytes the program wrote beyond the capture cap, per stream. */
  discardedBytes: { stdout: number; stderr: number };
}
