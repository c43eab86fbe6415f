// The engine's outcome as the wire message: the contract's mapping (proto/record-wire.ts) plus
// what only the service knows (submission id, times, compile cache), within the result budget
// (result-budget.ts: the output a record carries is bounded, whatever the tests printed).
import type { ExecutionResult as WireResult, TestResult as WireTest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { executionToWire } from "../../../proto/record-wire.ts";
import type { ExecuteOutcome, Score, TestOutcome } from "../engine.ts";
import type { ExecutionRecord } from "../sandbox/run-spec.ts";
import { OutputBudget } from "./result-budget.ts";

export interface RunTimes {
  submissionId: string;
  startedAt: Date;
  completedAt: Date;
  /** ExecuteRequest.binary_output: raw output bytes beside the text. */
  binaryOutput?: boolean;
}

const encoder = new TextEncoder();

/** Raw bytes when asked; a record with no program run behind it (a compile error) has only its text. */
const rawOutput = (binary: boolean | undefined, result: ExecutionRecord, stdout: Uint8Array | undefined, stderr: Uint8Array | undefined) =>
  binary ? { stdoutBytes: stdout ?? encoder.encode(result.stdout), stderrBytes: stderr ?? encoder.encode(result.stderr) } : {};

/**
 * The Completed (and GetResult) record: the tests in order through a fresh budget, then the top
 * level. `sent`: the tests as already mapped for their TestFinished events, through `sent.budget`
 * (reused when they are all of them, so that a large result is not mapped twice).
 */
export function resultToProto(outcome: ExecuteOutcome, times: RunTimes, sent?: { budget: OutputBudget; tests: WireTest[] }): WireResult {
  const reuse = sent !== undefined && sent.tests.length === (outcome.tests ?? []).length;
  const budget = reuse ? sent.budget : new OutputBudget();
  const tests = reuse ? sent.tests : (outcome.tests ?? []).map((test) => testToProto(test, times.binaryOutput, budget));
  return budget.top({
    submissionId: times.submissionId,
    language: outcome.language,
    ...executionToWire(outcome.result),
    ...rawOutput(times.binaryOutput, outcome.result, outcome.stdoutBytes, outcome.stderrBytes),
    startedAt: times.startedAt,
    completedAt: times.completedAt,
    compileCacheHit: outcome.compileCacheHit,
    tests,
    version: outcome.version ?? "",
    ...scoreToWire(outcome.score),
  });
}

/**
 * One test's run (ids, language and times left empty: the enclosing result has them). `budget` is
 * the submission's: tests go through it in order (TestFinished events and Completed alike).
 */
export function testToProto(test: TestOutcome, binaryOutput: boolean | undefined, budget: OutputBudget): WireTest {
  return {
    name: test.name,
    result: budget.test({
      submissionId: "",
      language: "",
      ...executionToWire(test.result),
      ...rawOutput(binaryOutput, test.result, test.stdoutBytes, test.stderrBytes),
      startedAt: undefined,
      completedAt: undefined,
      compileCacheHit: false,
      tests: [],
      version: "",
      ...scoreToWire(test.score),
    }),
  };
}

const scoreToWire = (score: Score | undefined) => (score ? { score: score.score, maxScore: score.max_score } : {});

/** Stands in for an outcome when the engine itself failed: the run still ends, as IE. */
export function internalErrorOutcome(language: string, wallSecs: number): ExecuteOutcome {
  const result: ExecutionRecord = {
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
