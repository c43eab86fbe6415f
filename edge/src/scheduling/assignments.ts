// The scheduler's run slots taken: which submission holds a run on which node (SchedulerDO's
// `assigned` table), mirrored in memory, read once: the scheduler is the table's only writer.
import type { Sql } from "../lib/sql.ts";

export class Assignments {
  readonly #sql: Sql;
  /** sub_id → node_id (null: read the table again). */
  #byRun: Map<string, string> | null = null;

  constructor(sql: Sql) {
    this.#sql = sql;
    sql.exec("CREATE TABLE IF NOT EXISTS assigned (sub_id TEXT PRIMARY KEY, node_id TEXT NOT NULL, at INTEGER NOT NULL)");
  }

  /** The table in memory, sub_id → node_id. */
  get byRun(): ReadonlyMap<string, string> {
    return this.#map();
  }

  #map(): Map<string, string> {
    const rows = () => this.#sql.exec<{ sub_id: string; node_id: string }>("SELECT sub_id, node_id FROM assigned").toArray();
    return (this.#byRun ??= new Map(rows().map((r) => [r.sub_id, r.node_id])));
  }

  /** Runs each node holds (a fresh map: callers count on it). */
  inFlight(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const node of this.#map().values()) counts.set(node, (counts.get(node) ?? 0) + 1);
    return counts;
  }

  assign(subId: string, nodeId: string, now: number): void {
    this.#sql.exec("INSERT OR REPLACE INTO assigned (sub_id, node_id, at) VALUES (?, ?, ?)", subId, nodeId, now);
    this.#map().set(subId, nodeId);
  }

  unassign(subId: string): void {
    this.#sql.exec("DELETE FROM assigned WHERE sub_id = ?", subId);
    this.#map().delete(subId);
  }

  /** Forgets the assignments made before `before` (their submissions gave up long ago). */
  sweep(before: number): void {
    this.#sql.exec("DELETE FROM assigned WHERE at < ?", before);
    this.#byRun = null;
  }

  /** Per node: the runs it holds, and of those the ones assigned since `recentSince`. */
  counts(recentSince: number): { inFlight: Record<string, number>; recent: Record<string, number> } {
    const inFlight: Record<string, number> = {};
    const recent: Record<string, number> = {};
    for (const r of this.#sql.exec<{ node_id: string; n: number; fresh: number }>(
      "SELECT node_id, COUNT(*) AS n, SUM(at > ?) AS fresh FROM assigned GROUP BY node_id", recentSince)) {
      inFlight[r.node_id] = r.n;
      recent[r.node_id] = r.fresh;
    }
    return { inFlight, recent };
  }
}
