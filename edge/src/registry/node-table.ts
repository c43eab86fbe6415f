// The registry's node table: its schema, and a node's info encoded and decoded.
import { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import { randomBase62 } from "../lib/keys.ts";
import type { NodeRow } from "./node-row.ts";

export function createNodeTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS nodes (
    id TEXT PRIMARY KEY, url TEXT UNIQUE NOT NULL, token TEXT NOT NULL, name TEXT NOT NULL, info BLOB,
    last_checked INTEGER NOT NULL DEFAULT 0, last_ok INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0,
    last_error TEXT, registered_at INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'registered', hb_hash TEXT,
    last_heartbeat INTEGER NOT NULL DEFAULT 0, drain_state TEXT, drain_at INTEGER NOT NULL DEFAULT 0,
    lost_at INTEGER NOT NULL DEFAULT 0, pool TEXT NOT NULL DEFAULT 'default', pushed TEXT,
    enroll_token TEXT, max_slots INTEGER NOT NULL DEFAULT 0, approval TEXT, revoked_at INTEGER NOT NULL DEFAULT 0)`);
}

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

/** Adds a node, or updates the one at the same URL (a restarted node) keeping its id. Returns the id. */
export function upsertNode(sql: SqlStorage, n: NodeEntry): string {
  const now = Date.now();
  const existing = sql.exec<NodeRow>("SELECT * FROM nodes WHERE url = ?", n.url).toArray()[0];
  const id = existing?.id ?? `node_${randomBase62(12)}`;
  sql.exec(
    `INSERT INTO nodes (id, url, token, name, info, last_checked, last_ok, failures, last_error, registered_at, kind, hb_hash, last_heartbeat, drain_state, drain_at, lost_at, pool)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, ?, ?, NULL, 0, 0, ?)
     ON CONFLICT(url) DO UPDATE SET token = excluded.token, name = excluded.name, info = excluded.info, last_checked = excluded.last_checked,
       last_ok = excluded.last_ok, failures = 0, last_error = NULL, kind = excluded.kind, hb_hash = excluded.hb_hash,
       last_heartbeat = excluded.last_heartbeat, drain_state = NULL, drain_at = 0, lost_at = 0, pool = excluded.pool`,
    id, n.url, n.token, n.name || existing?.name || id, encodeInfo(n.info), now, now, existing?.registered_at ?? now, n.kind, n.hbHash,
    n.kind === "enrolled" ? now : 0, n.pool ?? existing?.pool ?? DEFAULT_POOL,
  );
  return id;
}
