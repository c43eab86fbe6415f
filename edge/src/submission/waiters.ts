// Callers holding on for a value (synchronous submits waiting for the terminal record): answered at
// once when the value is final already, else woken with it, or after their own time limit with
// whatever `current` says then.
export class Waiters<T> {
  #waiting = new Set<(value: T) => void>();
  readonly #final: (value: T) => boolean;

  constructor(final: (value: T) => boolean) {
    this.#final = final;
  }

  async wait(ms: number, current: () => T): Promise<T> {
    const now = current();
    if (this.#final(now)) return now;
    return new Promise<T>((resolve) => {
      const done = (value: T) => {
        clearTimeout(timer);
        this.#waiting.delete(done);
        resolve(value);
      };
      const timer = setTimeout(() => done(current()), ms);
      this.#waiting.add(done);
    });
  }

  /** Wakes every caller with `value()`, made only if one is waiting. */
  wake(value: () => T): void {
    if (this.#waiting.size === 0) return;
    const made = value();
    for (const done of [...this.#waiting]) done(made);
  }
}
