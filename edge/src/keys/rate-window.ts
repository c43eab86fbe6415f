// A key's rolling rate window (its KeyDO's `hits` table): every request with a valid key is a hit,
// and a request fits while fewer than the limit happened in the last window (lib/ratelimit.ts
// decides from the window's count, oldest and newest hit). A hit can also be kept in memory for a
// while (recordLater: a synchronous submit's), so that a busy key's object commits once per interval
// instead of once per submit; every decision counts those too, so none is missed. What a crash can
// lose: the hits not written yet.
import { windowDecision, type WindowDecision } from "../lib/ratelimit.ts";
import type { Sql } from "../lib/sql.ts";

/** Hits between two deletions of what left the window (every count reads only the window). */
const PRUNE_EVERY = 64;
/** Hits kept in memory at most (each decision reads them all): past it they are written. */
const UNWRITTEN_MAX = 256;

export type RateDecision = Omit<WindowDecision, "kept">;

export class RateWindow {
  readonly #sql: Sql;
  readonly #windowMs: number;
  /** Runs with every prune, for what the key's object deletes at the same pace. */
  readonly #onPrune: (now: number) => void;
  #sincePrune = 0;
  /** Hits not written yet: oldest first, all newer than every written one. */
  #unwritten: number[] = [];

  constructor(sql: Sql, windowMs: number, onPrune: (now: number) => void = () => {}) {
    this.#sql = sql;
    this.#windowMs = windowMs;
    this.#onPrune = onPrune;
    sql.exec("CREATE TABLE IF NOT EXISTS hits (ts INTEGER NOT NULL)");
    sql.exec("CREATE INDEX IF NOT EXISTS hits_ts ON hits (ts)");
  }

  /** Whether one more request fits at `now`; read-only. */
  decide(now: number, limit: number): RateDecision {
    const since = now - this.#windowMs;
    const written = this.#sql.exec<{ count: number; oldest: number | null; newest: number | null }>(
      "SELECT COUNT(*) AS count, MIN(ts) AS oldest, MAX(ts) AS newest FROM hits WHERE ts > ? AND ts <= ?", since, now).one();
    const unwritten = this.#unwritten.filter((ts) => ts > since && ts <= now);
    const w = {
      count: written.count + unwritten.length,
      oldest: written.oldest ?? unwritten[0] ?? null,
      newest: unwritten.at(-1) ?? written.newest,
    };
    const nthOldest = (k: number) => k >= written.count
      ? unwritten[k - written.count]!
      : this.#sql.exec<{ ts: number }>("SELECT ts FROM hits WHERE ts > ? AND ts <= ? ORDER BY ts LIMIT 1 OFFSET ?", since, now, k).one().ts;
    return windowDecision(w, now, limit, this.#windowMs, nthOldest);
  }

  /** A hit written now, after those kept in memory. */
  record(now: number): void {
    this.flush();
    this.#insert(now);
  }

  /** A hit kept in memory until the next flush() (or written at once when too many wait). */
  recordLater(now: number): void {
    if (this.#unwritten.push(now) >= UNWRITTEN_MAX) this.flush();
  }

  /** Writes the hits kept in memory. */
  flush(): void {
    const hits = this.#unwritten;
    if (hits.length === 0) return;
    this.#unwritten = [];
    for (const ts of hits) this.#insert(ts);
  }

  /** Hits in the window ending now, written or not. */
  count(now: number): number {
    const written = this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM hits WHERE ts > ?", now - this.#windowMs).one().n;
    return written + this.#unwritten.length;
  }

  /** The oldest hit still in the window (null: none); the window moves on when it leaves. */
  oldest(now: number): number | null {
    const written = this.#sql.exec<{ t: number | null }>("SELECT MIN(ts) AS t FROM hits WHERE ts > ?", now - this.#windowMs).one().t;
    return written ?? this.#unwritten[0] ?? null;
  }

  #insert(now: number): void {
    if (++this.#sincePrune >= PRUNE_EVERY) {
      this.#sincePrune = 0;
      this.#sql.exec("DELETE FROM hits WHERE ts <= ?", now - this.#windowMs);
      this.#onPrune(now);
    }
    this.#sql.exec("INSERT INTO hits (ts) VALUES (?)", now);
  }
}
