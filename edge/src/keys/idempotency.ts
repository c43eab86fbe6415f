// A key's Idempotency-Key records (its KeyDO's `idem` table): the submission each key created, kept
// exactly as long as the records they point to (`retentionMs`), and the creations still under way,
// which a duplicate waits for instead of submitting again.
import type { Sql } from "../lib/sql.ts";

/** How long after a record's retention ends its key is deleted, at the latest. */
const PRUNE_SLACK_MS = 1_000;

export class Idempotency<Outcome> {
  readonly #sql: Sql;
  readonly #retentionMs: number;
  /** Keys whose submission is being created right now. */
  readonly #creating = new Map<string, Promise<Outcome>>();

  constructor(sql: Sql, retentionMs: number) {
    this.#sql = sql;
    this.#retentionMs = retentionMs;
    sql.exec("CREATE TABLE IF NOT EXISTS idem (key TEXT PRIMARY KEY, id TEXT NOT NULL, created INTEGER NOT NULL)");
  }

  /** The creation under way for `key`, if any. */
  creating(key: string): Promise<Outcome> | undefined {
    return this.#creating.get(key);
  }

  /** `work` is the creation for `key` until it settles. */
  async track(key: string, work: Promise<Outcome>): Promise<Outcome> {
    this.#creating.set(key, work);
    try {
      return await work;
    } finally {
      this.#creating.delete(key);
    }
  }

  /** The submission `key` created, while its record is kept. */
  find(key: string, now: number): string | undefined {
    const rows = this.#sql.exec<{ id: string }>("SELECT id FROM idem WHERE key = ? AND created > ?", key, now - this.#retentionMs).toArray();
    return rows[0]?.id;
  }

  reserve(key: string, id: string, now: number): void {
    this.#sql.exec("INSERT OR REPLACE INTO idem (key, id, created) VALUES (?, ?, ?)", key, id, now);
  }

  /** The submission was not created after all. */
  undo(key: string, id: string): void {
    this.#sql.exec("DELETE FROM idem WHERE key = ? AND id = ?", key, id);
  }

  /** Deletes the keys whose records are gone. */
  prune(now: number): void {
    this.#sql.exec("DELETE FROM idem WHERE created <= ?", now - this.#retentionMs);
  }

  /** When the next prune finds a key to delete; null: no key is kept. */
  nextPruneAt(): number | null {
    const oldest = this.#sql.exec<{ t: number | null }>("SELECT MIN(created) AS t FROM idem").one().t;
    return oldest === null ? null : oldest + this.#retentionMs + PRUNE_SLACK_MS;
  }
}
