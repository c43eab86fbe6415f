// The registry's `nodes` table (FleetDO's storage): its schema and every statement on it, and a
// node's NodeInfo as stored (protobuf bytes). Nothing else reads or writes the table.
import { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import { randomBase62 } from "../lib/keys.ts";
import type { NodeRow } from "./node-row.ts";

export function encodeInfo(info: NodeInfoResponse): ArrayBuffer {
  const bytes = NodeInfoResponse.encode(info).finish();
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

export function decodeInfo(row: NodeRow): NodeInfoResponse | null {
  if (!(row.info instanceof ArrayBuffer)) return null;
  try {
    return NodeInfoResponse.decode(new Uint8Array(row.info));
  } catch {
    return null;
  }
}

export interface NodeEntry {
  url: string;
  token: string;
  name: string;
  /** Absent: the pool it had (a re-registered node), else the default pool. */
  pool?: string;
  info: NodeInfoResponse;
  kind: "registered" | "enrolled";
  /** SHA-256 of an enrolled node's heartbeat secret. */
  hbHash: string | null;
}

/** A node's admission (node-admission.ts), written right after its row. */
export interface AdmissionTerms {
  tokenId: string | null;
  maxSlots: number;
  pending: boolean;
}

export class NodeStore {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS nodes (
      id TEXT PRIMARY KEY, url TEXT UNIQUE NOT NULL, token TEXT NOT NULL, name TEXT NOT NULL, info BLOB,
      last_checked INTEGER NOT NULL DEFAULT 0, last_ok INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0,
      last_error TEXT, registered_at INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'registered', hb_hash TEXT,
      last_heartbeat INTEGER NOT NULL DEFAULT 0, drain_state TEXT, drain_at INTEGER NOT NULL DEFAULT 0,
      lost_at INTEGER NOT NULL DEFAULT 0, pool TEXT NOT NULL DEFAULT 'default', pushed TEXT,
      enroll_token TEXT, max_slots INTEGER NOT NULL DEFAULT 0, approval TEXT, revoked_at INTEGER NOT NULL DEFAULT 0)`);
  }

  #rows(query: string, ...bindings: unknown[]): NodeRow[] {
    return this.#sql.exec<NodeRow>(query, ...bindings).toArray();
  }

  // ---- reads ----

  byId(id: string): NodeRow | undefined {
    return this.#rows("SELECT * FROM nodes WHERE id = ?", id)[0];
  }

  /** What an operator names a node by: its id or its name. */
  byIdOrName(idOrName: string): NodeRow | undefined {
    return this.#rows("SELECT * FROM nodes WHERE id = ? OR name = ?", idOrName, idOrName)[0];
  }

  byUrl(url: string): NodeRow | undefined {
    return this.#rows("SELECT * FROM nodes WHERE url = ?", url)[0];
  }

  enrolled(id: string): NodeRow | undefined {
    return this.#rows("SELECT * FROM nodes WHERE id = ? AND kind = 'enrolled'", id)[0];
  }

  /** Every node, oldest registration first. */
  all(): NodeRow[] {
    return this.#rows("SELECT * FROM nodes ORDER BY registered_at");
  }

  /** Enrolled nodes not yet found to have missed their heartbeats. */
  heartbeating(): NodeRow[] {
    return this.#rows("SELECT * FROM nodes WHERE kind = 'enrolled' AND lost_at = 0");
  }

  kinds(): Set<string> {
    return new Set(this.#sql.exec<{ kind: string }>("SELECT DISTINCT kind FROM nodes").toArray().map((r) => r.kind));
  }

  // ---- writes ----

  /** Adds a node, or updates the one at the same URL (a restarted node) keeping its id. Returns the id. */
  upsert(n: NodeEntry): string {
    const now = Date.now();
    const existing = this.byUrl(n.url);
    const id = existing?.id ?? `node_${randomBase62(12)}`;
    this.#sql.exec(
      `INSERT INTO nodes (id, url, token, name, info, last_checked, last_ok, failures, last_error, registered_at, kind,
         hb_hash, last_heartbeat, drain_state, drain_at, lost_at, pool)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, ?, ?, NULL, 0, 0, ?)
       ON CONFLICT(url) DO UPDATE SET token = excluded.token, name = excluded.name, info = excluded.info,
         last_checked = excluded.last_checked, last_ok = excluded.last_ok, failures = 0, last_error = NULL, kind = excluded.kind,
         hb_hash = excluded.hb_hash, last_heartbeat = excluded.last_heartbeat, drain_state = NULL, drain_at = 0, lost_at = 0,
         pool = excluded.pool`,
      id, n.url, n.token, n.name || existing?.name || id, encodeInfo(n.info), now, now, existing?.registered_at ?? now, n.kind,
      n.hbHash, n.kind === "enrolled" ? now : 0, n.pool ?? existing?.pool ?? DEFAULT_POOL,
    );
    return id;
  }

  admit(id: string, a: AdmissionTerms): void {
    this.#sql.exec("UPDATE nodes SET enroll_token = ?, max_slots = ?, approval = ?, revoked_at = 0 WHERE id = ?",
      a.tokenId, a.maxSlots, a.pending ? "pending" : null, id);
  }

  remove(id: string): void {
    this.#sql.exec("DELETE FROM nodes WHERE id = ?", id);
  }

  startDrain(id: string, now: number): void {
    this.#sql.exec("UPDATE nodes SET drain_state = 'draining', drain_at = ? WHERE id = ?", now, id);
  }

  approve(id: string): void {
    this.#sql.exec("UPDATE nodes SET approval = NULL WHERE id = ?", id);
  }

  /** The first revocation's time is kept. */
  revoke(id: string, now: number): void {
    this.#sql.exec("UPDATE nodes SET revoked_at = CASE revoked_at WHEN 0 THEN ? ELSE revoked_at END WHERE id = ?", now, id);
  }

  setInfo(id: string, info: NodeInfoResponse): void {
    this.#sql.exec("UPDATE nodes SET info = ? WHERE id = ?", encodeInfo(info), id);
  }

  /** A heartbeat: alive now, with its NodeInfo (absent: the one stored stays). */
  heartbeat(row: NodeRow, now: number, info: NodeInfoResponse | undefined): void {
    this.#sql.exec("UPDATE nodes SET last_heartbeat = ?, info = ?, lost_at = 0 WHERE id = ?", now, info ? encodeInfo(info) : row.info, row.id);
  }

  markLost(id: string, now: number): void {
    this.#sql.exec("UPDATE nodes SET lost_at = ? WHERE id = ?", now, id);
  }

  /** The SchedulableNode last pushed to the node's scheduler, as JSON. */
  markPushed(id: string, json: string): void {
    this.#sql.exec("UPDATE nodes SET pushed = ? WHERE id = ?", json, id);
  }

  pollAnswered(id: string, info: NodeInfoResponse, now: number): void {
    this.#sql.exec("UPDATE nodes SET info = ?, last_checked = ?, last_ok = ?, failures = 0, last_error = NULL WHERE id = ?",
      encodeInfo(info), now, now, id);
  }

  pollFailed(id: string, now: number, error: string): void {
    this.#sql.exec("UPDATE nodes SET last_checked = ?, failures = failures + 1, last_error = ? WHERE id = ?", now, error, id);
  }
}
