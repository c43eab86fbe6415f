// A submission's next wake-up: the shard's (durable: deadlines.ts), or a timer while the
// submission is held in memory (a synchronous submit: submission.ts), which becomes the shard's
// once the submission is written (persist()).

/** A routine wake-up `ms` from now, on a whole second: a shard's submissions share alarms. */
export const routineWake = (ms: number) => Math.ceil((Date.now() + ms) / 1000) * 1000;

/** The submission's storage, as far as holding it in memory goes (store.ts). */
export interface Held {
  readonly buffered: boolean;
  persist(): void;
}

export class WakeUp {
  readonly #held: Held;
  readonly #shard: (at: number) => void;
  readonly #fire: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt: number | null = null;

  /** `shard` sets the shard's wake-up; `fire` is the wake-up itself, when a timer is due. */
  constructor(held: Held, shard: (at: number) => void, fire: () => void) {
    this.#held = held;
    this.#shard = shard;
    this.#fire = fire;
  }

  set(at: number): void {
    if (!this.#held.buffered) return this.#shard(at);
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timerAt = null;
      this.#fire();
    }, Math.max(0, at - Date.now()));
  }

  /** No timer any more (the submission is about to be written with a wake-up of its own). */
  cancel(): void {
    this.#clearTimer();
    this.#timerAt = null;
  }

  /** Writes a submission held in memory (one commit): a pending timer becomes the shard's wake-up. */
  persist(): void {
    if (!this.#held.buffered) return;
    this.#held.persist();
    this.#clearTimer();
    if (this.#timerAt !== null) this.#shard(this.#timerAt);
    this.#timerAt = null;
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
