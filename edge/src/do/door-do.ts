// DoorDO: the counter of wrong operator tokens (/admin bearer token, dashboard sign-in), one object
// for the whole edge so that every isolate counts the same failures (docs/operators.md#operator-doors).
// The token is compared by the caller, and the right one never comes here: only failures do.
//  - A client (its address, doors/client.ts) with `perClient` failures in the window gets 429 for
//    its wrong tokens until the oldest leaves the window.
//  - With `global` failures in the window from all clients, every wrong token gets 429.
// Throttled failures are not counted (a throttled client's window ends on its own), but they are
// in the metric and the log like every failure.
import { DurableObject } from "cloudflare:workers";
import { DOOR_FAILURES_METRIC } from "../contracts/door.ts";
import type { Door, DoorLimits, DoorRpc, DoorVerdict } from "../contracts/door.ts";
import type { Env } from "../env.ts";
import { windowDecision } from "../lib/ratelimit.ts";
import { metrics } from "../stubs.ts";

type Failure = Exclude<DoorVerdict, { verdict: "pass" }>;

export class DoorDO extends DurableObject<Env> implements DoorRpc {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // `trusted` held the addresses exempt from the global limit before the right token passed always.
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS failures (client TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS failures_client ON failures (client, at);
      CREATE INDEX IF NOT EXISTS failures_at ON failures (at);
      DROP TABLE IF EXISTS trusted`);
  }

  failed(client: string, door: Door, limits: DoorLimits): Failure {
    const v = this.#verdict(client, limits);
    const outcome = v.verdict === "fail" ? "refused" : "throttled";
    this.ctx.waitUntil(metrics(this.env).add([{ name: DOOR_FAILURES_METRIC, labels: { door, outcome }, value: 1 }]).catch(() => {}));
    const why = v.verdict === "throttled" ? ` (throttled: ${v.scope} limit, retry after ${v.retry_after_secs} s)` : "";
    console.warn(`wrong operator token door=${door} client=${client} outcome=${outcome}${why}`);
    return v;
  }

  #verdict(client: string, limits: DoorLimits): Failure {
    const now = Date.now();
    const mine = this.#decide(now, limits.perClient, limits.windowMs, "AND client = ?", client);
    if (!mine.allowed) return { verdict: "throttled", scope: "client", retry_after_secs: mine.retryAfterSecs };
    const all = this.#decide(now, limits.global, limits.windowMs, "");
    if (!all.allowed) return { verdict: "throttled", scope: "global", retry_after_secs: all.retryAfterSecs };
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM failures WHERE at <= ?", now - limits.windowMs);
    sql.exec("INSERT INTO failures (client, at) VALUES (?, ?)", client, now);
    return { verdict: "fail" };
  }

  /** The window decision over the failures in the window (`and`: which client's). */
  #decide(now: number, limit: number, windowMs: number, and: string, ...bind: string[]) {
    const sql = this.ctx.storage.sql;
    const since = now - windowMs;
    const w = sql.exec<{ count: number; oldest: number | null; newest: number | null }>(
      `SELECT COUNT(*) AS count, MIN(at) AS oldest, MAX(at) AS newest FROM failures WHERE at > ? ${and}`, since, ...bind).one();
    return windowDecision(w, now, limit, windowMs, (k) =>
      sql.exec<{ at: number }>(`SELECT at FROM failures WHERE at > ? ${and} ORDER BY at LIMIT 1 OFFSET ?`, since, ...bind, k).one().at);
  }
}
