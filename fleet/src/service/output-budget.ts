// What one submission's result record carries of its programs' output, bounded by construction, so
// that the largest Completed, GetResult or TestFinished message stays far under the gRPC-Web frame
// cap (arithmetic in docs/fleet-node.md, "Result budget"). Judging already saw every test's whole
// capture: only the record is trimmed, and a record that was says so in evidence.judge_actions.
import type { Evidence, ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";

const MiB = 1024 * 1024;

/** Output bytes one record carries at most: UTF-8 text plus raw bytes, every stream, the tests and the top level. */
export const RESULT_OUTPUT_BUDGET = 8 * MiB;
/**
 * The part of it kept for the top level (the deciding run's output, 1 MiB stdout + 1 MiB stderr of
 * text at the default capture cap): the tests share the rest, in order.
 */
export const DECIDING_OUTPUT_RESERVE = 2 * MiB;
/** judge_actions of a record (a test's, or the top level's for the record as a whole) whose output was cut. */
export const OUTPUT_TRIMMED = "output_trimmed_from_record";

type Stream = { text: "stdout"; bytes: "stdoutBytes" } | { text: "stderr"; bytes: "stderrBytes" };
const STREAMS: readonly Stream[] = [
  { text: "stdout", bytes: "stdoutBytes" },
  { text: "stderr", bytes: "stderrBytes" },
];

const streamBytes = (result: ExecutionResult, stream: Stream) =>
  Buffer.byteLength(result[stream.text], "utf8") + (result[stream.bytes]?.byteLength ?? 0);

/**
 * The longest prefix of whole characters within `maxBytes` of UTF-8 (a new string: the original is
 * not kept alive). Work is linear in the prefix kept, not in the text: a record past the budget
 * (allowance 0) costs nothing, however much its program printed.
 */
function cutText(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const unit = text.charCodeAt(end);
    const pair = unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
    // a lone surrogate is written as U+FFFD (3 bytes)
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  if (end === text.length) return text;
  return Buffer.from(text.slice(0, end), "utf8").toString("utf8");
}

const marked = (evidence: Evidence | undefined): Evidence | undefined =>
  evidence && !evidence.judgeActions.includes(OUTPUT_TRIMMED)
    ? { ...evidence, judgeActions: [...evidence.judgeActions, OUTPUT_TRIMMED] }
    : evidence;

/**
 * One record's output within `allowance` bytes. When it does not fit, each stream gets half (what
 * one needs less of goes to the other) and keeps a prefix: its raw bytes first (what a base64
 * record shows), then its text. Returns the record (marked when cut) and the bytes it carries.
 */
function fit(result: ExecutionResult, allowance: number): { result: ExecutionResult; used: number; cut: boolean } {
  const [outSize, errSize] = STREAMS.map((stream) => streamBytes(result, stream)) as [number, number];
  if (outSize + errSize <= allowance) return { result, used: outSize + errSize, cut: false };
  const half = Math.floor(allowance / 2);
  const outShare = errSize <= half ? allowance - errSize : outSize <= half ? outSize : allowance - half;
  const shares = [outShare, allowance - outShare];
  const trimmed: ExecutionResult = { ...result, evidence: marked(result.evidence) };
  let used = 0;
  for (const [index, stream] of STREAMS.entries()) {
    let left = shares[index]!;
    const raw = result[stream.bytes];
    if (raw !== undefined) {
      const kept = raw.byteLength <= left ? raw : raw.slice(0, left);
      trimmed[stream.bytes] = kept;
      left -= kept.byteLength;
      used += kept.byteLength;
    }
    const text = cutText(result[stream.text], left);
    trimmed[stream.text] = text;
    used += Buffer.byteLength(text, "utf8");
  }
  return { result: trimmed, used, cut: true };
}

/**
 * One submission's budget. Tests are passed in order as they finish (each TestFinished carries
 * what Completed will: the same sequence through a fresh budget trims the same way), then the top
 * level once.
 */
export class OutputBudget {
  readonly #total: number;
  #testsLeft: number;
  #carriedByTests = 0;
  #cut = false;

  constructor(total = RESULT_OUTPUT_BUDGET, reserve = DECIDING_OUTPUT_RESERVE) {
    this.#total = total;
    this.#testsLeft = Math.max(0, total - reserve);
  }

  /** A test's result: the tests share the budget less the reserve, first come first served. */
  test(result: ExecutionResult): ExecutionResult {
    const fitted = fit(result, this.#testsLeft);
    this.#testsLeft -= fitted.used;
    this.#carriedByTests += fitted.used;
    this.#cut ||= fitted.cut;
    return fitted.result;
  }

  /** The top level: the reserve and whatever the tests left; marked when anything in the record was cut. */
  top(result: ExecutionResult): ExecutionResult {
    const fitted = fit(result, this.#total - this.#carriedByTests);
    this.#cut ||= fitted.cut;
    return this.#cut ? { ...fitted.result, evidence: marked(fitted.result.evidence) } : fitted.result;
  }
}
