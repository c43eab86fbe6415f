// A key's usage counters (its KeyDO's `usage` table: requests, submissions, completed, errors,
// refusals by cause). A count is written at once, or kept in memory (countLater) until the next
// write(), so that a count needs no commit of its own.
import type { Sql } from "../lib/sql.ts";

export class UsageCounts {
  readonly #sql: Sql;
  readonly #unwritten = new Map<string, number>();

  constructor(sql: Sql) {
    this.#sql = sql;
    sql.exec("CREATE TABLE IF NOT EXISTS usage (name TEXT PRIMARY KEY, n INTEGER NOT NULL)");
  }

  count(name: string): void {
    this.#sql.exec("INSERT INTO usage (name, n) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET n = n + 1", name);
  }

  countLater(name: string): void {
    this.#unwritten.set(name, (this.#unwritten.get(name) ?? 0) + 1);
  }

  /** Takes one back (never below 0), from what is not written first. */
  uncount(name: string): void {
    const unwritten = this.#unwritten.get(name) ?? 0;
    if (unwritten > 0) this.#unwritten.set(name, unwritten - 1);
    else this.#sql.exec("UPDATE usage SET n = n - 1 WHERE name = ? AND n > 0", name);
  }

  /** Writes the counts kept in memory. */
  write(): void {
    for (const [name, n] of this.#unwritten) {
      this.#sql.exec("INSERT INTO usage (name, n) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET n = n + excluded.n", name, n);
    }
    this.#unwritten.clear();
  }

  /** Every counter, written or not. */
  all(): Record<string, number> {
    const counters: Record<string, number> = {};
    for (const r of this.#sql.exec<{ name: string; n: number }>("SELECT name, n FROM usage")) counters[r.name] = r.n;
    for (const [name, n] of this.#unwritten) counters[name] = (counters[name] ?? 0) + n;
    return counters;
  }
}
