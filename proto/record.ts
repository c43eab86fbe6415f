// The public result record (docs/api.md), typed once for both sides: a fleet node's engine
// produces the execution half (ExecutionRecord), the edge wraps it into the ResultRecord the API
// returns. The wire form between them is the proto ExecutionResult (see record-wire.ts).

export const SCHEMA_VERSION = "1.0";
/** A record that uses any field added after 1.0 (tests, encoding, version, attempts, WA, ...) says so. */
export const SCHEMA_VERSION_EXTENDED = "1.1";

/**
 * Verdicts (docs/api.md) in precedence order, strongest first. WA (wrong answer: the output differs
 * from the expected output) ranks below every verdict the kernel or the runtime proves. SKIPPED is
 * a test's only (not run: the tests' wall-time budget was used up), never a record's.
 */
export const VERDICTS = ["IE", "MLE", "PLE", "FSE", "TLE", "SIG", "RE", "WA", "AC", "SKIPPED"] as const;
export type Verdict = (typeof VERDICTS)[number];

export const OUTPUT_INTEGRITY = ["complete", "truncated_by_judge_limit", "crash_mid_write", "write_error"] as const;
export type OutputIntegrity = (typeof OUTPUT_INTEGRITY)[number];

export type VerdictActor = "runtime" | "kernel" | "supervisor" | "judge" | "checker" | "interactor";

/** How text fields travel in a request and in its record: as is, or base64 (binary-safe). */
export type Encoding = "utf8" | "base64";

/** The limits a run was held to (evidence.limits), in the request's units. */
export interface AppliedLimits {
  wall_time_ms: number;
  cpu_time_ms: number;
  memory_bytes: number;
  processes: number;
  output_bytes: number;
}

/** Where the output first differs from the expected output (a WA verdict's evidence). */
export interface OutputMismatch {
  line: number;
  column: number | null;
  token: number | null;
  expected: string;
  actual: string;
  message: string;
}

/** What a custom checker said about one run (docs/languages.md, "Custom checkers"). */
export interface CheckerEvidence {
  /** Its exit code; null when a signal or a limit ended it, or it never ran (it did not compile). */
  exit_code: number | null;
  /** How its own run ended: normal_exit, nonzero_exit, cpu_timeout, oom_kill, compile_error, ... */
  cause: string;
  /** The first 4 KiB of its stderr, or what went wrong with it. */
  message: string;
  /** Exit code 7 (testlib's `_points`): the points it printed; else null. */
  points: number | null;
}

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

/** docs/api.md */
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
  /** The limits applied to the run (records of schema 1.1). */
  limits?: AppliedLimits;
  /** Set when the verdict is WA. */
  mismatch?: OutputMismatch;
  /** Set when a custom checker judged the run (or failed to). */
  checker?: CheckerEvidence;
  /** Set when an interactor ran beside the program (or failed to): what it said, in the checker's terms. */
  interactor?: CheckerEvidence;
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

/** The record of one submission as the public API returns it (docs/api.md). */
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
  /** Encoding of stdout/stderr here and in `tests` (present when the request asked for base64). */
  encoding?: Encoding;
  /** Toolchain version that ran the program (present when the request named one, or had tests). */
  version?: string;
  /** Per-test outcomes of a request with test cases; the top-level verdict is the first failing test's, else AC. */
  tests?: TestRecord[];
  /** Scored requests (a test with points): the points the tests earned, and the most there were. */
  score?: number;
  max_score?: number;
  /** Records of schema 1.1: the submission's output against its output budget, every test together. */
  output_budget?: OutputBudgetUse;
}

/** Output bytes a record kept and dropped past its submission's output budget, per stream. */
export interface OutputBudgetUse {
  budget_bytes: number;
  stdout: { kept_bytes: number; dropped_bytes: number };
  stderr: { kept_bytes: number; dropped_bytes: number };
}

/** One test case's outcome (record schema 1.1). */
export interface TestRecord {
  name: string;
  verdict: Verdict;
  stdout: string;
  stderr: string;
  exit_code: number | null;
  signal: number | null;
  time_ms: number;
  memory_bytes: number;
  output_integrity: OutputIntegrity;
  evidence: Evidence;
  /** Scored requests: the points this test earned. */
  score?: number;
}

export function isTerminal(status: JobStatus): boolean {
  return status === "completed" || status === "error";
}
