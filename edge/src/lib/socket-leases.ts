// Leases on a capped number of open sockets, in a Durable Object's SQL storage: one row per socket,
// from its opening to its close. A socket lost without a close (an edge restart) is dropped when its
// lease ends. A key's KeyDO counts its live-session WebSockets with it, so that its plan's
// `max_sessions` caps them (docs/live-sessions.md); the lease is the session's start deadline,
// maximum duration and grace.

/** A socket to open: its lease, and the key's cap. */
export interface SocketLease {
  max: number;
  until_ms: number;
}

/** Opens `token`'s socket unless the key holds `lease.max` already; with `lease` null, closes it. */
export function liveSocket(sql: SqlStorage, token: string, lease: SocketLease | null, now = Date.now()): boolean {
  sql.exec("CREATE TABLE IF NOT EXISTS sockets (token TEXT PRIMARY KEY, until_ms INTEGER NOT NULL)");
  if (lease === null) {
    sql.exec("DELETE FROM sockets WHERE token = ?", token);
    return true;
  }
  sql.exec("DELETE FROM sockets WHERE until_ms <= ?", now);
  if (sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sockets").one().n >= lease.max) return false;
  sql.exec("INSERT OR REPLACE INTO sockets (token, until_ms) VALUES (?, ?)", token, lease.until_ms);
  return true;
}
