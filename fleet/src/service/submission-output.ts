// One submission's output on its way out (docs/fleet-node.md, "Output budget"): every chunk its
// programs write goes through the output allowance, whether or not it is streamed; the kept part
// goes to the Output events when stream_output is set. Each test's record is cut to what was kept
// of it the moment it finishes (the engine keeps only that from then on), and so is the top level.
import type { ExecuteRequest, ExecutionResult, Output, TestResult as WireTest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecuteOutcome, TestOutcome } from "../engine.ts";
import { keepOutput } from "./kept-output.ts";
import { OutputAllowance, type Stream } from "./output-allowance.ts";
import { outputBudgetBytes, outputMode, type OutputMode } from "./output-budget.ts";
import { OutputCoalescer } from "./output-coalescer.ts";
import { resultToProto, testToProto, type RunTimes } from "./result-to-proto.ts";

const encoder = new TextEncoder();

export class SubmissionOutput {
  readonly mode: OutputMode;
  readonly allowance: OutputAllowance;
  readonly #coalescer: OutputCoalescer | undefined;
  /** The tests as their TestFinished events carried them, by index. */
  readonly #sent = new Map<number, WireTest>();

  /** `emit`: where Output events go (absent: output is not streamed, only counted and kept). */
  constructor(request: ExecuteRequest, emit: ((output: Output) => void) | undefined) {
    this.mode = outputMode(request);
    this.allowance = new OutputAllowance(outputBudgetBytes(request));
    this.#coalescer = emit && new OutputCoalescer(emit);
  }

  /** The engine's onOutput: the chunk's kept prefix, streamed when asked. */
  write(stream: Stream, data: Uint8Array, test: number): void {
    const kept = this.allowance.take(stream, data, test);
    this.#coalescer?.write(stream, kept, test);
  }

  /** Sends what is pending (before a test's, a stage's or the completion's event). */
  flush(): void {
    this.#coalescer?.flush();
  }

  /** A finished test, judged: what the engine keeps of it from now on (its output as kept). */
  keep(index: number, outcome: TestOutcome): TestOutcome {
    this.flush();
    return keepOutput(outcome, this.allowance.keptOf(index), this.mode);
  }

  /** A kept test as its TestFinished event (and the Completed record) carries it. */
  sent(index: number, kept: TestOutcome): WireTest {
    const wire = testToProto(kept, this.mode);
    this.#sent.set(index, wire);
    return wire;
  }

  /** The Completed record: the tests as sent, the top level's output as kept, the tally. */
  result(outcome: ExecuteOutcome, times: RunTimes): ExecutionResult {
    const top = this.#keptTop(outcome);
    this.flush();
    const tests = (outcome.tests ?? []).map((test, index) => this.#sent.get(index) ?? this.sent(index, this.keep(index, test)));
    return resultToProto(top, times, { mode: this.mode, tests, tally: this.allowance.tally(), trimmed: this.allowance.dropped });
  }

  /**
   * With tests the top level's output is the deciding test's, already kept when it was sent. A
   * single run's is cut to what it kept. When no program ran (a compile error) its diagnostics are
   * the output: they go through the allowance (and the stream) now.
   */
  #keptTop(outcome: ExecuteOutcome): ExecuteOutcome {
    if (outcome.tests?.length) return outcome;
    let { stdoutBytes, stderrBytes } = outcome;
    if (stdoutBytes === undefined) {
      stdoutBytes = encoder.encode(outcome.result.stdout);
      stderrBytes = encoder.encode(outcome.result.stderr);
      this.write("stdout", stdoutBytes, 0);
      this.write("stderr", stderrBytes, 0);
    }
    return keepOutput({ ...outcome, stdoutBytes, stderrBytes: stderrBytes ?? new Uint8Array() }, this.allowance.keptOf(0), this.mode);
  }
}
