// A plan's shape, the fleet node's own maxima and the body that changes a plan, apart from KV and
// config (plans/plans.ts) so that request validation stays pure (unit tested under Node).
import { z } from "zod";
import { CHECKER_LIMIT_DEFAULTS } from "../../../proto/checker-rules.ts";
import { MAX_TESTS, TESTS_WALL_BUDGET_MS } from "../../../proto/submission-rules.ts";
import { OUTPUT_BUDGET_DEFAULT_BYTES, OUTPUT_BUDGET_MAX_BYTES } from "../../../proto/limits.ts";

/** What a fleet node allows at most; a plan (and so a request) may only narrow it. */
export const NODE_MAXIMA = {
  max_wall_time_ms: 10_000, max_cpu_time_ms: 10_000, max_memory_mb: 256, max_processes: 64, max_output_kb: 1024,
} as const;

export interface Plan {
  name: string;
  rate_per_minute: number;
  max_in_flight: number;
  max_wall_time_ms: number;
  max_cpu_time_ms: number;
  max_memory_mb: number;
  max_processes: number;
  max_output_kb: number;
  max_tests: number;
  max_batch: number;
  /** A custom checker's run limits (absent: CHECKER_LIMIT_DEFAULTS, which a node never exceeds). */
  checker_wall_time_ms?: number;
  checker_cpu_time_ms?: number;
  checker_memory_mb?: number;
  /** The compile step's limits at most (absent: COMPILE_MAXIMA, the node's compile limits). */
  compile_wall_time_ms?: number;
  compile_cpu_time_ms?: number;
  compile_memory_mb?: number;
  /** Wall time a submission's tests may use in all (absent: the node's, TESTS_WALL_BUDGET_MS). */
  tests_wall_budget_ms?: number;
  /** A live session's caps (absent: SESSION_DEFAULTS; docs/live-sessions.md). */
  session_max_secs?: number;
  session_idle_secs?: number;
  session_stdin_kb?: number;
  /** A key's live-session WebSockets open at once, before `start` and reconnects included (absent: SESSION_DEFAULTS). */
  max_sessions?: number;
  /** A submission's output budget, every test and both streams (absent: STORAGE_DEFAULTS; docs/api.md, "Output budget"). */
  output_budget_kb?: number;
  /** What one account may store in one submission shard (absent: STORAGE_DEFAULTS). */
  shard_storage_mb?: number;
}

/** A node's compile-step limits, which a plan (and so a request's compile_limits) may only narrow. */
export const COMPILE_MAXIMA = { wall_time_ms: 30_000, cpu_time_ms: 60_000, memory_mb: 1024 } as const;

/** The compile limits a request may ask for at most under `plan`. */
export function compileCaps(plan: Plan): { wall_time_ms: number; cpu_time_ms: number; memory_mb: number } {
  return {
    wall_time_ms: plan.compile_wall_time_ms ?? COMPILE_MAXIMA.wall_time_ms,
    cpu_time_ms: plan.compile_cpu_time_ms ?? COMPILE_MAXIMA.cpu_time_ms,
    memory_mb: plan.compile_memory_mb ?? COMPILE_MAXIMA.memory_mb,
  };
}

/** A plan's output budget and storage quota when it names none. */
export const STORAGE_DEFAULTS = { output_budget_kb: OUTPUT_BUDGET_DEFAULT_BYTES / 1024, shard_storage_mb: 256 } as const;

/** A live session's caps when its plan names none; a node keeps a live program 300 s at most. */
export const SESSION_DEFAULTS = { max_secs: 300, idle_secs: 60, stdin_kb: 16 * 1024, max_sessions: 10 } as const;

export interface SessionCaps {
  max_duration_ms: number;
  idle_timeout_ms: number;
  stdin_bytes: number;
  output_bytes: number;
}

/** The caps a live session gets under `plan`. */
export function sessionCaps(plan: Plan): SessionCaps {
  return {
    max_duration_ms: (plan.session_max_secs ?? SESSION_DEFAULTS.max_secs) * 1000,
    idle_timeout_ms: (plan.session_idle_secs ?? SESSION_DEFAULTS.idle_secs) * 1000,
    stdin_bytes: (plan.session_stdin_kb ?? SESSION_DEFAULTS.stdin_kb) * 1024,
    output_bytes: plan.max_output_kb * 1024,
  };
}

