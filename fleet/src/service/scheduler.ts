// Execution slots and a bounded FIFO queue in front of them.
import { ServiceError, Status } from "./errors.ts";

export interface Job {
  /** Runs the job in a slot; the slot is free again when the promise settles. */
  run(): Promise<void>;
  /** The job's 1-based queue position changed (it moved up). */
  moved(position: number): void;
}

export class Scheduler {
  readonly slots: number;
  readonly queueCapacity: number;
  #running = 0;
  readonly #queue: Job[] = [];
  #idleWaiters: (() => void)[] = [];

  constructor(slots: number, queueCapacity: number) {
    this.slots = slots;
    this.queueCapacity = queueCapacity;
  }

  get running(): number {
    return this.#running;
  }

  get queueDepth(): number {
    return this.#queue.length;
  }

  /** Starts the job now (returns 0) or queues it (returns its 1-based position). */
  submit(job: Job): number {
    if (this.#running < this.slots) {
      this.#start(job);
      return 0;
    }
    if (this.#queue.length >= this.queueCapacity) {
      throw new ServiceError(Status.RESOURCE_EXHAUSTED, "node queue is full");
    }
    return this.#queue.push(job);
  }

  /** Takes a job out of the queue before it starts; false when it is not queued (any more). */
  withdraw(job: Job): boolean {
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

  #start(job: Job): void {
    this.#running++;
    let started: Promise<void>;
    try {
      started = job.run();
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
