// The result record on the wire: the one mapping between ExecutionRecord (record.ts) and the
// proto ExecutionResult, in both directions (a node encodes, the edge decodes).
import {
  OutputIntegrity as WireIntegrity,
  Verdict as WireVerdict,
  type Evidence as WireEvidence,
  type ExecutionResult as WireResult,
} from "./gen/codecell/fleet/v1/fleet.ts";
import type {
  AppliedLimits, CheckerEvidence, Encoding, Evidence, ExecutionRecord, OutputBudgetUse, OutputIntegrity, OutputMismatch, TestRecord, Verdict,
} from "./record.ts";
import type {
  CheckerEvidence as WireChecker, Mismatch as WireMismatch, OutputTally as WireTally, RunLimits as WireLimits, TestResult as WireTest,
} from "./gen/codecell/fleet/v1/fleet.ts";
import { toBase64 } from "./base64.ts";

const VERDICT_TO_WIRE: Record<Verdict, WireVerdict> = {
  AC: WireVerdict.VERDICT_AC, RE: WireVerdict.VERDICT_RE, TLE: WireVerdict.VERDICT_TLE, MLE: WireVerdict.VERDICT_MLE,
  PLE: WireVerdict.VERDICT_PLE, FSE: WireVerdict.VERDICT_FSE, SIG: WireVerdict.VERDICT_SIG, IE: WireVerdict.VERDICT_IE,
  WA: WireVerdict.VERDICT_WA, SKIPPED: WireVerdict.VERDICT_SKIPPED,
};

const INTEGRITY_TO_WIRE: Record<OutputIntegrity, WireIntegrity> = {
  complete: WireIntegrity.OUTPUT_INTEGRITY_COMPLETE,
  truncated_by_judge_limit: WireIntegrity.OUTPUT_INTEGRITY_TRUNCATED_BY_JUDGE_LIMIT,
  crash_mid_write: WireIntegrity.OUTPUT_INTEGRITY_CRASH_MID_WRITE,
  write_error: WireIntegrity.OUTPUT_INTEGRITY_WRITE_ERROR,
};

const invert = <K extends string, V extends number>(table: Record<K, V>): Map<number, K> =>
  new Map(Object.entries(table).map(([k, v]) => [v as number, k as K]));
const VERDICT_FROM_WIRE = invert(VERDICT_TO_WIRE);
const INTEGRITY_FROM_WIRE = invert(INTEGRITY_TO_WIRE);

/** The outcome fields of the wire message; the caller adds ids, language and times. */
export type WireExecution = Pick<WireResult,
  "verdict" | "exitCode" | "signal" | "stdout" | "stderr" | "outputIntegrity" | "errorMessage" | "cpuTimeSecs" |
  "wallTimeSecs" | "memoryPeakBytes" | "evidence"> & Partial<Pick<WireResult, "stdoutBytes" | "stderrBytes">>;

export function executionToWire(o: ExecutionRecord): WireExecution {
  const e = o.evidence;
  return {
    verdict: VERDICT_TO_WIRE[o.verdict] ?? WireVerdict.VERDICT_UNSPECIFIED,
    exitCode: o.exit_code ?? undefined,
    signal: o.signal ?? undefined,
    stdout: o.stdout,
    stderr: o.stderr,
    outputIntegrity: INTEGRITY_TO_WIRE[o.output_integrity] ?? WireIntegrity.OUTPUT_INTEGRITY_UNSPECIFIED,
    errorMessage: o.error_message ?? undefined,
    cpuTimeSecs: o.cpu_time_secs,
    wallTimeSecs: o.wall_time_secs,
    memoryPeakBytes: o.memory_peak_bytes,
    evidence: {
      verdictCause: e.verdict_cause,
      verdictActor: e.verdict_actor,
      isolationMode: e.isolation_mode,
      controlsApplied: e.controls_applied,
      controlsMissing: e.controls_missing,
      cgroup: {
        memoryLimitBytes: e.cgroup.memory_limit_bytes, memoryPeakBytes: e.cgroup.memory_peak_bytes,
        oomEvents: e.cgroup.oom_events, oomKillEvents: e.cgroup.oom_kill_events, cpuUsageUsec: e.cgroup.cpu_usage_usec,
        processCount: e.cgroup.process_count, processLimit: e.cgroup.process_limit,
      },
      timing: { cpuMs: e.timing.cpu_ms, wallMs: e.timing.wall_ms, cpuWallRatio: e.timing.cpu_wall_ratio, divergence: e.timing.divergence },
      processLifecycle: {
        reapStatus: e.process_lifecycle.reap_status, descendantContainment: e.process_lifecycle.descendant_containment,
        zombieCount: e.process_lifecycle.zombie_count,
      },
      judgeActions: e.judge_actions,
      collectionErrors: e.collection_errors,
      mismatch: e.mismatch ? mismatchToWire(e.mismatch) : undefined,
      limits: e.limits ? limitsToWire(e.limits) : undefined,
      checker: e.checker ? checkerToWire(e.checker) : undefined,
      interactor: e.interactor ? checkerToWire(e.interactor) : undefined,
    },
  };
}

export function limitsToWire(l: AppliedLimits): WireLimits {
  return {
    wallTimeMs: l.wall_time_ms, cpuTimeMs: l.cpu_time_ms, memoryBytes: l.memory_bytes, processes: l.processes,
    outputBytes: l.output_bytes, fileSizeBytes: 0,
  };
}

export function limitsFromWire(l: WireLimits): AppliedLimits {
  return {
    wall_time_ms: l.wallTimeMs, cpu_time_ms: l.cpuTimeMs, memory_bytes: l.memoryBytes, processes: l.processes,
    output_bytes: l.outputBytes,
  };
}

