// FleetDO: the single global registry and scheduler. It knows the nodes (URL, credential, last
// NodeInfo), assigns submissions to free slots, and holds the bounded FIFO queue. Slot accounting
// is its own (assignments it made), not the node's momentary free_slots, so two submissions can
// never be promised the same slot. All state changes are synchronous SQLite calls, so concurrent
// RPCs interleave only at awaits (node health checks), never inside a decision.
//
// Operators' side (docs/operators.md): nodes either are registered by an operator (POST /admin/nodes;
// health from NodeInfo polls) or enroll themselves with an enrollment token and then send
// heartbeats; an enrolled node that misses NODE_HEARTBEAT_MISSES heartbeats is unhealthy and gets no
// new work. Draining takes a node out of rotation at once and calls its Drain RPC; its runs finish.
// It also serves the operator dashboard: WebSockets (hibernation API) that get a JSON snapshot of
// what the Durable Objects know every second while at least one is connected.
import { DurableObject } from "cloudflare:workers";
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import { constantTimeEqual, randomBase62, sha256Hex } from "../lib/keys.ts";
import type { KeyMeta } from "../auth.ts";
import { orderLanguages } from "../../../proto/languages.ts";
import { toInfo } from "./fleet-types.ts";
import type { NodeTarget, RunSummary, EnrollInput, HeartbeatInput, EnrollmentTokenView, StoredInfo, NodeView, FleetStatus, EnqueueResult, DashboardSnapshot, PollResult, NodeRow, TokenRow } from "./fleet-types.ts";

