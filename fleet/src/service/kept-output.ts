// A run's record cut to what the output allowance kept of it (output-allowance.ts): per stream the
// kept prefix of its capture, copied (the whole capture is not kept alive by it), as raw bytes
// and/or as the text those bytes decode to, per the record's form (output-budget.ts). The Output
// events a stream sent are that same prefix, so the events and the record agree byte for byte.
import type { ExecutionRecord } from "../sandbox/run-spec.ts";
import type { KeptLengths } from "./output-allowance.ts";
import { OUTPUT_TRIMMED, type OutputMode } from "./output-budget.ts";

/** A run's record with its captured output (a TestOutcome, the single run's outcome). */
export interface RunOutput {
  result: ExecutionRecord;
  stdoutBytes: Uint8Array;
  stderrBytes: Uint8Array;
}

const EMPTY = new Uint8Array(0);

/** A copy of the first `length` bytes, in a buffer of its own. */
function prefix(bytes: Uint8Array, length: number): Uint8Array {
  const copy = new Uint8Array(Math.min(length, bytes.byteLength));
  copy.set(bytes.subarray(0, copy.byteLength));
  return copy;
}

const decode = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");

/** The record with OUTPUT_TRIMMED in its judge_actions (the top level of a result the budget cut anything of). */
export function withTrimmedMark(result: ExecutionRecord): ExecutionRecord {
  const { evidence } = result;
  if (evidence.judge_actions.includes(OUTPUT_TRIMMED)) return result;
  return { ...result, evidence: { ...evidence, judge_actions: [...evidence.judge_actions, OUTPUT_TRIMMED] } };
}

/** A record whose own output the budget cut: truncated_by_judge_limit (if it was complete) and the mark. */
function markTrimmed(result: ExecutionRecord): ExecutionRecord {
  const integrity = result.output_integrity === "complete" ? "truncated_by_judge_limit" : result.output_integrity;
  return withTrimmedMark({ ...result, output_integrity: integrity });
}

/**
 * The run as the record keeps it: each stream's first `kept` bytes, as text (decoded) unless
 * raw only, as raw bytes when raw only or binary (else empty). Judging is done by then: the
 * verdict and the rest of the record stay as they are, but for the marks of a cut.
 */
export function keepOutput<T extends RunOutput>(run: T, kept: KeptLengths, mode: OutputMode): T {
  const cut = kept.stdout < run.stdoutBytes.byteLength || kept.stderr < run.stderrBytes.byteLength;
  const stdout = prefix(run.stdoutBytes, kept.stdout);
  const stderr = prefix(run.stderrBytes, kept.stderr);
  const text = (bytes: Uint8Array) => (mode.rawOnly ? "" : decode(bytes));
  const result = { ...run.result, stdout: text(stdout), stderr: text(stderr) };
  const raw = mode.rawOnly || mode.binary;
  return { ...run, result: cut ? markTrimmed(result) : result, stdoutBytes: raw ? stdout : EMPTY, stderrBytes: raw ? stderr : EMPTY };
}