/** The run limits a checker gets under `plan`. */
export function checkerLimits(plan: Plan): { wall_time_ms: number; cpu_time_ms: number; memory_mb: number } {
  return {
    wall_time_ms: plan.checker_wall_time_ms ?? CHECKER_LIMIT_DEFAULTS.wall_time_ms,
    cpu_time_ms: plan.checker_cpu_time_ms ?? CHECKER_LIMIT_DEFAULTS.cpu_time_ms,
    memory_mb: plan.checker_memory_mb ?? CHECKER_LIMIT_DEFAULTS.memory_mb,
  };
}

/** `plan` with every cap it leaves to a default filled in: what a key is held to (GET /api/limits). */
export function effectivePlan(plan: Plan): Required<Plan> {
  const compile = compileCaps(plan);
  return {
    ...plan,
    checker_wall_time_ms: plan.checker_wall_time_ms ?? CHECKER_LIMIT_DEFAULTS.wall_time_ms,
    checker_cpu_time_ms: plan.checker_cpu_time_ms ?? CHECKER_LIMIT_DEFAULTS.cpu_time_ms,
    checker_memory_mb: plan.checker_memory_mb ?? CHECKER_LIMIT_DEFAULTS.memory_mb,
    compile_wall_time_ms: compile.wall_time_ms,
    compile_cpu_time_ms: compile.cpu_time_ms,
    compile_memory_mb: compile.memory_mb,
    tests_wall_budget_ms: plan.tests_wall_budget_ms ?? TESTS_WALL_BUDGET_MS,
    session_max_secs: plan.session_max_secs ?? SESSION_DEFAULTS.max_secs,
    session_idle_secs: plan.session_idle_secs ?? SESSION_DEFAULTS.idle_secs,
    session_stdin_kb: plan.session_stdin_kb ?? SESSION_DEFAULTS.stdin_kb,
    max_sessions: plan.max_sessions ?? SESSION_DEFAULTS.max_sessions,
    output_budget_kb: plan.output_budget_kb ?? STORAGE_DEFAULTS.output_budget_kb,
    shard_storage_mb: plan.shard_storage_mb ?? STORAGE_DEFAULTS.shard_storage_mb,
  };
}

/** The caps a submission is checked against when no plan is given: the default plan's. */
export const DEFAULT_CAPS: Plan = {
  name: "default", rate_per_minute: 60, max_in_flight: 10, ...NODE_MAXIMA, max_tests: 100, max_batch: 20,
};

const int = (min: number, max: number) => z.number().int().min(min).max(max);

/** The body of PUT /admin/plans/:name: every field optional, merged over the plan as it is (or the default). */
export const planUpdateSchema = z.strictObject({
  rate_per_minute: int(1, 1_000_000).optional(),
  max_in_flight: int(1, 100_000).optional(),
  max_wall_time_ms: int(1, NODE_MAXIMA.max_wall_time_ms).optional(),
  max_cpu_time_ms: int(1, NODE_MAXIMA.max_cpu_time_ms).optional(),
  max_memory_mb: int(1, NODE_MAXIMA.max_memory_mb).optional(),
  max_processes: int(1, NODE_MAXIMA.max_processes).optional(),
  max_output_kb: int(1, NODE_MAXIMA.max_output_kb).optional(),
  max_tests: int(1, MAX_TESTS).optional(),
  max_batch: int(1, 100).optional(),
  checker_wall_time_ms: int(1, CHECKER_LIMIT_DEFAULTS.wall_time_ms).optional(),
  checker_cpu_time_ms: int(1, CHECKER_LIMIT_DEFAULTS.cpu_time_ms).optional(),
  checker_memory_mb: int(1, CHECKER_LIMIT_DEFAULTS.memory_mb).optional(),
  compile_wall_time_ms: int(1, COMPILE_MAXIMA.wall_time_ms).optional(),
  compile_cpu_time_ms: int(1, COMPILE_MAXIMA.cpu_time_ms).optional(),
  compile_memory_mb: int(1, COMPILE_MAXIMA.memory_mb).optional(),
  tests_wall_budget_ms: int(1, TESTS_WALL_BUDGET_MS).optional(),
  session_max_secs: int(1, SESSION_DEFAULTS.max_secs).optional(),
  session_idle_secs: int(1, 3600).optional(),
  session_stdin_kb: int(1, 1024 * 1024).optional(),
  max_sessions: int(1, 10_000).optional(),
  output_budget_kb: int(1, OUTPUT_BUDGET_MAX_BYTES / 1024).optional(),
  shard_storage_mb: int(1, 10 * 1024).optional(),
});
export type PlanUpdate = z.infer<typeof planUpdateSchema>;
