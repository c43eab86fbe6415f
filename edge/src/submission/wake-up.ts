// A submission's next wake-up: the shard's (durable: deadlines.ts), or a timer while the
// submission is held in memory (a synchronous submit: submission.ts), which becomes the shard's
// once the submission is written.
export class WakeUp {
  readonly #shard: (at: number) => void;
  readonly #fire: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt: number | null = null;

  /** `shard` sets the shard's wake-up; `fire` is the wake-up itself, when a timer is due. */
  constructor(shard: (at: number) => void, fire: () => void) {
    this.#shard = shard;
    this.#fire = fire;
  }

  /** `held`: the submission is only in memory. */
  set(at: number, held: boolean): void {
    if (!held) return this.#shard(at);
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

  /** The submission was written: a pending timer becomes the shard's wake-up. */
  persisted(): void {
    this.#clearTimer();
    if (this.#timerAt !== null) this.#shard(this.#timerAt);
    this.#timerAt = null;
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
