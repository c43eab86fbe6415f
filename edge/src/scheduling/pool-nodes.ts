// The scheduler's own table of its pool's nodes (SchedulerDO's storage, not the registry's): what the
// registry pushed of each node (putNode/removeNode), and a refusal seen since. Read once and held in
// memory until the next write: the scheduler is the table's only writer.
import type { SchedulableNode } from "../contracts/scheduler.ts";
import type { Sql } from "../lib/sql.ts";
import type { PoolNode } from "./pick.ts";

interface Row extends Record<string, string | number | null> {
  id: string;
  pool: string;
  url: string;
  token: string;
  run_slots: number;
  waiting_room: number;
  languages: string;
  ready: number;
  refused: string | null;
}

export class PoolNodes {
  readonly #sql: Sql;
  /** The table as read last (every write clears it). */
  #cache: PoolNode[] | null = null;

  constructor(sql: Sql) {
    this.#sql = sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, pool TEXT NOT NULL, url TEXT NOT NULL, token TEXT NOT NULL,
      run_slots INTEGER NOT NULL, languages TEXT NOT NULL, ready INTEGER NOT NULL, refused TEXT, waiting_room INTEGER NOT NULL DEFAULT 0)`);
  }

  all(): PoolNode[] {
    return (this.#cache ??= this.#sql.exec<Row>("SELECT * FROM nodes").toArray().map((r) => ({
      id: r.id, pool: r.pool, url: r.url, token: r.token, run_slots: r.run_slots, waiting_room: r.waiting_room,
      languages: JSON.parse(r.languages) as string[], ready: r.ready === 1, refused: r.refused,
    })));
  }

  /** The registry's push: the node as it is now (a refusal seen before is forgotten). */
  put(node: SchedulableNode): void {
    this.#sql.exec(
      `INSERT OR REPLACE INTO nodes (id, pool, url, token, run_slots, waiting_room, languages, ready, refused)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      node.id, node.pool, node.url, node.token, node.run_slots, node.waiting_room ?? 0, JSON.stringify(node.languages), node.ready ? 1 : 0);
    this.#cache = null;
  }

  remove(id: string): void {
    this.#sql.exec("DELETE FROM nodes WHERE id = ?", id);
    this.#cache = null;
  }

  /** The node refused a run: no more work for it until the registry's next push. */
  refused(id: string, reason: string): void {
    this.#sql.exec("UPDATE nodes SET refused = ? WHERE id = ?", reason, id);
    this.#cache = null;
  }
}
