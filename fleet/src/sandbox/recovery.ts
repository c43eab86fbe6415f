// Fail closed, then heal: after a platform fault made the node not ready, a known-good canary run
// is retried with back-off until it passes. Faults found at start-up that no retry can fix (no
// root, no launcher binary, no usable cgroup hierarchy) are not retried: they need an operator.

/** Delays before successive attempts; the last one repeats. */
export const RECOVERY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

export class Recovery {
  readonly #attempt: () => Promise<boolean>;
  readonly #delaysMs: number[];
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #failures = 0;
  #nextAt: number | undefined;
  #closed = false;

  constructor(attempt: () => Promise<boolean>, delaysMs = RECOVERY_DELAYS_MS) {
    this.#attempt = attempt;
    this.#delaysMs = delaysMs;
  }

  /** Arms the next attempt unless one is already pending or running. */
  schedule(): void {
    if (this.#timer || this.#running || this.#closed) return;
    const delay = this.#delaysMs[Math.min(this.#failures, this.#delaysMs.length - 1)]!;
    this.#nextAt = Date.now() + delay;
    this.#timer = setTimeout(() => void this.#run(), delay);
    this.#timer.unref();
  }

  /** For health: what the node is doing about it, while it is. */
  get status(): string | undefined {
    if (this.#running) return `recovering: self-check attempt ${this.#failures + 1} running`;
    if (this.#nextAt === undefined) return undefined;
    const tried = this.#failures > 0 ? `${this.#failures} self-check attempt(s) failed; ` : "";
    return `recovering: ${tried}next self-check at ${new Date(this.#nextAt).toISOString()}`;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  async #run(): Promise<void> {
    this.#timer = undefined;
    this.#nextAt = undefined;
    this.#running = true;
    let healed = false;
    try {
      healed = await this.#attempt();
    } catch {
      healed = false;
    }
    this.#running = false;
    if (healed) this.#failures = 0;
    else {
      this.#failures++;
      this.schedule();
    }
  }
}
