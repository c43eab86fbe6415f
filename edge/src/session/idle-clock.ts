// A live session's last activity (a client's message that does something, or the program's output),
// kept in its object's storage so that the idle deadline survives an eviction and an edge restart:
// an object made anew after either reads it back instead of starting the clock again.
/** Storage is written at most this often; a clock read back after an eviction is at most this much behind. */
export const ACTIVITY_WRITE_MS = 1000;
const KEY = "last_activity";

export class IdleClock {
  readonly #kv: SyncKvStorage;
  #last: number | null = null;
  #written = 0;

  constructor(kv: SyncKvStorage) {
    this.#kv = kv;
  }

  touch(now = Date.now()): void {
    this.#last = now;
    if (now - this.#written < ACTIVITY_WRITE_MS) return;
    this.#kv.put(KEY, now);
    this.#written = now;
  }

  /** The last activity; `since` (the session's start) when none is known. */
  last(since: number): number {
    this.#last ??= this.#kv.get<number>(KEY) ?? since;
    return this.#last;
  }
}
