// A pool's last runs (what the dashboard shows), held in memory and written in batches: a release
// records its run here, and the runs recorded within WRITE_LATER_MS are written together, so that
// the release's own commit carries no row of this table. What a crash can lose: up to
// WRITE_LATER_MS of this list (the runs themselves are unaffected).
import type { RecentRun, RunSummary } from "../contracts/scheduler.ts";

/** Runs kept (in memory and stored). */
export const RECENT_KEPT = 500;
const WRITE_LATER_MS = 1_000;
/** Rows written between two prunes of the stored table (the prune reads the whole table). */
const PRUNE_EVERY = 50;

interface Row extends RecentRun {
  sub_id: string;
}

/** The part of a Durable Object's `sql` used here. */
export interface RowsSql {
  exec(query: string, ...bindings: unknown[]): { toArray(): unknown[] };
}

export class RecentRuns {
  readonly #sql: RowsSql;
  /** Oldest first, at most RECENT_KEPT. */
  #rows: Row[];
  #ids: Set<string>;
  #unwritten: Row[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #sincePrune = 0;

  constructor(sql: RowsSql) {
    this.#sql = sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS recent (sub_id TEXT PRIMARY KEY, at INTEGER NOT NULL, language TEXT NOT NULL,
      job_status TEXT NOT NULL, verdict TEXT, latency_ms INTEGER NOT NULL, wall_ms INTEGER)`);
    this.#rows = (sql.exec("SELECT sub_id, at, verdict, job_status, language, latency_ms, wall_ms FROM recent ORDER BY at DESC LIMIT ?", RECENT_KEPT)
      .toArray() as Row[]).reverse();
    this.#ids = new Set(this.#rows.map((r) => r.sub_id));
  }

  /** The last `limit` runs, oldest first. */
  last(limit: number): RecentRun[] {
    return this.#rows.slice(-Math.max(0, limit)).map(({ sub_id: _id, ...run }) => run);
  }

  /** Once per submission: a release sent again records nothing. */
  record(subId: string, s: RunSummary, now: number): void {
    if (this.#ids.has(subId)) return;
    const row: Row = {
      sub_id: subId, at: now, language: s.language, job_status: s.job_status, verdict: s.verdict,
      latency_ms: Math.max(0, Math.round(s.latency_ms)), wall_ms: s.wall_ms === null ? null : Math.round(s.wall_ms),
    };
    this.#rows.push(row);
    this.#ids.add(subId);
    if (this.#rows.length > RECENT_KEPT) this.#ids.delete(this.#rows.shift()!.sub_id);
    this.#unwritten.push(row);
    this.#timer ??= setTimeout(() => this.write(), WRITE_LATER_MS);
  }

  /** Writes the runs recorded since the last write (one synchronous block: one commit). */
  write(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const r of this.#unwritten.splice(0)) {
      this.#sql.exec("INSERT OR IGNORE INTO recent (sub_id, at, language, job_status, verdict, latency_ms, wall_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
        r.sub_id, r.at, r.language, r.job_status, r.verdict, r.latency_ms, r.wall_ms);
      if (++this.#sincePrune >= PRUNE_EVERY) {
        this.#sincePrune = 0;
        this.#sql.exec("DELETE FROM recent WHERE sub_id NOT IN (SELECT sub_id FROM recent ORDER BY at DESC LIMIT ?)", RECENT_KEPT);
      }
    }
  }
}
