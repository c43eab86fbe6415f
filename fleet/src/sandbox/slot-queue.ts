// The node's one queue: its execution slots and a FIFO of the work waiting for one. Every caller
// goes through it: the sandbox's own runs (sandbox.ts) and the gRPC service's submissions
// (service/scheduler.ts, which bounds it), so one capacity has one queue.

export interface QueuedJob {
  /** Runs the job in a slot; the slot is free again when the promise settles. */
  run(): Promise<void>;
  /** The job's 1-based queue position changed (it moved up). */
  moved(position: number): void;
}

export class QueueFullError extends Error {
  constructor() {
    super("node queue is full");
    this.name = "QueueFullError";
  }
}

/** Runs a job in a slot: the sandbox enters the job into a slot of its own (sandbox.ts). */
export type EnterSlot = (run: () => Promise<void>) => Promise<void>;

export class SlotQueue {
  readonly slots: number;
  readonly #enter: EnterSlot;
  #running = 0;
  readonly #queue: QueuedJob[] = [];
  #idleWaiters: (() => void)[] = [];

  constructor(slots: number, enter: EnterSlot = (run) => run()) {
    this.slots = slots;
    this.#enter = enter;
  }

  get running(): number {
    return this.#running;
  }

  get queueDepth(): number {
    return this.#queue.length;
  }

  /** Starts the job now (returns 0) or queues it (returns its 1-based position); full: QueueFullError. */
  submit(job: QueuedJob, capacity = Infinity): number {
    if (this.#running < this.slots) {
      this.#start(job);
      return 0;
    }
    if (this.#queue.length >= capacity) throw new QueueFullError();
    return this.#queue.push(job);
  }

  /** Takes a job out of the queue before it starts; false when it is not queued (any more). */
  withdraw(job: QueuedJob): boolean {
    const index = this.#queue.indexOf(job);
    if (index < 0) return false;
    this.#queue.splice(index, 1);
    this.#announcePositions(index);
    this.#notifyIfIdle();
    return true;
  }

  /** Resolves once no job runs and none waits. */
  idle(): Promise<void> {
    if (this.#running === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #start(job: QueuedJob): void {
    this.#running++;
    let started: Promise<void>;
    try {
      started = this.#enter(() => job.run());
    } catch (error) {
      started = Promise.reject(error);
    }
    started.catch(() => {}).finally(() => this.#finished());
  }

  #finished(): void {
    this.#running--;
    const next = this.#queue.shift();
    if (next) {
      this.#announcePositions(0);
      this.#start(next);
    }
    this.#notifyIfIdle();
  }

  #announcePositions(from: number): void {
    for (let index = from; index < this.#queue.length; index++) this.#queue[index]!.moved(index + 1);
  }

  #notifyIfIdle(): void {
    if (this.#running > 0 || this.#queue.length > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
