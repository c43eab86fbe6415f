// The engine's outcome as the wire message: the contract's mapping (proto/record-wire.ts) plus
// what only the service knows (submission id, times, compile cache, the output tally). The output
// is already the kept one (submission-output.ts): each test's and the top level's record carry
// only what the submission's output budget kept, in the request's record form (output-budget.ts).
import type { ExecutionResult as WireResult, OutputTally, TestResult as WireTest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { executionToWire } from "../../../proto/record-wire.ts";
import type { ExecuteOutcome, Score, TestOutcome } from "../engine.ts";
import type { ExecutionRecord } from "../sandbox/run-spec.ts";
import { withTrimmedMark } from "./kept-output.ts";
import type { OutputMode } from "./output-budget.ts";

export interface RunTimes {
  submissionId: string;
  startedAt: Date;
  completedAt: Date;
}

/** What the output budget made of the submission's output. */
export interface RecordOutput {
  mode: OutputMode;
  /** The tests as their TestFinished events carried them, in order. */
  tests: WireTest[];
  tally: OutputTally;
  /** The budget dropped output: the top level carries the OUTPUT_TRIMMED mark. */
  trimmed: boolean;
}

/** The raw bytes, when the record form carries them (raw only, or binary_output beside the text). */
const rawOutput = (mode: OutputMode, stdout: Uint8Array | undefined, stderr: Uint8Array | undefined) =>
  mode.rawOnly || mode.binary ? { stdoutBytes: stdout ?? new Uint8Array(), stderrBytes: stderr ?? new Uint8Array() } : {};

/**
 * The Completed (and GetResult) record. Raw only with tests: the top level carries no output of
 * its own and names the deciding test (output_of_test); otherwise it carries its kept output.
 */
export function resultToProto(outcome: ExecuteOutcome, times: RunTimes, output: RecordOutput): WireResult {
  const ofTest = output.mode.rawOnly && output.tests.length > 0 ? outcome.decidingTest : undefined;
  const record = output.trimmed ? withTrimmedMark(outcome.result) : outcome.result;
  const own = ofTest === undefined ? rawOutput(output.mode, outcome.stdoutBytes, outcome.stderrBytes) : {};
  return {
    submissionId: times.submissionId,
    language: outcome.language,
    ...executionToWire(ofTest === undefined ? record : { ...record, stdout: "", stderr: "" }),
    ...own,
    startedAt: times.startedAt,
    completedAt: times.completedAt,
    compileCacheHit: outcome.compileCacheHit,
    tests: output.tests,
    version: outcome.version ?? "",
    ...scoreToWire(outcome.score),
    outputTally: output.tally,
    ...(ofTest === undefined ? {} : { outputOfTest: ofTest }),
  };
}

/** One test's run, its output already kept (ids, language and times left empty: the enclosing result has them). */
export function testToProto(test: TestOutcome, mode: OutputMode): WireTest {
  return {
    name: test.name,
    result: {
      submissionId: "",
      language: "",
      ...executionToWire(test.result),
      ...rawOutput(mode, test.stdoutBytes, test.stderrBytes),
      startedAt: undefined,
      completedAt: undefined,
      compileCacheHit: false,
      tests: [],
      version: "",
      ...scoreToWire(test.score),
      outputTally: undefined,
    },
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
