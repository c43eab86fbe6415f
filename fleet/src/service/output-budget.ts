// A submission's output budget (docs/fleet-node.md, "Output budget"): the output bytes, both
// streams and every test, that the node sends in Output events and keeps in the result, each byte
// once (ExecuteRequest.output_budget_bytes). What one record form costs per kept byte bounds the
// largest Completed or GetResult message under the gRPC-Web frame cap, whatever the tests printed.
import type { ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { OUTPUT_BUDGET_MAX_BYTES } from "../../../proto/limits.ts";

const MiB = 1024 * 1024;

/** judge_actions of a record (a test's, or the top level's for the result as a whole) whose output the budget cut. */
export const OUTPUT_TRIMMED = "output_trimmed_from_record";

/**
 * The budget's cap when the record carries text (not raw_output_only): a kept byte may decode to 3
 * bytes of text (an invalid byte becomes U+FFFD) and the top level repeats the deciding test's
 * output (at most its two 1 MiB captures): 3 × (2.5 MiB + 2 MiB) + 1 MiB of the rest = 14.5 MiB.
 */
export const TEXT_BUDGET_MAX_BYTES = 2.5 * MiB;
/** With binary_output, text and raw bytes both: 4 × (1.5 MiB + 1.5 MiB) + 1 MiB = 13 MiB. */
export const TEXT_AND_BYTES_BUDGET_MAX_BYTES = 1.5 * MiB;

/** How a record carries output: raw bytes only, text only, or text and raw bytes (binary_output). */
export interface OutputMode {
  rawOnly: boolean;
  /** Text beside the raw bytes (ExecuteRequest.binary_output); ignored with rawOnly. */
  binary: boolean;
}

type BudgetFields = Pick<ExecuteRequest, "outputBudgetBytes" | "rawOutputOnly" | "binaryOutput">;

export const outputMode = (request: BudgetFields): OutputMode => ({ rawOnly: request.rawOutputOnly, binary: request.binaryOutput && !request.rawOutputOnly });

/** The node's cap for a record form: OUTPUT_BUDGET_MAX_BYTES for raw bytes only, less when text is carried. */
export function budgetCap(mode: OutputMode): number {
  if (mode.rawOnly) return OUTPUT_BUDGET_MAX_BYTES;
  return mode.binary ? TEXT_AND_BYTES_BUDGET_MAX_BYTES : TEXT_BUDGET_MAX_BYTES;
}

/** The submission's budget in bytes: what it asked for (0: the node's cap), never above the cap. */
export function outputBudgetBytes(request: BudgetFields): number {
  const cap = budgetCap(outputMode(request));
  const asked = request.outputBudgetBytes;
  return asked > 0 ? Math.min(asked, cap) : cap;
}
