// The judge's output checks run here, off the node's event loop: a small pool of worker threads
// (check-worker.ts), started on the first check. Each check has a time budget from the moment a
// ready worker takes it (a worker's start-up does not count); a worker over it is terminated (a
// fresh one takes the next check) and the check answers `overrun`, which the judge reports as a
// wrong answer for exceeding the budget (judgeRun in tests.ts): a check that runs too long never
// stalls the node, and is never reported as the platform's failure.
import { Worker } from "node:worker_threads";
import type { CompareMode } from "../../../../proto/submission-rules.ts";
import type { CheckResult } from "./check-result.ts";

/**
 * How long one output check may run in a worker. The checkers are linear: a check of the largest
 * output a run may write (1 MiB) against an expected output of the same size takes milliseconds
 * (tens for a million tokens; npm run bench:checker), so only a fault of the checker or of the
 * machine can reach 5 s.
 */
export const CHECK_BUDGET_MS = 5_000;

/** Worker threads in a node's pool: checks are short, and the cores belong to the sandboxes. */
export const CHECK_WORKERS = 2;

export interface CheckJob {
  /** The program's output: bytes, decoded as UTF-8 in the worker for the text rules (checker.ts). */
  actual: Uint8Array | string;
  expected: Uint8Array | string;
  mode: CompareMode;
  epsilon?: number;
}

/** The checker's result, or the check ran past its budget and its worker was replaced. */
export type CheckAnswer = CheckResult | { overrun: true; budgetMs: number };

/** What judges output: the pool, or anything that answers the same way. */
export interface OutputChecks {
  check(job: CheckJob): Promise<CheckAnswer>;
}

/** To a worker, and back (check-worker.ts). */
export interface CheckJobMessage extends CheckJob {
  id: number;
}
export type CheckReplyMessage = { id: number; result: CheckResult } | { id: number; error: string } | { ready: true };

export interface CheckPoolOptions {
  workers?: number;
  budgetMs?: number;
  /** The worker's module (tests give one of their own). */
  workerUrl?: URL;
}

interface Task {
  job: CheckJob;
  resolve(answer: CheckAnswer): void;
  reject(error: Error): void;
}

interface Running {
  id: number;
  task: Task;
  timer: NodeJS.Timeout;
}

export class CheckPool implements OutputChecks {
  readonly budgetMs: number;
  private readonly size: number;
  private readonly workerUrl: URL;
  /** Every worker, from its start until it exits or is terminated: starting, idle or running. */
  private readonly live = new Set<Worker>();
  private readonly starting = new Set<Worker>();
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Running>();
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers terminated for running past their budget (a fresh one starts when a check waits). */
  replaced = 0;

  constructor(options: CheckPoolOptions = {}) {
    this.size = Math.max(1, options.workers ?? CHECK_WORKERS);
    this.budgetMs = options.budgetMs ?? CHECK_BUDGET_MS;
    this.workerUrl = options.workerUrl ?? new URL("./check-worker.ts", import.meta.url);
  }

  /** Workers started and not yet exited. */
  get workers(): number {
    return this.live.size;
  }

  check(job: CheckJob): Promise<CheckAnswer> {
    if (this.closed) return Promise.reject(new Error("the output check pool is closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; checks still waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error("the output check pool is closed");
    for (const task of this.queue.splice(0)) task.reject(error);
    const workers = [...this.live];
    for (const worker of workers) this.lose(worker, error);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0 && this.idle.length > 0) this.start(this.idle.pop()!, this.queue.shift()!);
    // Workers still starting take the next checks when ready; more start, up to the pool's size.
    for (let wanted = this.queue.length - this.starting.size; wanted > 0 && this.live.size < this.size; wanted--) this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(this.workerUrl, { name: "codecell-check" });
    worker.on("message", (reply: CheckReplyMessage) => {
      if ("ready" in reply) this.ready(worker);
      else this.answered(worker, reply);
    });
    worker.on("error", (error) => this.lose(worker, new Error(`the output check failed: ${error.message}`)));
    worker.on("exit", (code) => this.lose(worker, new Error(`the output check's worker exited (code ${code})`)));
    this.live.add(worker);
    this.starting.add(worker);
  }

  /** A started worker has loaded the checker: it takes checks from now on. */
  private ready(worker: Worker): void {
    if (!this.starting.delete(worker)) return;
    this.rest(worker);
    this.dispatch();
  }

  /** An idle worker does not keep the process alive (a starting or running one does). */
  private rest(worker: Worker): void {
    worker.unref();
    this.idle.push(worker);
  }

  private start(worker: Worker, task: Task): void {
    const id = this.nextId++;
    worker.ref();
    const timer = setTimeout(() => this.overrun(worker), this.budgetMs);
    this.running.set(worker, { id, task, timer });
    const { actual, expected } = task.job;
    // Bytes go over as a private copy, transferred (not cloned again); text is cloned.
    const [actualCopy, expectedCopy] = [copy(actual), copy(expected)];
    const transfer = [actualCopy, expectedCopy].flatMap((value) => (typeof value === "string" ? [] : [value.buffer as ArrayBuffer]));
    const message: CheckJobMessage = { ...task.job, id, actual: actualCopy, expected: expectedCopy };
    try {
      worker.postMessage(message, transfer);
    } catch (error) {
      clearTimeout(timer);
      this.running.delete(worker);
      this.rest(worker);
      task.reject(new Error(`the output check could not start: ${(error as Error).message}`));
    }
  }

  private answered(worker: Worker, reply: Exclude<CheckReplyMessage, { ready: true }>): void {
    const running = this.running.get(worker);
    if (!running || running.id !== reply.id) return;
    clearTimeout(running.timer);
    this.running.delete(worker);
    this.rest(worker);
    if ("error" in reply) running.task.reject(new Error(`the output check failed: ${reply.error}`));
    else running.task.resolve(reply.result);
    this.dispatch();
  }

  private overrun(worker: Worker): void {
    const running = this.running.get(worker);
    if (!running) return;
    this.running.delete(worker);
    this.live.delete(worker);
    this.replaced++;
    void worker.terminate();
    running.task.resolve({ overrun: true, budgetMs: this.budgetMs });
    this.dispatch();
  }

  /**
   * A worker that failed or exited: its check fails (the judge cannot say). One that could not
   * start fails the oldest waiting check instead, so a checker that cannot load fails checks one
   * by one rather than starting workers forever.
   */
  private lose(worker: Worker, error: Error): void {
    if (!this.live.delete(worker)) return;
    const running = this.running.get(worker);
    this.running.delete(worker);
    const idle = this.idle.indexOf(worker);
    if (idle >= 0) this.idle.splice(idle, 1);
    const failed = running?.task ?? (this.starting.delete(worker) ? this.queue.shift() : undefined);
    if (running) clearTimeout(running.timer);
    failed?.reject(error);
    if (!this.closed) this.dispatch();
  }
}

/** Text as it is; bytes into an ArrayBuffer of their own (a Buffer may share a pool that cannot be transferred). */
function copy(value: Uint8Array | string): Uint8Array | string {
  return typeof value === "string" ? value : new Uint8Array(value);
}
