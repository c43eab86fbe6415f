// A shard's per-submission wake-ups. A Durable Object has one alarm, so each submission's next
// wake-up (watchdog, release retry, end of retention) is a row here and the object's alarm is kept
// at the earliest row.
export class Deadlines {
  readonly #storage: DurableObjectStorage;
  readonly #waitUntil: (p: Promise<unknown>) => void;
  /** The object's alarm as last set here (undefined: not known yet). */
  #armedAt: number | null | undefined;
  #tableReady = false;
  #firing = false;

  constructor(storage: DurableObjectStorage, waitUntil: (p: Promise<unknown>) => void) {
    this.#storage = storage;
    this.#waitUntil = waitUntil;
  }

  /** Made on first use, not in the constructor: reading an unknown id must write nothing. */
  #table(): SqlStorage {
    const sql = this.#storage.sql;
    if (!this.#tableReady) {
      sql.exec("CREATE TABLE IF NOT EXISTS deadlines (sub_id TEXT PRIMARY KEY, at INTEGER NOT NULL)");
      sql.exec("CREATE INDEX IF NOT EXISTS deadlines_at ON deadlines (at)");
      this.#tableReady = true;
    }
    return sql;
  }

  set(subId: string, at: number): void {
    const when = Math.round(at);
    this.#table().exec("INSERT INTO deadlines (sub_id, at) VALUES (?, ?) ON CONFLICT(sub_id) DO UPDATE SET at = excluded.at", subId, when);
    if (!this.#armedBy(when)) this.#arm();
  }

  clear(subId: string): void {
    this.#table().exec("DELETE FROM deadlines WHERE sub_id = ?", subId);
  }

  /**
   * The object's alarm is firing: the submissions whose wake-up is due, oldest first, each taken
   * off the list (its handler sets its next); the alarm is set again by fired(), once.
   */
  takeDue(now: number): string[] {
    this.#firing = true;
    const ids = this.#table().exec<{ sub_id: string }>("SELECT sub_id FROM deadlines WHERE at <= ? ORDER BY at", now).toArray().map((r) => r.sub_id);
    this.#table().exec("DELETE FROM deadlines WHERE at <= ?", now);
    return ids;
  }

  /** The object's alarm fired (the runtime cleared it): set it to the earliest remaining row. */
  fired(): void {
    this.#firing = false;
    this.#armedAt = null;
    this.#arm();
  }

  /** An alarm is set for later than now and no later than `at`: it will look at `at` (and re-arm) when it fires. */
  #armedBy(at: number): boolean {
    return typeof this.#armedAt === "number" && this.#armedAt <= at && this.#armedAt > Date.now();
  }

  #arm(): void {
    if (this.#firing) return;
    const next = this.#table().exec<{ at: number | null }>("SELECT MIN(at) AS at FROM deadlines").one().at;
    if (next === null || next === this.#armedAt || this.#armedBy(next)) return;
    this.#armedAt = next;
    this.#waitUntil(this.#storage.setAlarm(next));
  }
}
