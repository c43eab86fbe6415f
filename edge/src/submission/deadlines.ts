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
   * The object's alarm is firing: the submissions whose wake-up is due, oldest first, each with the
   * wake-up it is due for. A row stays until its handler is done (handled()): an alarm cut short (an
   * edge stopped mid-handler) fires again and finds it. The alarm is set again by fired(), once.
   */
  takeDue(now: number): { id: string; at: number }[] {
    this.#firing = true;
    return this.#table().exec<{ sub_id: string; at: number }>("SELECT sub_id, at FROM deadlines WHERE at <= ? ORDER BY at", now).toArray()
      .map((r) => ({ id: r.sub_id, at: r.at }));
  }

  /** Submission `subId`'s wake-up `at` was handled: its row goes, unless the handler set a new one. */
  handled(subId: string, at: number): void {
    this.#table().exec("DELETE FROM deadlines WHERE sub_id = ? AND at = ?", subId, at);
  }

  /**
   * The object started: should rows be waiting with no alarm set (an alarm lost with a stopped
   * process), the alarm is set at the earliest. Reads only when the table exists.
   */
  async resume(): Promise<void> {
    const sql = this.#storage.sql;
    if (sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'deadlines'").toArray().length === 0) return;
    this.#tableReady = true;
    this.#armedAt = await this.#storage.getAlarm();
    if (this.#armedAt === null) this.#arm();
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
