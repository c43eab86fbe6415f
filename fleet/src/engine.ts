// The one interface transports (gRPC, gRPC-Web) call: run one submission, report languages and
// readiness. Everything below it (language table, compile cache, sandbox) is the node's core.
import type { ExecutionRecord, Limits } from "./sandbox/types.ts";
import type { CpuPolicyName } from "./sandbox/cgroup/cpu-policy.ts";

export interface EngineRequest {
  /** Canonical name or alias (spec §2.5); the result carries the canonical name. */
  language: string;
  code: string;
  stdin: string;
  /** The tenant (project) the run belongs to: per-tenant shares such as the compile cache. */
  tenantId?: string;
  /** Narrows the server-side defaults; never widens them. */
  limits?: Partial<Limits>;
  /** Called with the program's captured output as it is written (RunSpec.onOutput), not the compiler's. */
  onOutput?: (stream: "stdout" | "stderr", data: Uint8Array) => void;
}

export interface LanguageInfo {
  /** Canonical name, e.g. "cpp". */
  name: string;
  /** Toolchain version as detected at start-up, e.g. "gcc 12.2.0". */
  version: string;
}

export interface EngineHealth {
  /** True only when every isolation control can be applied. */
  ready: boolean;
  /** Why the node is not ready (empty when ready). */
  reasons: string[];
  enforcementMode: "strict" | "none";
  cgroupVersion: "v1" | "v2" | "none";
  kernel: string;
}

export interface ExecuteOutcome {
  /** Canonical language name. */
  language: string;
  result: ExecutionRecord;
  /** True when the compiled artifact came from the compile cache. */
  compileCacheHit: boolean;
}

export interface Engine {
  execute(request: EngineRequest, signal?: AbortSignal): Promise<ExecuteOutcome>;
  languages(): LanguageInfo[];
  health(): EngineHealth;
  /** Execution slots (concurrent runs). */
  readonly slots: number;
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
