// The sandbox's slots behind the node's one queue (slot-queue.ts). A queued job holds one slot
// until it settles; the runs it makes go to that slot, one at a time, found through an
// AsyncLocalStorage so the layers between (engine, languages) pass no slot along.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Slot } from "./slot.ts";
import { SlotQueue } from "./slot-queue.ts";

interface HeldSlot {
  slot: Slot;
  /** One of the job's runs is in the slot now. */
  busy: boolean;
  /** The job has not settled yet. */
  active: boolean;
  /** A run the job keeps in the slot's partner beside its own runs (inPartner), until it ends. */
  beside: Promise<unknown> | undefined;
}

export class HeldSlots {
  readonly queue: SlotQueue;
  readonly #free: Slot[] = [];
  readonly #held = new AsyncLocalStorage<HeldSlot>();

  constructor(slots: number) {
    this.queue = new SlotQueue(slots, (run) => this.#enter(run));
  }

  add(slot: Slot): void {
    this.#free.push(slot);
  }

  /**
   * Runs `work` in the slot the calling job holds when it is idle, else queues for a slot of its
   * own: a second run started while one of the job's runs is going never shares its slot.
   */
  inSlot<T>(work: (slot: Slot) => Promise<T>): Promise<T> {
    const held = this.#held.getStore();
    if (held?.active && !held.busy) return this.#runHeld(held, work);
    return new Promise((resolve, reject) => {
      this.queue.submit({ run: () => this.#runHeld(this.#held.getStore()!, work).then(resolve, reject), moved: () => {} });
    });
  }

  /**
   * Runs `work` with the job's slot and its partner (an interactive pair). Only a run in the slot
   * uses its partner, so the partner is idle whenever the slot is.
   */
  inPair<T>(work: (slot: Slot, partner: Slot) => Promise<T>): Promise<T> {
    return this.inSlot((slot) => {
      if (!slot.partner) throw new Error("an interactive pair needs a slot with a partner");
      if (this.#held.getStore()?.beside) throw new Error("the slot's partner holds a run beside the job's (a check server)");
      return work(slot, slot.partner);
    });
  }

  /**
   * Runs `work` in the partner of the slot the calling job holds, beside the job's own runs in the
   * slot, for as long as it takes (a check server: judge/programs/check-server.ts); the job's slot is not
   * given back before it ends. Rejects, running nothing, unless the job holds its slot and the
   * partner is free.
   */
  inPartner<T>(work: (partner: Slot) => Promise<T>): Promise<T> {
    const held = this.#held.getStore();
    const partner = held?.active ? held.slot.partner : undefined;
    if (!held || !partner || held.beside) return Promise.reject(new Error("no free partner slot: the job holds no slot, or its partner is in use"));
    const running = work(partner).finally(() => {
      held.beside = undefined;
    });
    held.beside = running.catch(() => {});
    return running;
  }

  /** Runs `work` as a job holding one slot for all its runs: the calling job's, else a slot it queues for. */
  inJob<T>(work: () => Promise<T>): Promise<T> {
    if (this.#held.getStore()?.active) return work();
    return new Promise((resolve, reject) => {
      this.queue.submit({ run: () => work().then(resolve, reject), moved: () => {} });
    });
  }

  /** Runs `action` outside any job's slot (what it starts queues for a slot of its own). */
  outside<T>(action: () => T): T {
    return this.#held.exit(action);
  }

  async #runHeld<T>(held: HeldSlot, work: (slot: Slot) => Promise<T>): Promise<T> {
    held.busy = true;
    try {
      return await work(held.slot);
    } finally {
      held.busy = false;
    }
  }

  /** The queue starts a job only while a slot is free: the job holds that slot until it settles. */
  async #enter(run: () => Promise<void>): Promise<void> {
    const held: HeldSlot = { slot: this.#free.shift()!, busy: false, active: true, beside: undefined };
    try {
      await this.#held.run(held, run);
    } finally {
      held.active = false;
      while (held.beside) await held.beside;
      this.#free.push(held.slot);
    }
  }
}
