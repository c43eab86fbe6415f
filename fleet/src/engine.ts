// The one interface transports (gRPC, gRPC-Web) call: run one submission, report languages and
// readiness. Everything below it (language table, compile cache, sandbox) is the node's core.
import type { ResolvedRun } from "./languages/resolve.ts";
import type { ExecutionRecord, Limits } from "./sandbox/run-spec.ts";
import type { CpuPolicyName } from "./sandbox/cgroup/cpu-policy.ts";
import type { CompareMode } from "../../proto/submission-rules.ts";
import type { SlotQueue } from "./sandbox/slot-queue.ts";
import type { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import type { LanguageInfo } from "./languages/language-info.ts";

/** A scored request's points: earned, and the most there were (judge/score.ts). */
export interface Score {
  score: number;
  max_score: number;
}

export interface EngineRequest {
  /** Canonical name or alias (docs/api.md); the result carries the canonical name. */
  language: string;
  /**
   * The request's languages as the node's door resolved them (languages/resolve.ts); absent, the
   * engine resolves them itself, by the same rule, once.
   */
  resolved?: ResolvedRun;
  code: string;
  /** Standard input of a run without tests (bytes when the request was binary). */
  stdin: string | Uint8Array;
  /** The tenant (project) the run belongs to: per-tenant shares such as the compile cache. */
  tenantId?: string;
  /** The program's stderr goes into its stdout (the run, not the compile). */
  mergeStderr?: boolean;
  /** Narrows the compile step's defaults (wall, CPU time, memory); never widens them. */
  compileLimits?: Partial<Limits>;
  /** Narrows the server-side defaults; never widens them. */
  limits?: Partial<Limits>;
  /** Further files beside the main source, by relative path (present at compile and run time). */
  files?: EngineFile[];
  /** Program arguments (argv[1..]). */
  args?: string[];
  /** Allowed compiler options (proto/compiler-options.ts), appended to the compile command. */
  compilerOptions?: string[];
  /** Toolchain version asked for; empty or absent: the language's default. */
  version?: string;
  /** How output is judged; `expected` judges a run without tests. */
  check?: EngineCheck;
  /** A custom checker judges each run instead of `check.compare` (judge/programs/custom-checker.ts). */
  checker?: EngineChecker;
  /** An interactor runs beside the program in each run, joined by pipes (judge/programs/interactor.ts). */
  interactor?: EngineChecker;
  /** A live stdin instead of `stdin` (a live session; sandbox/run-spec.ts): the single run only. */
  liveStdin?: Readable;
  /** The live session's signals for the program. */
  signals?: EventEmitter;
  /** Test cases: compile once, one fresh sandbox run per test. */
  tests?: EngineTest[];
  stopOnFirstFailure?: boolean;
  /** Wall time the tests may use in all (judge/tests-budget.ts); absent or 0: the node's budget. */
  testsWallBudgetMs?: number;
  /** Captured output as the program writes it; `test` is the 0-based test index (0 without tests). */
  onOutput?: (stream: "stdout" | "stderr", data: Uint8Array, test: number) => void;
  /** The run reached a stage: "compile" (a compiled language), then "run". */
  onStage?: (stage: "compile" | "run") => void;
  /**
   * What the engine keeps of a finished, judged test from then on (the outcome's `tests`, what
   * onTest reports): its output cut to what the submission's output budget kept. Absent: all of it.
   */
  keepTest?: (index: number, test: TestOutcome) => TestOutcome;
  /** A test finished (requests with tests), in order, as kept. */
  onTest?: (index: number, test: TestOutcome) => void;
}

export interface EngineFile {
  path: string;
  content: Uint8Array | string;
}

export interface EngineCheck {
  compare: CompareMode;
  /** Tolerance of `float`; absent: the checker's default. */
  floatEpsilon?: number;
  expected?: Uint8Array | string;
}

/** A testlib-style checker: its own program, compiled once, run after each test in its own sandbox. */
export interface EngineChecker {
  /** Canonical name or alias, as the request's own. */
  language: string;
  code: string;
  files?: EngineFile[];
  version?: string;
  /** Narrows the node's checker limits (CHECKER_LIMITS); never widens them. */
  limits?: Partial<Limits>;
}

export interface EngineTest {
  name: string;
  stdin: Uint8Array | string;
  expected?: Uint8Array | string;
  /** What the test is worth (judge/score.ts); any test with points makes the request scored. */
  points?: number;
}

/** One test's run, judged. */
export interface TestOutcome {
  name: string;
  result: ExecutionRecord;
  /** Scored requests: the points earned out of `points` (judge/score.ts). */
  score?: Score;
  stdoutBytes: Uint8Array;
  stderrBytes: Uint8Array;
}

export type { LanguageInfo };

export interface EngineHealth {
  /** True only when every isolation control can be applied. */
  ready: boolean;
  /** Why the node is not ready (empty when ready). */
  reasons: string[];
  enforcementMode: "strict" | "none";
  cgroupVersion: "v1" | "v2" | "none";
  kernel: string;
  /** The isolation controls every run must have applied to run at all (empty when not ready). */
  controls: string[];
  /** The seccomp policy's version (sandbox/policy.ts). */
  seccompPolicy: string;
  /** "dedicated" or "shared" CPUs per run slot ("none" before planned). */
  cpuMode: string;
}

export interface ExecuteOutcome {
  /** Canonical language name. */
  language: string;
  /** The version that ran (LanguageInfo.version). */
  version?: string;
  result: ExecutionRecord;
  /** True when the compiled artifact came from the compile cache. */
  compileCacheHit: boolean;
  /** The deciding run's raw output (absent when nothing ran). */
  stdoutBytes?: Uint8Array;
  stderrBytes?: Uint8Array;
  /** Per-test outcomes, in order, when the request had tests (absent tests were not run). */
  tests?: TestOutcome[];
  /** With tests: the index of the test that decided the outcome, whose output the top level's is. */
  decidingTest?: number;
  /** Scored requests: the points the tests earned and the most there were (judge/score.ts). */
  score?: Score;
}

export interface Engine {
  execute(request: EngineRequest, signal?: AbortSignal): Promise<ExecuteOutcome>;
  /** Every (language, version) offered, each language's default first. */
  languages(): LanguageInfo[];
  health(): EngineHealth;
  /** Execution slots (concurrent runs). */
  readonly slots: number;
  /** The node's one queue for those slots: a job submitted here holds a slot for all its runs. */
  readonly queue: SlotQueue;
  close(): Promise<void>;
}

export interface EngineOptions {
  /** Concurrent runs (default: number of cores). */
  slots: number;
  /** Directory for the node's state (compile cache, staging); created if missing. */
  stateDir: string;
  /** Name of the cgroup (in every hierarchy) under which run cgroups are made. */
  cgroupParent?: string;
  /** The sandbox launcher binary (default: the one built in fleet/launcher/build). */
  launcherPath?: string;
  /** Compile cache size cap in bytes. */
  compileCacheBytes?: number;
  /** How slots share the CPUs: auto (default), dedicated or shared (docs/sandbox.md). */
  cpuPolicy?: CpuPolicyName;
}
// The real implementation: `createEngine(options: EngineOptions): Promise<Engine>` in ./node-engine.ts.
// On abort of `execute`'s signal the run is killed at once and the promise resolves with verdict IE,
// error_message "cancelled", and judge_actions containing "sigkill_on_cancel".