export class FleetDO extends DurableObject<Env> {
  #cfg: Config;
  #refreshing = new Map<string, Promise<void>>();
  /** When the pending alarm fires, as far as this instance knows (saves a storage round trip per enqueue). */
  #alarmAt: number | null = null;
  /** Dashboard: the key list (KV) is re-read at most every 10 s. */
  #keysCache: { at: number; keys: KeyMeta[] } | null = null;

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
    // Columns added for enrollment, heartbeats and drain (older registries are migrated in place).
    const cols = new Set(sql.exec<{ name: string }>("PRAGMA table_info(nodes)").toArray().map((c) => c.name));
    const add: [string, string][] = [
      ["kind", "TEXT NOT NULL DEFAULT 'registered'"], ["hb_hash", "TEXT"], ["last_heartbeat", "INTEGER NOT NULL DEFAULT 0"],
      ["drain_state", "TEXT"], ["drain_at", "INTEGER NOT NULL DEFAULT 0"], ["lost_at", "INTEGER NOT NULL DEFAULT 0"],
    ];
    for (const [name, type] of add) if (!cols.has(name)) sql.exec(`ALTER TABLE nodes ADD COLUMN ${name} ${type}`);
    sql.exec(`CREATE TABLE IF NOT EXISTS enroll_tokens (id TEXT PRIMARY KEY, hash TEXT UNIQUE NOT NULL, name TEXT NOT NULL,
      created INTEGER NOT NULL, expires INTEGER NOT NULL DEFAULT 0, uses INTEGER NOT NULL DEFAULT 0, last_used INTEGER NOT NULL DEFAULT 0)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS recent (sub_id TEXT PRIMARY KEY, at INTEGER NOT NULL, language TEXT NOT NULL,
      job_status TEXT NOT NULL, verdict TEXT, latency_ms INTEGER NOT NULL, wall_ms INTEGER)`);
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
         last_checked = excluded.last_checked, last_ok = excluded.last_ok, failures = 0, last_error = NULL,
         kind = 'registered', hb_hash = NULL, drain_state = NULL, lost_at = 0`,
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
    const n = this.ctx.storage.sql.exec("DELETE FROM nodes WHERE id = ? OR name = ?", id, id).rowsWritten;
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
      else if (!this.#heartbeatFresh(r)) reasons.push(`node ${r.name}: unhealthy (no heartbeat for ${Math.round((Date.now() - r.last_heartbeat) / 1000)} s)`);
      else if (r.drain_state !== null) reasons.push(`node ${r.name}: draining (taken out of rotation by an operator)`);
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

  // ---- enrollment, heartbeats, drain ----

  /** An operator-issued enrollment token; the plain value is returned here only. */
  async createEnrollmentToken(name: string, ttlSecs: number): Promise<EnrollmentTokenView & { token: string }> {
    const token = `cce_${randomBase62(40)}`;
    const id = `enr_${randomBase62(12)}`;
    const now = Date.now();
    const expires = ttlSecs > 0 ? now + ttlSecs * 1000 : 0;
    this.ctx.storage.sql.exec("INSERT INTO enroll_tokens (id, hash, name, created, expires) VALUES (?, ?, ?, ?, ?)", id, await sha256Hex(token), name, now, expires);
    const row = this.#sql<TokenRow>("SELECT * FROM enroll_tokens WHERE id = ?", id)[0]!;
    return { ...this.#tokenView(row), token };
  }

  listEnrollmentTokens(): EnrollmentTokenView[] {
    return this.#sql<TokenRow>("SELECT * FROM enroll_tokens ORDER BY created").map((r) => this.#tokenView(r));
  }

  revokeEnrollmentToken(id: string): boolean {
    return this.ctx.storage.sql.exec("DELETE FROM enroll_tokens WHERE id = ?", id).rowsWritten > 0;
  }

  async #checkEnrollmentToken(token: string): Promise<TokenRow | null> {
    const hash = await sha256Hex(token);
    const row = this.#sql<TokenRow>("SELECT * FROM enroll_tokens WHERE hash = ?", hash)[0];
    if (!row || !constantTimeEqual(row.hash, hash)) return null;
    if (row.expires > 0 && row.expires < Date.now()) return null;
    return row;
  }

  /**
   * A node joins: the enrollment token is checked, then the node itself (NodeInfo with its fleet
   * credential, which proves the address and the credential). Returns the node's id and the secret
   * its heartbeats carry. Enrolling the same URL again (a restarted node) updates the entry.
   */
  async enroll(enrollmentToken: string, input: EnrollInput): Promise<
    { ok: true; node: NodeView; heartbeat_secret: string; heartbeat_interval_ms: number } | { ok: false; status: number; error: string }
  > {
    const tok = await this.#checkEnrollmentToken(enrollmentToken);
    if (!tok) return { ok: false, status: 401, error: "invalid or expired enrollment token" };
    let info: NodeInfoResponse;
    try {
      info = await unary({ url: input.url, token: input.token }, fleetMethods.nodeInfo, {}, 5_000);
    } catch (e) {
      return { ok: false, status: 502, error: `the edge cannot reach the node at ${input.url}: ${e instanceof Error ? e.message : String(e)}` };
    }
    const secret = `cch_${randomBase62(40)}`;
    const hbHash = await sha256Hex(secret);
    const now = Date.now();
    const existing = this.#sql<NodeRow>("SELECT * FROM nodes WHERE url = ?", input.url)[0];
    const id = existing?.id ?? `node_${randomBase62(12)}`;
    const name = input.name || info.nodeId || existing?.name || id;
    this.ctx.storage.sql.exec(
      `INSERT INTO nodes (id, url, token, name, info, last_checked, last_ok, failures, last_error, registered_at, kind, hb_hash, last_heartbeat, drain_state, drain_at, lost_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, 'enrolled', ?, ?, NULL, 0, 0)
       ON CONFLICT(url) DO UPDATE SET token = excluded.token, name = excluded.name, info = excluded.info,
         last_checked = excluded.last_checked, last_ok = excluded.last_ok, failures = 0, last_error = NULL,
         kind = 'enrolled', hb_hash = excluded.hb_hash, last_heartbeat = excluded.last_heartbeat, drain_state = NULL, drain_at = 0, lost_at = 0`,
      id, input.url, input.token, name, JSON.stringify(toInfo(info)), now, now, existing?.registered_at ?? now, hbHash, now,
    );
    this.ctx.storage.sql.exec("UPDATE enroll_tokens SET uses = uses + 1, last_used = ? WHERE id = ?", now, tok.id);
    console.log("fleet node enrolled", id, name, input.url);
    this.#pumpAndNotify();
    this.#ensureAlarm();
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ?", id)[0]!;
    return { ok: true, node: this.#view(row), heartbeat_secret: secret, heartbeat_interval_ms: this.#cfg.heartbeatMs };
  }

  async #enrolledNode(nodeId: string, secret: string): Promise<NodeRow | null> {
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ? AND kind = 'enrolled'", nodeId)[0];
    if (!row?.hb_hash) return null;
    return constantTimeEqual(row.hb_hash, await sha256Hex(secret)) ? row : null;
  }

  /** A heartbeat: the node is alive, with its current NodeInfo. Null when the node is unknown (re-enroll). */
  async heartbeat(input: HeartbeatInput): Promise<{ ok: boolean; state: string; drain: boolean; heartbeat_interval_ms: number } | null> {
    const row = await this.#enrolledNode(input.node_id, input.secret);
    if (!row) return null;
    const now = Date.now();
    const wasFresh = this.#heartbeatFresh(row, now);
    const info = input.info ? JSON.stringify(input.info) : row.info;
    this.ctx.storage.sql.exec("UPDATE nodes SET last_heartbeat = ?, info = ?, lost_at = 0 WHERE id = ?", now, info, row.id);
    if (input.draining && row.drain_state === null) {
      this.ctx.storage.sql.exec("UPDATE nodes SET drain_state = 'draining', drain_at = ? WHERE id = ?", now, row.id);
      console.log("fleet node is draining (stopping)", row.id, row.name);
    }
    if (!wasFresh) console.log("fleet node heartbeats resumed", row.id, row.name);
    this.#pumpAndNotify();
    this.#ensureAlarm();
    const after = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ?", row.id)[0]!;
    return { ok: true, state: this.#state(after), drain: after.drain_state !== null, heartbeat_interval_ms: this.#cfg.heartbeatMs };
  }

  /** The node is going away for good (its service stopped after draining): forget it. */
  async leave(nodeId: string, secret: string): Promise<boolean> {
    const row = await this.#enrolledNode(nodeId, secret);
    if (!row) return false;
    this.ctx.storage.sql.exec("DELETE FROM nodes WHERE id = ?", row.id);
    console.log("fleet node left", row.id, row.name);
    return true;
  }

  /** Out of rotation at once, then the node's Drain RPC: its running and queued runs finish. */
  async drain(id: string): Promise<{ node: NodeView; in_flight_at_drain: number | null; rpc_error: string | null } | null> {
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ? OR name = ?", id, id)[0];
    if (!row) return null;
    if (row.drain_state === null) {
      this.ctx.storage.sql.exec("UPDATE nodes SET drain_state = 'draining', drain_at = ? WHERE id = ?", Date.now(), row.id);
    }
    // A run assigned a moment ago may still have its Execute call on the way to the node, which
    // would refuse it once drained: nothing new is assigned from here on, so give those a second.
    const justAssigned = this.#sql<{ n: number }>("SELECT COUNT(*) AS n FROM assigned WHERE node_id = ? AND at > ?", row.id, Date.now() - 2_000)[0]?.n ?? 0;
    if (justAssigned > 0) await new Promise((r) => setTimeout(r, 1_000));
    let inFlight: number | null = null;
    let rpcError: string | null = null;
    try {
      inFlight = (await unary({ url: row.url, token: row.token }, fleetMethods.drain, {}, 5_000)).inFlight;
    } catch (e) {
      rpcError = e instanceof Error ? e.message : String(e);
    }
    await this.#refresh(row).catch(() => {});
    const after = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ?", row.id)[0] ?? row;
    return { node: this.#view(after), in_flight_at_drain: inFlight, rpc_error: rpcError };
  }

  /** Enrolled nodes whose heartbeats stopped: logged once; #isReady already keeps work away from them. */
  #checkHeartbeats(): void {
    const now = Date.now();
    for (const r of this.#sql<NodeRow>("SELECT * FROM nodes WHERE kind = 'enrolled' AND lost_at = 0")) {
      if (this.#heartbeatFresh(r, now)) continue;
      this.ctx.storage.sql.exec("UPDATE nodes SET lost_at = ? WHERE id = ?", now, r.id);
      console.warn("fleet node missed its heartbeats: unhealthy, no new work", r.id, r.name, `in flight ${this.#inFlight(r.id)}`);
    }
  }

  #tokenView(r: TokenRow): EnrollmentTokenView {
    return {
      id: r.id, name: r.name, created_at: new Date(r.created).toISOString(), expires_at: r.expires ? new Date(r.expires).toISOString() : null,
      uses: r.uses, last_used_at: r.last_used ? new Date(r.last_used).toISOString() : null,
    };
  }

  // ---- dashboard ----

  #recordRun(subId: string, s: RunSummary): void {
    this.ctx.storage.sql.exec(
      "INSERT OR IGNORE INTO recent (sub_id, at, language, job_status, verdict, latency_ms, wall_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
      subId, Date.now(), s.language, s.job_status, s.verdict, Math.max(0, Math.round(s.latency_ms)), s.wall_ms === null ? null : Math.round(s.wall_ms));
    // Keep the last 500.
    this.ctx.storage.sql.exec("DELETE FROM recent WHERE sub_id NOT IN (SELECT sub_id FROM recent ORDER BY at DESC LIMIT 500)");
  }

  async #keys(): Promise<KeyMeta[]> {
    if (this.#keysCache && Date.now() - this.#keysCache.at < 10_000) return this.#keysCache.keys;
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page: KVNamespaceListResult<unknown, string> = await this.env.KEYS.list({ prefix: "keyid:", cursor });
      names.push(...page.keys.map((k) => k.name));
      cursor = page.list_complete || names.length >= 200 ? undefined : page.cursor;
    } while (cursor);
    const metas = (await Promise.all(names.slice(0, 200).map((n) => this.env.KEYS.get<KeyMeta>(n, "json")))).filter((m): m is KeyMeta => m !== null);
    this.#keysCache = { at: Date.now(), keys: metas };
    return metas;
  }

  /** Forgets the cached key list (a key was created, revoked or rotated). */
  keysChanged(): void {
    this.#keysCache = null;
  }

  /** Everything the dashboard shows, gathered from this object and the KeyDOs. */
  async snapshot(): Promise<DashboardSnapshot> {
    await this.#refreshStale().catch(() => {});
    const nodes = this.#sql<NodeRow>("SELECT * FROM nodes ORDER BY registered_at").map((r) => this.#view(r));
    const metas = await this.#keys();
    const keys = await Promise.all(metas.map(async (m) => {
      const u = await this.env.KEY_DO.get(this.env.KEY_DO.idFromName(m.hash)).usage().catch(() => null);
      const c = u?.counters ?? {};
      return {
        key_id: m.key_id, name: m.name, project_id: m.project_id, fingerprint: m.hash.slice(0, 8),
        requests_last_minute: u?.requests_last_minute ?? 0, in_flight: u?.in_flight ?? 0,
        rejected_rate_limit: c.rejected_rate_limit ?? 0, rejected_concurrency: c.rejected_concurrency ?? 0,
        submissions: c.submissions ?? 0, completed: c.completed ?? 0, errors: c.errors ?? 0,
      };
    }));
    const recent = this.#sql<{ at: number; verdict: string | null; job_status: string; language: string; latency_ms: number; wall_ms: number | null }>(
      "SELECT at, verdict, job_status, language, latency_ms, wall_ms FROM recent ORDER BY at DESC LIMIT 100").reverse();
    const verdicts: Record<string, number> = {};
    for (const r of recent) {
      const v = r.job_status === "error" ? "error" : (r.verdict ?? "?");
      verdicts[v] = (verdicts[v] ?? 0) + 1;
    }
    return {
      generated_at: new Date().toISOString(),
      limits: { rate_per_min: this.#cfg.rateLimit, max_in_flight: this.#cfg.maxInFlight, queue_capacity: this.#cfg.queueCapacity },
      queue_depth: this.#queueDepth(),
      fleet: await this.status(),
      nodes, keys, recent, verdicts,
    };
  }

  /** Dashboard WebSocket (the Worker checked the operator session before forwarding the upgrade). */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("expected a WebSocket upgrade", { status: 426 });
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], ["dashboard"]);
    this.#keysCache = null;
    this.#ensureAlarm();
    this.ctx.waitUntil(this.snapshot().then((s) => pair[1].send(JSON.stringify({ type: "snapshot", data: s }))).catch(() => {}));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // The page may ask for a snapshot at once ("refresh"); anything else is ignored.
    if (message === "refresh") ws.send(JSON.stringify({ type: "snapshot", data: await this.snapshot() }));
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {}
  }

  #broadcast(s: DashboardSnapshot): void {
    const msg = JSON.stringify({ type: "snapshot", data: s });
    for (const ws of this.ctx.getWebSockets("dashboard")) {
      try {
        ws.send(msg);
      } catch {}
    }
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

  /**
   * A node refused a run before it started (draining, not ready, its own queue full): that node
   * counts as not ready until its next health check says otherwise, and the run goes back to the
   * head of the queue, for another node or the same one once ready.
   */
  requeue(subId: string, language: string, nodeId: string, reason: string): EnqueueResult {
    this.ctx.storage.sql.exec("DELETE FROM assigned WHERE sub_id = ?", subId);
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ?", nodeId)[0];
    const info = row && this.#info(row);
    if (info) {
      this.ctx.storage.sql.exec("UPDATE nodes SET info = ? WHERE id = ?", JSON.stringify({ ...info, ready: false, not_ready_reasons: [reason] }), nodeId);
    }
    const head = this.#sql<{ seq: number | null }>("SELECT MIN(seq) AS seq FROM queue")[0]?.seq ?? 1;
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO queue (seq, sub_id, language, enqueued_at) VALUES (?, ?, ?, ?)", head - 1, subId, language, Date.now());
    const mine = this.#pumpAndNotify(subId);
    this.#ensureAlarm();
    if (mine) return { kind: "dispatched", node: mine, queue_depth: this.#queueDepth() };
    return { kind: "queued", queue_depth: this.#queueDepth(), position: this.#position(subId) };
  }

  /** A run ended (or will never start): frees its slot and hands it to the next in line. */
  release(subId: string, summary?: RunSummary): void {
    this.ctx.storage.sql.exec("DELETE FROM assigned WHERE sub_id = ?", subId);
    if (summary) this.#recordRun(subId, summary);
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
    this.#alarmAt = null;
    try {
      await this.#refreshStale(true);
    } catch (e) {
      console.error("fleet health refresh failed", String(e));
    }
    this.#checkHeartbeats();
    if (this.ctx.getWebSockets("dashboard").length > 0) {
      try {
        this.#broadcast(await this.snapshot());
      } catch (e) {
        console.error("dashboard snapshot failed", String(e));
      }
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
    return r.failures === 0 && !!info && info.ready && !info.draining && info.enforcement_mode === "strict" &&
      r.drain_state === null && this.#heartbeatFresh(r);
  }

  /** Registered nodes have no heartbeat; an enrolled one is fresh while it missed fewer than the allowed beats. */
  #heartbeatFresh(r: NodeRow, now = Date.now()): boolean {
    return r.kind !== "enrolled" || now - r.last_heartbeat <= this.#cfg.heartbeatMs * this.#cfg.heartbeatMisses;
  }

  #state(r: NodeRow): string {
    const info = this.#info(r);
    if (r.drain_state !== null || info?.draining) return this.#inFlight(r.id) > 0 || (info?.queue_depth ?? 0) > 0 ? "draining" : "drained";
    if (!this.#heartbeatFresh(r) || r.failures > 0) return "unhealthy";
    return this.#isReady(r) ? "healthy" : "not_ready";
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

  /**
   * Keeps an alarm while there is something to watch: queued or assigned runs (health refresh),
   * enrolled nodes (heartbeat deadlines), connected dashboards (a snapshot every second).
   */
  #ensureAlarm(): void {
    let delay: number | null = null;
    const busy = this.#queueDepth() > 0 || (this.#sql<{ n: number }>("SELECT COUNT(*) AS n FROM assigned")[0]?.n ?? 0) > 0;
    if (busy) delay = Math.max(500, Math.min(this.#cfg.healthTtlMs || 5_000, this.#cfg.watchdogMs));
    const enrolled = (this.#sql<{ n: number }>("SELECT COUNT(*) AS n FROM nodes WHERE kind = 'enrolled'")[0]?.n ?? 0) > 0;
    if (enrolled) delay = Math.min(delay ?? Infinity, Math.max(100, this.#cfg.heartbeatMs));
    if (this.ctx.getWebSockets("dashboard").length > 0) delay = Math.min(delay ?? Infinity, 1_000);
    if (delay === null) return;
    const want = Date.now() + delay;
    if (this.#alarmAt !== null && this.#alarmAt <= want + 50) return;
    this.#alarmAt = want;
    this.ctx.waitUntil(
      this.ctx.storage.getAlarm().then((at) => {
        if (at === null || at > want) return this.ctx.storage.setAlarm(want);
        this.#alarmAt = at;
        return undefined;
      }),
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
      kind: r.kind, state: this.#state(r), last_heartbeat_at: r.last_heartbeat ? new Date(r.last_heartbeat).toISOString() : null,
    };
  }
}
