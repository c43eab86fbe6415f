// Runs by submission id: live state for attached streams, and completed outcomes kept for a while
// so that a retried Execute or a GetResult after a broken stream finds them.
import type { ExecutionResult, Output, TestResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { ServiceError, Status } from "./errors.ts";

export type RunEvent =
  | { kind: "queued"; position: number }
  | { kind: "started"; startedAt: Date }
  | { kind: "output"; output: Output }
  | { kind: "test"; index: number; result: TestResult }
  | { kind: "completed"; result: ExecutionResult };

type Listener = (event: RunEvent | ServiceError) => void;

export class Run {
  readonly id: string;
  readonly language: string;
  /** Digest of what was asked to run: a reused id with a different request is refused. */
  readonly fingerprint: string;
  /** Aborting kills the run (or withdraws it while queued). */
  readonly abortController = new AbortController();
  state: "queued" | "running" | "completed" = "queued";
  position = 0;
  startedAt: Date | undefined;
  result: ExecutionResult | undefined;
  /** Tests finished so far: a stream that attaches later still sees every TestFinished. */
  readonly finishedTests: { index: number; result: TestResult }[] = [];
  /** Survives its streams (ExecuteRequest.detach_on_disconnect). */
  detached = false;
  readonly #listeners = new Set<Listener>();

  constructor(id: string, language: string, fingerprint: string) {
    this.id = id;
    this.language = language;
    this.fingerprint = fingerprint;
  }

  get subscribers(): number {
    return this.#listeners.size;
  }

  markQueued(position: number): void {
    this.position = position;
    this.#publish({ kind: "queued", position });
  }

  markStarted(startedAt: Date): void {
    this.state = "running";
    this.startedAt = startedAt;
    this.#publish({ kind: "started", startedAt });
  }

  /** Output as written; live streams only (a later stream or GetResult has the whole record). */
  output(output: Output): void {
    this.#publish({ kind: "output", output });
  }

  testFinished(index: number, result: TestResult): void {
    this.finishedTests.push({ index, result });
    this.#publish({ kind: "test", index, result });
  }

  complete(result: ExecutionResult): void {
    this.state = "completed";
    this.result = result;
    this.#publish({ kind: "completed", result });
  }

  /** The run was withdrawn before it started: streams still attached end with ABORTED. */
  discard(): void {
    this.#publish(new ServiceError(Status.ABORTED, "the run was cancelled before it started"));
  }

  /** Current state as events (what a late subscriber needs), then everything that follows. */
  async *events(signal: AbortSignal): AsyncGenerator<RunEvent> {
    const pending: (RunEvent | ServiceError)[] = [...this.#snapshot()];
    let wake: (() => void) | undefined;
    const listener: Listener = (event) => {
      pending.push(event);
      wake?.();
    };
    const onAbort = () => wake?.();
    this.#listeners.add(listener);
    signal.addEventListener("abort", onAbort);
    try {
      while (!signal.aborted) {
        const event = pending.shift();
        if (event === undefined) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        if (event instanceof ServiceError) throw event;
        yield event;
        if (event.kind === "completed") return;
      }
    } finally {
      this.#listeners.delete(listener);
      signal.removeEventListener("abort", onAbort);
    }
  }

  #snapshot(): RunEvent[] {
    if (this.state === "queued") return [{ kind: "queued", position: this.position }];
    const started: RunEvent = { kind: "started", startedAt: this.startedAt! };
    const tests: RunEvent[] = this.finishedTests.map(({ index, result }) => ({ kind: "test", index, result }));
    return this.state === "running" ? [started, ...tests] : [started, ...tests, { kind: "completed", result: this.result! }];
  }

  #publish(event: RunEvent | ServiceError): void {
    for (const listener of this.#listeners) listener(event);
  }
}

export interface RetentionOptions {
  retentionMs: number;
  /** Cap on kept completed runs; the oldest go first. */
  maxCompleted: number;
  now?: () => number;
}

export class RunRegistry {
  readonly #runs = new Map<string, Run>();
  /** Completed run ids in completion order, with their completion time. */
  readonly #completedAt = new Map<string, number>();
  readonly #retentionMs: number;
  readonly #maxCompleted: number;
  readonly #now: () => number;

  constructor(options: RetentionOptions) {
    this.#retentionMs = options.retentionMs;
    this.#maxCompleted = options.maxCompleted;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#runs.size;
  }

  get(id: string): Run | undefined {
    this.sweep();
    return this.#runs.get(id);
  }

  add(run: Run): void {
    this.#runs.set(run.id, run);
  }

  forget(id: string): void {
    this.#runs.delete(id);
    this.#completedAt.delete(id);
  }

  /** Starts the retention clock of a completed run. */
  retain(run: Run): void {
    this.#completedAt.set(run.id, this.#now());
    this.sweep();
  }

  /** Drops completed runs past retention or beyond the cap. */
  sweep(): void {
    const oldestKept = this.#now() - this.#retentionMs;
    for (const [id, completedAt] of this.#completedAt) {
      if (completedAt > oldestKept && this.#completedAt.size <= this.#maxCompleted) break;
      this.forget(id);
    }
  }
}
