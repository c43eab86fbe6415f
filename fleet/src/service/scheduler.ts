// The service's view of the node's one queue (sandbox/slot-queue.ts): its submissions are bounded
// by the node's queue capacity, and a full queue is RESOURCE_EXHAUSTED.
import { QueueFullError, type QueuedJob, type SlotQueue } from "../sandbox/slot-queue.ts";
import { ServiceError, Status } from "./errors.ts";

export type Job = QueuedJob;

export class Scheduler {
  readonly queueCapacity: number;
  readonly #queue: SlotQueue;

  constructor(queue: SlotQueue, queueCapacity: number) {
    this.#queue = queue;
    this.queueCapacity = queueCapacity;
  }

  get slots(): number {
    return this.#queue.slots;
  }

  get running(): number {
    return this.#queue.running;
  }

  get queueDepth(): number {
    return this.#queue.queueDepth;
  }

  /** Starts the job now (returns 0) or queues it (returns its 1-based position). */
  submit(job: Job): number {
    try {
      return this.#queue.submit(job, this.queueCapacity);
    } catch (error) {
      if (error instanceof QueueFullError) throw new ServiceError(Status.RESOURCE_EXHAUSTED, error.message);
      throw error;
    }
  }

  /** Takes a job out of the queue before it starts; false when it is not queued (any more). */
  withdraw(job: Job): boolean {
    return this.#queue.withdraw(job);
  }

  /** Resolves once no job runs and none waits. */
  idle(): Promise<void> {
    return this.#queue.idle();
  }
}