function mismatchToWire(m: OutputMismatch): WireMismatch {
  return { line: m.line, column: m.column ?? 0, token: m.token ?? 0, expected: m.expected, actual: m.actual, message: m.message };
}

function mismatchFromWire(m: WireMismatch): OutputMismatch {
  return {
    line: m.line, column: m.column || null, token: m.token || null, expected: m.expected, actual: m.actual, message: m.message,
  };
}

function checkerToWire(c: CheckerEvidence): WireChecker {
  return { exitCode: c.exit_code ?? undefined, cause: c.cause, message: c.message, points: c.points ?? undefined };
}

function checkerFromWire(c: WireChecker): CheckerEvidence {
  return { exit_code: c.exitCode ?? null, cause: c.cause, message: c.message, points: c.points ?? null };
}

export function evidenceFromWire(e: WireEvidence | undefined): Evidence | null {
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
    timing: {
      cpu_ms: t?.cpuMs ?? 0, cpu_time_ms: t?.cpuMs ?? 0, wall_ms: t?.wallMs ?? 0, cpu_wall_ratio: t?.cpuWallRatio ?? 0, divergence: t?.divergence ?? "",
    },
    process_lifecycle: {
      reap_status: p?.reapStatus ?? "", descendant_containment: p?.descendantContainment ?? "", zombie_count: p?.zombieCount ?? 0,
    },
    judge_actions: [...e.judgeActions],
    collection_errors: [...e.collectionErrors],
    ...(e.limits ? { limits: limitsFromWire(e.limits) } : {}),
    ...(e.mismatch ? { mismatch: mismatchFromWire(e.mismatch) } : {}),
    ...(e.checker ? { checker: checkerFromWire(e.checker) } : {}),
    ...(e.interactor ? { interactor: checkerFromWire(e.interactor) } : {}),
  };
}

/**
 * The outcome a node reported. A verdict this side does not know becomes IE with an error message
 * saying so, rather than a guess; evidence is null only when the node sent none.
 */
export function executionFromWire(r: WireExecution, encoding: Encoding = "utf8"): Omit<ExecutionRecord, "evidence"> & { evidence: Evidence | null } {
  const verdict = VERDICT_FROM_WIRE.get(r.verdict);
  return {
    verdict: verdict ?? "IE",
    exit_code: r.exitCode ?? null,
    signal: r.signal ?? null,
    stdout: outputText(r.stdout, r.stdoutBytes, encoding),
    stderr: outputText(r.stderr, r.stderrBytes, encoding),
    output_integrity: INTEGRITY_FROM_WIRE.get(r.outputIntegrity) ?? "complete",
    error_message: r.errorMessage ?? (verdict === undefined ? `fleet node returned an unknown verdict (${r.verdict})` : null),
    cpu_time_secs: r.cpuTimeSecs,
    wall_time_secs: r.wallTimeSecs,
    memory_peak_bytes: r.memoryPeakBytes,
    evidence: evidenceFromWire(r.evidence),
  };
}

const utf8 = new TextDecoder("utf-8");

/**
 * A stream's output in the record's encoding: its raw bytes decoded (U+FFFD for what is not
 * UTF-8, as a node decodes) or in base64; the text as sent when a node sent no raw bytes.
 */
export function outputText(text: string, bytes: Uint8Array | undefined, encoding: Encoding): string {
  if (encoding === "utf8") return bytes === undefined ? text : utf8.decode(bytes);
  return toBase64(bytes ?? new TextEncoder().encode(text));
}

/** The record's `output_budget` from the node's tally; absent when the node sent none. */
export function budgetUseFromWire(t: WireTally | undefined): OutputBudgetUse | undefined {
  if (!t) return undefined;
  return {
    budget_bytes: t.budgetBytes,
    stdout: { kept_bytes: t.stdoutKeptBytes, dropped_bytes: t.stdoutDroppedBytes },
    stderr: { kept_bytes: t.stderrKeptBytes, dropped_bytes: t.stderrDroppedBytes },
  };
}

const NO_EVIDENCE: Evidence = evidenceFromWire({
  verdictCause: "", verdictActor: "", isolationMode: "", controlsApplied: [], controlsMissing: [], cgroup: undefined,
  timing: undefined, processLifecycle: undefined, judgeActions: [], collectionErrors: [], mismatch: undefined, limits: undefined,
  checker: undefined, interactor: undefined,
})!;

/** One test's outcome as the record lists it (record.ts TestRecord). */
export function testFromWire(t: WireTest, encoding: Encoding = "utf8"): TestRecord {
  const r = t.result;
  if (!r) {
    return {
      name: t.name, verdict: "IE", stdout: "", stderr: "", exit_code: null, signal: null, time_ms: 0, memory_bytes: 0,
      output_integrity: "complete", evidence: NO_EVIDENCE,
    };
  }
  const e = executionFromWire(r, encoding);
  return {
    name: t.name, verdict: e.verdict, stdout: e.stdout, stderr: e.stderr, exit_code: e.exit_code, signal: e.signal,
    time_ms: Math.round(e.wall_time_secs * 1000), memory_bytes: e.memory_peak_bytes, output_integrity: e.output_integrity,
    evidence: e.evidence ?? NO_EVIDENCE,
    ...(r.score !== undefined ? { score: r.score } : {}),
  };
}

/** The record's score fields, present when the node scored the request. */
export function scoreFromWire(r: Pick<WireResult, "score" | "maxScore">): { score?: number; max_score?: number } {
  return r.score !== undefined ? { score: r.score, max_score: r.maxScore ?? 0 } : {};
}
