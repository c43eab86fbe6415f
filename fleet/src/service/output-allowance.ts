// One submission's output allowance (output-budget.ts): every chunk its programs write, in the
// order it arrives, keeps the prefix that fits what is left of the budget; the rest is counted as
// dropped. Once a chunk is cut nothing later is kept, so what a test's stream keeps is always a
// prefix of its capture: its length is all the record needs (kept-output.ts).
import type { OutputTally } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";

export type Stream = "stdout" | "stderr";

/** Bytes kept of one test's streams (or of the single run's: test 0). */
export interface KeptLengths {
  stdout: number;
  stderr: number;
}

export class OutputAllowance {
  readonly budget: number;
  #left: number;
  readonly #kept = new Map<number, KeptLengths>();
  readonly #totals = { stdout: { kept: 0, dropped: 0 }, stderr: { kept: 0, dropped: 0 } };

  constructor(budget: number) {
    this.budget = budget;
    this.#left = budget;
  }

  /** The part of `data` that is kept (a view of it, possibly empty); the rest is counted as dropped. */
  take(stream: Stream, data: Uint8Array, test: number): Uint8Array {
    const kept = Math.min(data.byteLength, this.#left);
    this.#left -= kept;
    const totals = this.#totals[stream];
    totals.kept += kept;
    totals.dropped += data.byteLength - kept;
    if (kept > 0) {
      const lengths = this.#kept.get(test) ?? { stdout: 0, stderr: 0 };
      lengths[stream] += kept;
      this.#kept.set(test, lengths);
    }
    return kept === data.byteLength ? data : data.subarray(0, kept);
  }

  /** What a test (0: the single run) kept of each stream. */
  keptOf(test: number): KeptLengths {
    return this.#kept.get(test) ?? { stdout: 0, stderr: 0 };
  }

  /** Whether anything was dropped: some record carries less than its program wrote. */
  get dropped(): boolean {
    return this.#totals.stdout.dropped + this.#totals.stderr.dropped > 0;
  }

  /** The top level's output_tally: the budget and, per stream, the bytes kept and dropped over every test. */
  tally(): OutputTally {
    const { stdout, stderr } = this.#totals;
    return {
      budgetBytes: this.budget,
      stdoutKeptBytes: stdout.kept,
      stdoutDroppedBytes: stdout.dropped,
      stderrKeptBytes: stderr.kept,
      stderrDroppedBytes: stderr.dropped,
    };
  }
}
