// Bytes in flight (docs/fleet-node.md, "Memory"): every submission the node admits reserves the
// most it can make the node hold until it completes — its request, its output budget and its
// captures — and gives it back when it completes (or is withdrawn). Past the node's budget
// (FLEET_INFLIGHT_MIB) a new submission is refused with RESOURCE_EXHAUSTED, as a full queue is: the
// edge puts it back in its queue for another node. A queued submission holds its reservation too,
// so what the node holds never depends on how fast the queue moves.
import type { ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { CHECKER_LIMITS } from "../judge/programs/custom-checker.ts";
import { COMPILE_LIMITS, RUN_LIMITS } from "../sandbox/limits.ts";
import { ServiceError, Status } from "./errors.ts";
import { encodedSizeBound } from "./message-size.ts";
import { outputBudgetBytes, outputMode } from "./output-budget.ts";

/** The status message of a submission the in-flight budget refused. */
export const NODE_MEMORY_FULL = "node memory budget is full";

/** The decoded request, and what the engine's request and the runs' staged files copy of it. */
export const REQUEST_COPIES = 2;
/** Raw only: the kept bytes (the tests' records), the Output events not yet written, the Completed message's encoding. */
export const RAW_OUTPUT_COPIES = 3;
/** With text: those, the decoded text (up to 2 bytes a byte in V8) and its encoding (up to 3 bytes a byte). */
export const TEXT_OUTPUT_COPIES = 6;
/** A running test's capture: its chunks, their concatenation, its decoded text (up to 2 bytes a byte). */
export const CAPTURE_COPIES = 4;

const narrowed = (cap: number, asked: number | undefined) => (asked && asked > 0 ? Math.min(cap, asked) : cap);

/**
 * The capture a test holds at once: stdout and stderr of the program (or of a compile), plus a
 * checker's or an interactor's (whose output.txt stands for the program's stdout).
 */
function captureBytes(request: ExecuteRequest): number {
  const program = Math.max(narrowed(RUN_LIMITS.outputBytes, request.limits?.outputBytes), COMPILE_LIMITS.outputBytes);
  const checker = request.checker ? narrowed(CHECKER_LIMITS.outputBytes, request.checker.limits?.outputBytes) : 0;
  const interactor = request.interactor ? narrowed(CHECKER_LIMITS.outputBytes, request.interactor.limits?.outputBytes) : 0;
  const outputTxt = request.interactor ? program : 0;
  return 2 * (program + checker + interactor) + outputTxt;
}

/** The most one submission makes the node hold, from its admission to its completion. */
export function submissionBytes(request: ExecuteRequest): number {
  const output = (outputMode(request).rawOnly ? RAW_OUTPUT_COPIES : TEXT_OUTPUT_COPIES) * outputBudgetBytes(request);
  return REQUEST_COPIES * encodedSizeBound(request) + output + CAPTURE_COPIES * captureBytes(request);
}

export class InflightBytes {
  readonly budget: number;
  #reserved = 0;

  constructor(budget: number) {
    this.budget = budget;
  }

  /** Bytes reserved by the submissions queued and running now. */
  get reserved(): number {
    return this.#reserved;
  }

  /** Reserves `bytes` (RESOURCE_EXHAUSTED past the budget); returns its release, which only the first call does. */
  reserve(bytes: number): () => void {
    if (this.#reserved + bytes > this.budget) {
      const mib = (value: number) => (value / (1024 * 1024)).toFixed(1);
      const held = `${mib(this.#reserved)} of ${mib(this.budget)} MiB in flight`;
      throw new ServiceError(Status.RESOURCE_EXHAUSTED, `${NODE_MEMORY_FULL}: ${held}, the submission needs ${mib(bytes)} MiB`);
    }
    this.#reserved += bytes;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#reserved -= bytes;
    };
  }
}
