// FleetDO: the single global registry and scheduler. It knows the nodes (URL, credential, last
// NodeInfo), assigns submissions to free slots, and holds the bounded FIFO queue. Slot accounting
// is its own (assignments it made), not the node's momentary free_slots, so two submissions can
// never be promised the same slot. All state changes are synchronous SQLite calls, so concurrent
// RPCs interleave only at awaits (node health checks), never inside a decision.
import { DurableObject } from "cloudflare:workers";
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { fleetMethods, unary } from "../fleet-client.ts";
import type { FleetTarget } from "../fleet-client.ts";
import { randomBase62 } from "../lib/keys.ts";
import { orderLanguages } from "../../../proto/languages.ts";

export interface NodeTarget extends FleetTarget {
  id: string;
}

interface NodeRow {
  id: string;
  url: string;
  token: string;
  name: string;
  info: string | null;
  last_checked: number;
  last_ok: number;
  failures: number;
  last_error: string | null;
  registered_at: number;
  [key: string]: SqlStorageValue;
}

interface StoredInfo {
  node_id: string;
  version: string;
  slots: number;
  queue_depth: number;
  queue_capacity: number;
  languages: { name: string; version: string }[];
  enforcement_mode: string;
  cgroup_version: string;
  kernel: string;
  ready: boolean;
  draining: boolean;
  not_ready_reasons: string[];
}

export interface NodeView {
  id: string;
  name: string;
  url: string;
  node_id: string | null;
  version: string | null;
  reachable: boolean;
  ready: boolean;
  draining: boolean;
  enforcement_mode: string;
  slots: number;
  in_flight: number;
  free_slots: number;
  languages: { name: string; version: string }[];
  not_ready_reasons: string[];
  last_ok_at: string | null;
  last_error: string | null;
  registered_at: string;
}

export interface FleetStatus {
  ready_nodes: number;
  workers: number;
  queue_depth: number;
  enforcement_mode: string;
  languages: string[];
  reasons: string[];
}

export type EnqueueResult =
  | { kind: "dispatched"; node: NodeTarget; queue_depth: number }
  | { kind: "queued"; queue_depth: number; position: number }
  | { kind: "queue_full"; queue_depth: number }
  | { kind: "unsupported"; available: string[] };

export type PollResult = { state: "queued"; position: number } | { state: "assigned"; node: NodeTarget } | { state: "unknown" };

function toInfo(r: NodeInfoResponse): StoredInfo {
  return {
    node_id: r.nodeId, version: r.version, slots: r.slots, queue_depth: r.queueDepth, queue_capacity: r.queueCapacity,
    languages: r.languages.map((l) => ({ name: l.name, version: l.version })), enforcement_mode: r.enforcementMode,
    cgroup_version: r.cgroupVersion, kernel: r.kernel, ready: r.ready, draining: r.draining, not_ready_reasons: [...r.notReadyReasons],
  };
}

