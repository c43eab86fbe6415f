// A key's concurrency units: its submissions in flight (its KeyDO's `inflight` table), and which of
// them are live sessions (`live`). An asynchronous submit's unit is a row from its submit to its
// release. A synchronous submit's unit is held in memory: such a submit holds the object's call open
// until its answer, so the unit cannot outlive the call (were the object lost, the call fails with
// it); it is written only when the hold expires before the run ends. A unit older than any run can
// last (`staleAfterMs`) is a release that never arrived: it no longer counts, and is deleted.
import type { Sql } from "../lib/sql.ts";

export class ConcurrencyUnits {
  readonly #sql: Sql;
  readonly #staleAfterMs: number;
  readonly #heldBySyncCalls = new Set<string>();

  constructor(sql: Sql, staleAfterMs: number) {
    this.#sql = sql;
    this.#staleAfterMs = staleAfterMs;
    sql.exec("CREATE TABLE IF NOT EXISTS inflight (id TEXT PRIMARY KEY, since INTEGER NOT NULL)");
    // The key's submissions that are live sessions (the dashboard counts those still in flight).
    sql.exec("CREATE TABLE IF NOT EXISTS live (id TEXT PRIMARY KEY)");
  }

  /** Units that count against the key's cap at `now`. */
  taken(now: number): number {
    const rows = this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM inflight WHERE since >= ?", now - this.#staleAfterMs).one().n;
    return rows + this.#heldBySyncCalls.size;
  }

  /** An asynchronous submit's unit. */
  take(id: string, now: number): void {
    this.#sql.exec("INSERT INTO inflight (id, since) VALUES (?, ?)", id, now);
  }

  /** A synchronous submit's unit, for as long as its call is open. */
  hold(id: string): void {
    this.#heldBySyncCalls.add(id);
  }

  /** The synchronous call ended; whether it still held its unit. */
  endHold(id: string): boolean {
    return this.#heldBySyncCalls.delete(id);
  }

  /** A held unit whose run goes on after its call: it becomes a row, released like an asynchronous one. */
  write(id: string, now: number): void {
    this.#sql.exec("INSERT OR IGNORE INTO inflight (id, since) VALUES (?, ?)", id, now);
  }

  markLive(id: string): void {
    this.#sql.exec("INSERT OR IGNORE INTO live (id) VALUES (?)", id);
  }

  /** The submission was not created after all. */
  undo(id: string): void {
    this.#heldBySyncCalls.delete(id);
    this.#sql.exec("DELETE FROM inflight WHERE id = ?", id);
    this.#sql.exec("DELETE FROM live WHERE id = ?", id);
  }

  /** The submission ended; whether its unit was still taken (a row). */
  release(id: string): boolean {
    const n = this.#sql.exec("DELETE FROM inflight WHERE id = ?", id).rowsWritten;
    this.#sql.exec("DELETE FROM live WHERE id = ?", id);
    return n > 0;
  }

  /** Deletes stale units, and the live marks of submissions no longer in flight. */
  prune(now: number): void {
    this.#sql.exec("DELETE FROM inflight WHERE since < ?", now - this.#staleAfterMs);
    this.#sql.exec("DELETE FROM live WHERE id NOT IN (SELECT id FROM inflight)");
  }

  /** Every submission holding a unit. */
  ids(): string[] {
    return [...this.#sql.exec<{ id: string }>("SELECT id FROM inflight").toArray().map((r) => r.id), ...this.#heldBySyncCalls];
  }

  /** Units taken, stale ones too (what the operator sees). */
  inFlight(): number {
    return this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM inflight").one().n + this.#heldBySyncCalls.size;
  }

  liveSessions(): number {
    return this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM live WHERE id IN (SELECT id FROM inflight)").one().n;
  }
}
