// Runs by submission id: live state for attached streams, and completed outcomes kept for a while
// so that a retried Execute or a GetResult after a broken stream finds them: for the retention
// time, within a count cap and a byte budget, the least recently used going first.
import type { ExecutionResult, Output, TestResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { ServiceError, Status } from "./errors.ts";
import { encodedSizeBound } from "./message-size.ts";
import type { LiveInput } from "./live-input.ts";

export type RunEvent =
  | { kind: "queued"; position: number }
  | { kind: "started"; startedAt: Date }
  | { kind: "output"; output: Output }
  | { kind: "stage"; name: string }
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
  /** Stages reached so far (compile, run): a stream that attaches later still sees them. */
  readonly stages: string[] = [];
  /** Survives its streams (ExecuteRequest.detach_on_disconnect). */
  detached = false;
  /** The run's live stdin and signals (ExecuteRequest.live_stdin), fed by SendInput. */
  live: LiveInput | undefined;
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

  /** The run reached a stage (compile, run). */
  stage(name: string): void {
    this.stages.push(name);
    this.#publish({ kind: "stage", name });
  }

  testFinished(index: number, result: TestResult): void {
    this.finishedTests.push({ index, result });
    this.#publish({ kind: "test", index, result });
  }

  complete(result: ExecutionResult): void {
    this.state = "completed";
    this.result = result;
    // A late subscriber replays the tests from the record itself (the same content the events had,
    // through the same budget), so a kept run holds its output once.
    this.finishedTests.splice(0, this.finishedTests.length, ...result.tests.map((test, index) => ({ index, result: test })));
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
    const started: RunEvent[] = [{ kind: "started", startedAt: this.startedAt! }, ...this.stages.map((name) => ({ kind: "stage" as const, name }))];
    const tests: RunEvent[] = this.finishedTests.map(({ index, result }) => ({ kind: "test", index, result }));
    return this.state === "running" ? [...started, ...tests] : [...started, ...tests, { kind: "completed", result: this.result! }];
  }

  #publish(event: RunEvent | ServiceError): void {
    for (const listener of this.#listeners) listener(event);
  }
}

/** What a kept run costs beside its result: the Run, its ids and bookkeeping. */
export const RUN_OVERHEAD_BYTES = 1024;
/** Default byte budget of kept outcomes (FLEET_MAX_RETAINED_RESULT_MIB). */
export const DEFAULT_MAX_RETAINED_BYTES = 256 * 1024 * 1024;

/** A kept run's size: an upper bound of its result's encoding (what GetResult sends) plus the overhead. */
export const retainedSize = (run: Run): number => RUN_OVERHEAD_BYTES + encodedSizeBound(run.result);

/** Why a completed run was dropped: past the retention time, beyond the count cap, beyond the byte budget. */
export type EvictionReason = "expired" | "count" | "bytes";

export interface RetentionOptions {
  retentionMs: number;
  /** Cap on kept completed runs; the least recently used go first. */
  maxCompleted: number;
  /** Cap on the bytes of kept completed runs (default DEFAULT_MAX_RETAINED_BYTES); the least recently used go first. */
  maxBytes?: number;
  now?: () => number;
  /** A completed run's size (default retainedSize). */
  sizeOf?: (run: Run) => number;
  onEvict?: (run: Run, reason: EvictionReason) => void;
}

export class RunRegistry {
  readonly #runs = new Map<string, Run>();
  /** Completed run ids in completion order, with their completion time (expiry). */
  readonly #completedAt = new Map<string, number>();
  /** The same ids in recency order, least recently used first, with their size (count and byte caps). */
  readonly #recency = new Map<string, number>();
  #bytes = 0;
  readonly #retentionMs: number;
  readonly #maxCompleted: number;
  readonly #maxBytes: number;
  readonly #now: () => number;
  readonly #sizeOf: (run: Run) => number;
  readonly #onEvict: ((run: Run, reason: EvictionReason) => void) | undefined;

  constructor(options: RetentionOptions) {
    this.#retentionMs = options.retentionMs;
    this.#maxCompleted = options.maxCompleted;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_RETAINED_BYTES;
    this.#now = options.now ?? Date.now;
    this.#sizeOf = options.sizeOf ?? retainedSize;
    this.#onEvict = options.onEvict;
  }

  get size(): number {
    return this.#runs.size;
  }

  /** Completed runs kept. */
  get retainedRuns(): number {
    return this.#recency.size;
  }

  /** Their size, as counted when each was kept. */
  get retainedBytes(): number {
    return this.#bytes;
  }

  get maxBytes(): number {
    return this.#maxBytes;
  }

  /** The run, if known; a kept one becomes the most recently used. */
  get(id: string): Run | undefined {
    this.sweep();
    const size = this.#recency.get(id);
    if (size !== undefined) {
      this.#recency.delete(id);
      this.#recency.set(id, size);
    }
    return this.#runs.get(id);
  }

  add(run: Run): void {
    this.#runs.set(run.id, run);
  }

  forget(id: string): void {
    this.#runs.delete(id);
    this.#completedAt.delete(id);
    const size = this.#recency.get(id);
    if (size !== undefined) {
      this.#bytes -= size;
      this.#recency.delete(id);
    }
  }

  /** Starts the retention clock of a completed run and counts its size. */
  retain(run: Run): void {
    this.forget(run.id);
    this.#runs.set(run.id, run);
    const size = this.#sizeOf(run);
    this.#completedAt.set(run.id, this.#now());
    this.#recency.set(run.id, size);
    this.#bytes += size;
    this.sweep();
  }

  /**
   * Drops completed runs past retention, then the least recently used beyond the count cap or the
   * byte budget. The most recently used one always stays, even alone above the budget.
   */
  sweep(): void {
    const oldestKept = this.#now() - this.#retentionMs;
    for (const [id, completedAt] of this.#completedAt) {
      if (completedAt > oldestKept) break;
      this.#evict(id, "expired");
    }
    for (const id of this.#recency.keys()) {
      const reason = this.#recency.size > this.#maxCompleted ? "count" : this.#bytes > this.#maxBytes && this.#recency.size > 1 ? "bytes" : undefined;
      if (!reason) break;
      this.#evict(id, reason);
    }
  }

  #evict(id: string, reason: EvictionReason): void {
    const run = this.#runs.get(id);
    this.forget(id);
    if (run) this.#onEvict?.(run, reason);
  }
}