export class FleetDO extends DurableObject<Env> {
  #cfg: Config;
  #refreshing = new Map<string, Promise<void>>();
  /** An alarm is known to be pending (saves a storage round trip per enqueue). */
  #alarmSet = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
    const sql = ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS nodes (
      id TEXT PRIMARY KEY, url TEXT UNIQUE NOT NULL, token TEXT NOT NULL, name TEXT NOT NULL, info TEXT,
      last_checked INTEGER NOT NULL DEFAULT 0, last_ok INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0,
      last_error TEXT, registered_at INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS queue (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, sub_id TEXT UNIQUE NOT NULL, language TEXT NOT NULL, enqueued_at INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS assigned (sub_id TEXT PRIMARY KEY, node_id TEXT NOT NULL, at INTEGER NOT NULL)`);
  }

  // ---- registry ----

  async register(input: { url: string; token: string; name?: string }): Promise<{ ok: true; node: NodeView } | { ok: false; error: string }> {
    let info: NodeInfoResponse;
    try {
      info = await unary({ url: input.url, token: input.token }, fleetMethods.nodeInfo, {}, 5_000);
    } catch (e) {
      return { ok: false, error: `cannot reach the node's gRPC-Web endpoint: ${e instanceof Error ? e.message : String(e)}` };
    }
    const now = Date.now();
    const existing = this.#sql<NodeRow>("SELECT * FROM nodes WHERE url = ?", input.url)[0];
    const id = existing?.id ?? `node_${randomBase62(12)}`;
    const name = input.name ?? (info.nodeId || existing?.name || id);
    this.ctx.storage.sql.exec(
      `INSERT INTO nodes (id, url, token, name, info, last_checked, last_ok, failures, last_error, registered_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?)
       ON CONFLICT(url) DO UPDATE SET token = excluded.token, name = excluded.name, info = excluded.info,
         last_checked = excluded.last_checked, last_ok = excluded.last_ok, failures = 0, last_error = NULL`,
      id, input.url, input.token, name, JSON.stringify(toInfo(info)), now, now, existing?.registered_at ?? now,
    );
    this.#pumpAndNotify();
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ?", id)[0];
    if (!row) return { ok: false, error: "node vanished during registration" };
    return { ok: true, node: this.#view(row) };
  }

  async list(): Promise<NodeView[]> {
    await this.#refreshStale();
    return this.#sql<NodeRow>("SELECT * FROM nodes ORDER BY registered_at").map((r) => this.#view(r));
  }

  remove(id: string): boolean {
    const n = this.ctx.storage.sql.exec("DELETE FROM nodes WHERE id = ?", id).rowsWritten;
    return n > 0;
  }

  /** The credential for a node, for a SubmissionDO recovering a run after eviction. Never leaves the edge. */
  target(nodeId: string): NodeTarget | null {
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ?", nodeId)[0];
    return row ? { id: row.id, url: row.url, token: row.token } : null;
  }

  async status(): Promise<FleetStatus> {
    await this.#refreshStale();
    const rows = this.#sql<NodeRow>("SELECT * FROM nodes");
    const ready = rows.filter((r) => this.#isReady(r));
    const reasons: string[] = [];
    if (rows.length === 0) reasons.push("no fleet node is registered");
    for (const r of rows) {
      if (this.#isReady(r)) continue;
      const info = this.#info(r);
      if (r.failures > 0) reasons.push(`node ${r.name}: unreachable (${r.last_error ?? "no answer"})`);
      else if (!info) reasons.push(`node ${r.name}: no NodeInfo yet`);
      else if (info.draining) reasons.push(`node ${r.name}: draining`);
      else if (!info.ready) reasons.push(`node ${r.name}: not ready (${info.not_ready_reasons.join("; ") || "no reason given"})`);
      else reasons.push(`node ${r.name}: enforcement mode ${info.enforcement_mode}, not strict`);
    }
    const langs = new Set<string>();
    let workers = 0;
    for (const r of ready) {
      const info = this.#info(r);
      workers += info?.slots ?? 0;
      for (const l of info?.languages ?? []) langs.add(l.name);
    }
    return {
      ready_nodes: ready.length,
      workers,
      queue_depth: this.#queueDepth(),
      enforcement_mode: ready.length > 0 ? "strict" : "none",
      languages: orderLanguages(langs),
      reasons,
    };
  }

  // ---- scheduling ----

  enqueue(subId: string, language: string): EnqueueResult {
    const rows = this.#sql<NodeRow>("SELECT * FROM nodes");
    const offered = rows.some((r) => this.#info(r)?.languages.some((l) => l.name === language));
    if (!offered) {
      const avail = new Set<string>();
      for (const r of rows) if (this.#isReady(r)) for (const l of this.#info(r)?.languages ?? []) avail.add(l.name);
      return { kind: "unsupported", available: orderLanguages(avail) };
    }
    const already = this.#sql<{ node_id: string }>("SELECT node_id FROM assigned WHERE sub_id = ?", subId)[0];
    if (already) {
      const t = this.target(already.node_id);
      if (t) return { kind: "dispatched", node: t, queue_depth: this.#queueDepth() };
    }
    const depth = this.#queueDepth();
    const inQueue = depth > 0 && this.#sql("SELECT 1 FROM queue WHERE sub_id = ?", subId).length > 0;
    if (!inQueue && depth === 0) {
      // Fast path (nobody waiting): straight to a free slot, one write.
      const node = this.#pick(language, rows);
      if (node) {
        this.ctx.storage.sql.exec("INSERT OR REPLACE INTO assigned (sub_id, node_id, at) VALUES (?, ?, ?)", subId, node.id, Date.now());
        this.#ensureAlarm();
        return { kind: "dispatched", node: { id: node.id, url: node.url, token: node.token }, queue_depth: 0 };
      }
    }
    if (!inQueue) {
      // A free slot with an empty queue dispatches even at capacity 0; otherwise the queue bounds.
      if (depth >= this.#cfg.queueCapacity && !(depth === 0 && this.#pick(language, rows))) {
        return { kind: "queue_full", queue_depth: depth };
      }
      this.ctx.storage.sql.exec("INSERT INTO queue (sub_id, language, enqueued_at) VALUES (?, ?, ?)", subId, language, Date.now());
    }
    const mine = this.#pumpAndNotify(subId);
    this.#ensureAlarm();
    if (mine) return { kind: "dispatched", node: mine, queue_depth: this.#queueDepth() };
    return { kind: "queued", queue_depth: this.#queueDepth(), position: this.#position(subId) };
  }

  /** A run ended (or will never start): frees its slot and hands it to the next in line. */
  release(subId: string): void {
    this.ctx.storage.sql.exec("DELETE FROM assigned WHERE sub_id = ?", subId);
    this.ctx.storage.sql.exec("DELETE FROM queue WHERE sub_id = ?", subId);
    this.#pumpAndNotify();
  }

  poll(subId: string): PollResult {
    const a = this.#sql<{ node_id: string }>("SELECT node_id FROM assigned WHERE sub_id = ?", subId)[0];
    if (a) {
      const t = this.target(a.node_id);
      return t ? { state: "assigned", node: t } : { state: "unknown" };
    }
    if (this.#sql("SELECT 1 FROM queue WHERE sub_id = ?", subId).length > 0) return { state: "queued", position: this.#position(subId) };
    return { state: "unknown" };
  }

  /** Removes a still-queued submission (queue timeout). False when it was already dispatched. */
  cancel(subId: string): boolean {
    return this.ctx.storage.sql.exec("DELETE FROM queue WHERE sub_id = ?", subId).rowsWritten > 0;
  }

  queueDepth(): number {
    return this.#queueDepth();
  }

  override async alarm(): Promise<void> {
    this.#alarmSet = false;
    try {
      await this.#refreshStale(true);
    } catch (e) {
      console.error("fleet health refresh failed", String(e));
    }
    // Assignments far older than any run can last belong to submissions that already gave up.
    this.ctx.storage.sql.exec("DELETE FROM assigned WHERE at < ?", Date.now() - this.#cfg.maxRunMs - this.#cfg.queueTimeoutMs);
    this.#pumpAndNotify();
    this.#ensureAlarm();
  }

  // ---- internals ----

  #sql<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T[] {
    return this.ctx.storage.sql.exec<T>(query, ...bindings).toArray();
  }

  #info(r: NodeRow): StoredInfo | null {
    return r.info ? (JSON.parse(r.info) as StoredInfo) : null;
  }

  #isReady(r: NodeRow): boolean {
    const info = this.#info(r);
    return r.failures === 0 && !!info && info.ready && !info.draining && info.enforcement_mode === "strict";
  }

  #queueDepth(): number {
    return this.#sql<{ n: number }>("SELECT COUNT(*) AS n FROM queue")[0]?.n ?? 0;
  }

  #position(subId: string): number {
    const row = this.#sql<{ n: number }>(
      "SELECT COUNT(*) AS n FROM queue WHERE seq <= (SELECT seq FROM queue WHERE sub_id = ?)", subId)[0];
    return row?.n ?? 0;
  }

  #inFlight(nodeId: string): number {
    return this.#sql<{ n: number }>("SELECT COUNT(*) AS n FROM assigned WHERE node_id = ?", nodeId)[0]?.n ?? 0;
  }

  /** The ready node with the most free slots for a language, or null. */
  #pick(language: string, rows: NodeRow[]): NodeRow | null {
    let best: NodeRow | null = null;
    let bestFree = 0;
    for (const r of rows) {
      if (!this.#isReady(r)) continue;
      const info = this.#info(r);
      if (!info?.languages.some((l) => l.name === language)) continue;
      const free = info.slots - this.#inFlight(r.id);
      if (free > bestFree) {
        best = r;
        bestFree = free;
      }
    }
    return best;
  }

  /**
   * Assigns queued submissions to free slots, oldest first per language (a language no ready node
   * offers does not block the others). Other submissions are told by RPC; `own`'s node is returned.
   */
  #pumpAndNotify(own?: string): NodeTarget | null {
    const rows = this.#sql<NodeRow>("SELECT * FROM nodes");
    const queued = this.#sql<{ sub_id: string; language: string }>("SELECT sub_id, language FROM queue ORDER BY seq");
    let mine: NodeTarget | null = null;
    for (const q of queued) {
      const node = this.#pick(q.language, rows);
      if (!node) continue;
      this.ctx.storage.sql.exec("DELETE FROM queue WHERE sub_id = ?", q.sub_id);
      this.ctx.storage.sql.exec("INSERT OR REPLACE INTO assigned (sub_id, node_id, at) VALUES (?, ?, ?)", q.sub_id, node.id, Date.now());
      const target: NodeTarget = { id: node.id, url: node.url, token: node.token };
      if (q.sub_id === own) mine = target;
      else {
        // If this RPC is lost, the SubmissionDO's own watchdog polls us and finds the assignment.
        const stub = this.env.SUBMISSION_DO.get(this.env.SUBMISSION_DO.idFromName(q.sub_id));
        this.ctx.waitUntil(stub.dispatch(q.sub_id, target).catch((e: unknown) => console.warn("dispatch notify failed", q.sub_id, String(e))));
      }
    }
    return mine;
  }

  #ensureAlarm(): void {
    if (this.#alarmSet) return;
    const busy = this.#queueDepth() > 0 || (this.#sql<{ n: number }>("SELECT COUNT(*) AS n FROM assigned")[0]?.n ?? 0) > 0;
    if (!busy) return;
    const interval = Math.max(500, Math.min(this.#cfg.healthTtlMs || 5_000, this.#cfg.watchdogMs));
    this.#alarmSet = true;
    this.ctx.waitUntil(
      this.ctx.storage.getAlarm().then((at) => (at === null ? this.ctx.storage.setAlarm(Date.now() + interval) : undefined)),
    );
  }

  async #refreshStale(force = false): Promise<void> {
    const now = Date.now();
    const rows = this.#sql<NodeRow>("SELECT * FROM nodes");
    await Promise.all(
      rows.filter((r) => force || now - r.last_checked >= this.#cfg.healthTtlMs).map((r) => this.#refresh(r)),
    );
  }

  #refresh(r: NodeRow): Promise<void> {
    const running = this.#refreshing.get(r.id);
    if (running) return running;
    const p = (async () => {
      try {
        const info = await unary({ url: r.url, token: r.token }, fleetMethods.nodeInfo, {}, 2_000);
        const now = Date.now();
        this.ctx.storage.sql.exec(
          "UPDATE nodes SET info = ?, last_checked = ?, last_ok = ?, failures = 0, last_error = NULL WHERE id = ?",
          JSON.stringify(toInfo(info)), now, now, r.id);
      } catch (e) {
        this.ctx.storage.sql.exec(
          "UPDATE nodes SET last_checked = ?, failures = failures + 1, last_error = ? WHERE id = ?",
          Date.now(), e instanceof Error ? e.message : String(e), r.id);
      } finally {
        this.#refreshing.delete(r.id);
      }
    })();
    this.#refreshing.set(r.id, p);
    return p;
  }

  #view(r: NodeRow): NodeView {
    const info = this.#info(r);
    const inFlight = this.#inFlight(r.id);
    return {
      id: r.id, name: r.name, url: r.url, node_id: info?.node_id ?? null, version: info?.version ?? null,
      reachable: r.failures === 0 && r.last_ok > 0, ready: this.#isReady(r), draining: info?.draining ?? false,
      enforcement_mode: info?.enforcement_mode ?? "none", slots: info?.slots ?? 0, in_flight: inFlight,
      free_slots: Math.max(0, (info?.slots ?? 0) - inFlight), languages: info?.languages ?? [],
      not_ready_reasons: info?.not_ready_reasons ?? [], last_ok_at: r.last_ok ? new Date(r.last_ok).toISOString() : null,
      last_error: r.last_error, registered_at: new Date(r.registered_at).toISOString(),
    };
  }
}
