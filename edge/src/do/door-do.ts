// DoorDO: the guard of the operator doors (/admin bearer token, dashboard sign-in), one object for
// the whole edge so that every isolate counts the same failures (docs/operators.md#operator-doors).
// The token is compared by the caller; this object only hears whether it matched.
//  - A client (its address, doors/client.ts) with `perClient` failures in the window is refused
//    with 429 until the oldest leaves the window, whatever it presents.
//  - With `global` failures in the window from all clients, clients not known to hold the token
//    (no right token from them within `trustMs`) are refused too: a botnet's guesses are capped
//    overall, while the operator's usual address keeps working.
// Refused attempts are not counted: a blocked client's window ends on its own.
import { DurableObject } from "cloudflare:workers";
import type { DoorLimits, DoorRpc, DoorVerdict } from "../contracts/door.ts";
import type { Env } from "../env.ts";
import { windowDecision } from "../lib/ratelimit.ts";

export class DoorDO extends DurableObject<Env> implements DoorRpc {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS failures (client TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS failures_client ON failures (client, at);
      CREATE INDEX IF NOT EXISTS failures_at ON failures (at);
      CREATE TABLE IF NOT EXISTS trusted (client TEXT PRIMARY KEY, at INTEGER NOT NULL)`);
  }

  attempt(client: string, ok: boolean, limits: DoorLimits): DoorVerdict {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    const since = now - limits.windowMs;
    const mine = this.#decide(now, limits, "AND client = ?", client);
    if (!mine.allowed) return { verdict: "throttled", scope: "client", retry_after_secs: mine.retryAfterSecs };
    const trustedAt = sql.exec<{ at: number }>("SELECT at FROM trusted WHERE client = ?", client).toArray()[0]?.at ?? 0;
    if (trustedAt <= now - limits.trustMs) {
      const all = this.#decide(now, { ...limits, perClient: limits.global }, "");
      if (!all.allowed) return { verdict: "throttled", scope: "global", retry_after_secs: all.retryAfterSecs };
    }
    if (ok) {
      // Renewed at most hourly: the right token's usual path writes nothing (no wait for a commit).
      if (trustedAt < now - 3_600_000) sql.exec("INSERT OR REPLACE INTO trusted (client, at) VALUES (?, ?)", client, now);
      return { verdict: "pass" };
    }
    // Only failures write (and tidy up): the right token's path reads.
    sql.exec("DELETE FROM failures WHERE at <= ?", since);
    sql.exec("DELETE FROM trusted WHERE at <= ?", now - limits.trustMs);
    sql.exec("INSERT INTO failures (client, at) VALUES (?, ?)", client, now);
    return { verdict: "fail" };
  }

  /** The window decision over the failures in the window (`and`: which client's; limit: `perClient`). */
  #decide(now: number, l: DoorLimits, and: string, ...bind: string[]) {
    const sql = this.ctx.storage.sql;
    const since = now - l.windowMs;
    const w = sql.exec<{ count: number; oldest: number | null; newest: number | null }>(
      `SELECT COUNT(*) AS count, MIN(at) AS oldest, MAX(at) AS newest FROM failures WHERE at > ? ${and}`, since, ...bind).one();
    return windowDecision(w, now, l.perClient, l.windowMs, (k) =>
      sql.exec<{ at: number }>(`SELECT at FROM failures WHERE at > ? ${and} ORDER BY at LIMIT 1 OFFSET ?`, since, ...bind, k).one().at);
  }
}
