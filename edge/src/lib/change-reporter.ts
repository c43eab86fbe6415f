// Reports "something changed" to a watcher (the dashboard) while it watches: a burst of changes
// becomes one report `delayMs` after the first, a change known to come later (a rate window moving
// on) is reported when it comes, and nothing is sent when nobody watches or nothing changed.

export class ChangeReporter {
  #watchedUntil = 0;
  #delayMs: number;
  #send: () => Promise<unknown>;
  #soon: ReturnType<typeof setTimeout> | null = null;
  #later: { at: number; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(delayMs: number, send: () => Promise<unknown>) {
    this.#delayMs = delayMs;
    this.#send = send;
  }

  watch(untilMs: number): void {
    this.#watchedUntil = Math.max(this.#watchedUntil, untilMs);
  }

  get watched(): boolean {
    return Date.now() < this.#watchedUntil;
  }

  changed(): void {
    if (!this.watched || this.#soon !== null) return;
    this.#soon = setTimeout(() => {
      this.#soon = null;
      this.#fire();
    }, this.#delayMs);
  }

  /** Something will change at `atMs` without anyone calling changed() then. The earliest such time is kept. */
  changesAt(atMs: number): void {
    if (!this.watched || (this.#later !== null && this.#later.at <= atMs)) return;
    if (this.#later) clearTimeout(this.#later.timer);
    const timer = setTimeout(() => {
      this.#later = null;
      this.#fire();
    }, Math.max(0, atMs - Date.now()));
    this.#later = { at: atMs, timer };
  }

  #fire(): void {
    if (this.watched) this.#send().catch((e: unknown) => console.warn("dashboard report failed", String(e)));
  }
}
