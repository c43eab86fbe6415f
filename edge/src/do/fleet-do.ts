// FleetDO: the node registry (one object). It knows every node: address, credential, pool, last
// NodeInfo, heartbeats, drain. Nodes are registered by an operator (POST /admin/nodes; health by
// NodeInfo polls) or enroll themselves with an enrollment token and then send heartbeats; an
// enrolled node that misses NODE_HEARTBEAT_MISSES heartbeats is unhealthy. Whenever what a
// scheduler needs of a node changes (address, run slots, languages, ready), the registry pushes it
// to the scheduler of the node's pool, which then decides alone. Draining takes a node out of
// rotation at once and calls its Drain RPC; its runs finish.
import { DurableObject } from "cloudflare:workers";
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import type { DrainResult, EnrollmentTokenRequest, EnrollmentTokenView, FleetOverview, FleetRegistryRpc, FleetStatus, NodeView, Refused } from "../contracts/fleet.ts";
import type { NodeTarget, PoolLoad } from "../contracts/scheduler.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { EnrollmentTokens, createTokenTable } from "../registry/enrollment-tokens.ts";
import { REVOKED, isRevoked } from "../registry/node-admission.ts";
import { enrollNode, recordHeartbeat, settleRevoked } from "../registry/enroll-node.ts";
import { admit } from "../registry/admission-store.ts";
import { HealthPoll } from "../registry/health-poll.ts";
import { parseHeartbeat, parseLeave } from "../registry/enroll-messages.ts";
import { poolsOf, summarize } from "../registry/fleet-status.ts";
import type { KnownNode } from "../registry/fleet-status.ts";
import { heartbeatFresh, nextHeartbeatDeadline, nodeState, nodeView, schedulable, watchIntervalMs } from "../registry/node-state.ts";
import { createNodeTables, decodeInfo, encodeInfo, upsertNode } from "../registry/node-table.ts";
import type { NodeRow } from "../registry/node-row.ts";
import { ChangeReporter } from "../lib/change-reporter.ts";
import { constantTimeEqual, sha256Hex } from "../lib/keys.ts";
import { dashboard, scheduler } from "../stubs.ts";

const refused = (status: number, error: string): Refused => ({ ok: false, status, error });
const isRefused = (x: NodeRow | Refused): x is Refused => x.ok === false;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class FleetDO extends DurableObject<Env> implements FleetRegistryRpc {
  #cfg: Config;
  #tokens: EnrollmentTokens;
  #reporter: ChangeReporter;
  #health: HealthPoll;
  /** Pushes to schedulers, one at a time so that they arrive in order. */
  #pushes: Promise<void> = Promise.resolve();
  #alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
    createNodeTables(ctx.storage.sql);
    createTokenTable(ctx.storage.sql);
    this.#tokens = new EnrollmentTokens(ctx.storage.sql);
    this.#health = new HealthPoll(ctx.storage.sql, (id) => this.#push(id));
    this.#reporter = new ChangeReporter(250, () => dashboard(env).changed({ source: "fleet" }));
  }

  // ---- registry ----

  async register(input: { url: string; token: string; name?: string; pool?: string }): Promise<{ ok: true; node: NodeView } | { ok: false; error: string }> {
    let info: NodeInfoResponse;
    try {
      info = await unary({ url: input.url, token: input.token }, fleetMethods.nodeInfo, {}, 5_000);
    } catch (e) {
      return { ok: false, error: `cannot reach the node's gRPC-Web endpoint: ${message(e)}` };
    }
    const id = upsertNode(this.ctx.storage.sql, { url: input.url, token: input.token, name: input.name || info.nodeId, pool: input.pool, info, kind: "registered", hbHash: null });
    admit(this.ctx.storage.sql, id, { tokenId: null, maxSlots: 0, pending: false });
    await this.#changed(id);
    return { ok: true, node: (await this.#views([this.#row(id)!]))[0]! };
  }

  async list(): Promise<NodeView[]> {
    await this.#health.stale(this.#rows(), this.#cfg.healthTtlMs);
    return this.#views(this.#rows());
  }

  async remove(id: string): Promise<boolean> {
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ? OR name = ?", id, id)[0];
    if (!row) return false;
    this.ctx.storage.sql.exec("DELETE FROM nodes WHERE id = ?", row.id);
    await scheduler(this.env, row.pool).removeNode(row.id).catch((e: unknown) => console.warn("scheduler removeNode failed", row.id, message(e)));
    await this.#publishPools();
    this.#reporter.changed();
    return true;
  }

  /** A revoked node has no target: a run on it is lost, and goes elsewhere (submission/watchdog.ts). */
  target(nodeId: string): NodeTarget | null {
    const row = this.#row(nodeId);
    return row && !isRevoked(row) ? { id: row.id, url: row.url, token: row.token } : null;
  }

  async status(): Promise<FleetStatus> {
    return (await this.#summary()).status;
  }

  async overview(): Promise<FleetOverview> {
    const { status, pools, known, loads } = await this.#summary();
    const recent = (await Promise.all(pools.map((p) => scheduler(this.env, p.pool).recent(100).catch(() => [])))).flat().sort((a, b) => a.at - b.at).slice(-100);
    return { status, pools, nodes: known.map((n) => this.#view(n, loads)), recent };
  }

  async drain(id: string): Promise<DrainResult | null> {
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ? OR name = ?", id, id)[0];
    if (!row) return null;
    if (row.drain_state === null) this.ctx.storage.sql.exec("UPDATE nodes SET drain_state = 'draining', drain_at = ? WHERE id = ?", Date.now(), row.id);
    await this.#changed(row.id);
    // A run assigned a moment ago may still have its Execute call on the way to the node, which
    // would refuse it once drained: nothing new is assigned from here on, so give those a second.
    const load = await this.#loads([row.pool]);
    if ((load.get(row.pool)?.just_assigned[row.id] ?? 0) > 0) await new Promise((r) => setTimeout(r, 1_000));
    let inFlight: number | null = null;
    let rpcError: string | null = null;
    try {
      inFlight = (await unary({ url: row.url, token: row.token }, fleetMethods.drain, {}, 5_000)).inFlight;
    } catch (e) {
      rpcError = message(e);
    }
    await this.#health.poll(row).catch(() => {});
    return { node: (await this.#views([this.#row(row.id) ?? row]))[0]!, in_flight_at_drain: inFlight, rpc_error: rpcError };
  }

  /** A pending node (its token requires approval) joins rotation. */
  approve(id: string): Promise<NodeView | null> {
    return this.#operatorAct(id, "approved", "UPDATE nodes SET approval = NULL WHERE id = ?");
  }

  /** Its heartbeats are refused (403), the edge stops calling it, its runs go elsewhere at once; back only with a new token. */
  revoke(id: string): Promise<NodeView | null> {
    return this.#operatorAct(id, "credential revoked", "UPDATE nodes SET revoked_at = CASE revoked_at WHEN 0 THEN ? ELSE revoked_at END WHERE id = ?", Date.now());
  }

  async nodeRefused(nodeId: string, reason: string): Promise<void> {
    const row = this.#row(nodeId);
    const info = row && decodeInfo(row);
    if (!info) return;
    this.ctx.storage.sql.exec("UPDATE nodes SET info = ? WHERE id = ?", encodeInfo({ ...info, ready: false, notReadyReasons: [reason] }), nodeId);
    await this.#changed(nodeId);
  }

  // ---- enrollment and heartbeats ----

  createEnrollmentToken(terms: EnrollmentTokenRequest): Promise<EnrollmentTokenView & { token: string }> {
    return this.#tokens.create(terms);
  }

  listEnrollmentTokens(): EnrollmentTokenView[] {
    return this.#tokens.list();
  }

  revokeEnrollmentToken(id: string): boolean {
    return this.#tokens.revoke(id);
  }

  /** A node joins (registry/enroll-node.ts). */
  async enroll(enrollmentToken: string, body: Uint8Array) {
    const r = await enrollNode(this.ctx.storage.sql, this.#tokens, enrollmentToken, body);
    if (!r.ok) return r;
    await this.#changed(r.id);
    return { ok: true as const, response: { ...r.response, heartbeatIntervalMs: this.#cfg.heartbeatMs } };
  }

  /** A heartbeat: the node is alive, with its current NodeInfo. 404 when the node is unknown (re-enroll). */
  async heartbeat(secret: string, body: Uint8Array) {
    const req = parseHeartbeat(body);
    if (typeof req === "string") return refused(400, req);
    const row = await this.#enrolledNode(req.nodeId, secret, "this node is not enrolled (removed, or the registry was reset): enroll again");
    if (isRefused(row)) return row;
    recordHeartbeat(this.ctx.storage.sql, row, req, heartbeatFresh(row, Date.now(), this.#cfg));
    await this.#changed(row.id);
    const after = this.#row(row.id)!;
    const info = decodeInfo(after);
    const draining = after.drain_state !== null || !!info?.draining;
    const inFlight = draining ? ((await this.#loads([after.pool])).get(after.pool)?.in_flight[after.id] ?? 0) : 0;
    return {
      ok: true as const,
      response: { state: nodeState(after, info, inFlight, Date.now(), this.#cfg), drain: after.drain_state !== null, heartbeatIntervalMs: this.#cfg.heartbeatMs },
    };
  }

  /** The node is going away for good (its service stopped after draining): forget it. */
  async leave(secret: string, body: Uint8Array) {
    const req = parseLeave(body);
    if (typeof req === "string") return refused(400, req);
    const row = await this.#enrolledNode(req.nodeId, secret, "unknown node");
    if (isRefused(row)) return row;
    await this.remove(row.id);
    console.log("fleet node left", row.id, row.name);
    return { ok: true as const, response: { nodeId: row.id } };
  }

  async watch(untilMs: number): Promise<void> {
    this.#reporter.watch(untilMs);
    await Promise.all(poolsOf(this.#known()).map((p) => scheduler(this.env, p).watch(untilMs)));
  }

  /** Health polls of registered nodes, heartbeat deadlines of enrolled ones, retries of failed pushes. */
  override async alarm(): Promise<void> {
    this.#alarmAt = null;
    const now = Date.now();
    for (const r of this.#sql<NodeRow>("SELECT * FROM nodes WHERE kind = 'enrolled' AND lost_at = 0")) {
      if (heartbeatFresh(r, now, this.#cfg)) continue;
      this.ctx.storage.sql.exec("UPDATE nodes SET lost_at = ? WHERE id = ?", now, r.id);
      console.warn("fleet node missed its heartbeats: unhealthy, no new work", r.id, r.name);
    }
    // Overdue heartbeats reach the schedulers first; health polls (up to 2 s each) push their own changes.
    await Promise.all(this.#rows().map((r) => this.#push(r.id)));
    await this.#health.stale(this.#rows(), this.#cfg.healthTtlMs).catch((e: unknown) => console.error("fleet health refresh failed", message(e)));
    await this.#publishPools();
    this.#ensureAlarm();
  }

  // ---- internals ----

  #sql<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T[] {
    return this.ctx.storage.sql.exec<T>(query, ...bindings).toArray();
  }

  async #operatorAct(idOrName: string, what: string, update: string, ...bindings: unknown[]): Promise<NodeView | null> {
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ? OR name = ?", idOrName, idOrName)[0];
    if (!row) return null;
    this.ctx.storage.sql.exec(update, ...bindings, row.id);
    console.warn(`fleet node ${what} by an operator`, row.id, row.name);
    await this.#changed(row.id);
    if (isRevoked(this.#row(row.id)!)) await settleRevoked(this.env, row, this.#tokens);
    return (await this.#views([this.#row(row.id)!]))[0]!;
  }

  #row(id: string): NodeRow | undefined {
    return this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ?", id)[0];
  }

  #rows(): NodeRow[] {
    return this.#sql<NodeRow>("SELECT * FROM nodes ORDER BY registered_at");
  }

  #known(): KnownNode[] {
    return this.#rows().map((row) => ({ row, info: decodeInfo(row) }));
  }

  /** The node the secret belongs to; 404 (`unknown`) when none, 403 when revoked. */
  async #enrolledNode(nodeId: string, secret: string, unknown: string): Promise<NodeRow | Refused> {
    const row = this.#sql<NodeRow>("SELECT * FROM nodes WHERE id = ? AND kind = 'enrolled'", nodeId)[0];
    if (!row?.hb_hash || !constantTimeEqual(row.hb_hash, await sha256Hex(secret))) return refused(404, unknown);
    return isRevoked(row) ? refused(403, REVOKED) : row;
  }

  /** A node row changed: its scheduler learns what matters to it, the alarm keeps watching, the dashboard hears. */
  async #changed(id: string): Promise<void> {
    await this.#push(id);
    await this.#publishPools();
    this.#ensureAlarm();
    this.#reporter.changed();
  }

  /** Every scheduler knows every pool: a pool that cannot take a run names the others. */
  async #publishPools(): Promise<void> {
    const pools = poolsOf(this.#known());
    const json = JSON.stringify(pools);
    if (this.ctx.storage.kv.get<string>("published_pools") === json) return;
    try {
      await Promise.all(pools.map((p) => scheduler(this.env, p).setPools(pools)));
      this.ctx.storage.kv.put("published_pools", json);
    } catch (e) {
      console.warn("pool list push failed; the alarm retries", message(e));
    }
  }

  /** Pushes the node's schedulable state to its pool's scheduler, when it differs from the last push. */
  #push(id: string): Promise<void> {
    const next = this.#pushes.then(async () => {
      const row = this.#row(id);
      if (!row) return;
      const state = schedulable(row, decodeInfo(row), Date.now(), this.#cfg);
      const json = JSON.stringify(state);
      if (row.pushed === json) return;
      const before = row.pushed ? (JSON.parse(row.pushed) as { pool: string }).pool : null;
      await scheduler(this.env, state.pool).putNode(state);
      if (before !== null && before !== state.pool) await scheduler(this.env, before).removeNode(id);
      this.ctx.storage.sql.exec("UPDATE nodes SET pushed = ? WHERE id = ?", json, id);
      this.#reporter.changed();
    }).catch((e: unknown) => console.warn("node state push to its scheduler failed; the alarm retries", id, message(e)));
    this.#pushes = next;
    return next;
  }

  async #loads(pools: string[]): Promise<Map<string, PoolLoad>> {
    const loads = await Promise.all(pools.map((p) => scheduler(this.env, p).load().catch(() => null)));
    return new Map(loads.filter((l): l is PoolLoad => l !== null).map((l) => [l.pool, l]));
  }

  async #summary() {
    await this.#health.stale(this.#rows(), this.#cfg.healthTtlMs);
    const known = this.#known();
    const loads = await this.#loads(poolsOf(known));
    return { ...summarize(known, loads, Date.now(), this.#cfg), known, loads };
  }

  #view(n: KnownNode, loads: ReadonlyMap<string, PoolLoad>): NodeView {
    return nodeView(n.row, n.info, loads.get(n.row.pool)?.in_flight[n.row.id] ?? 0, Date.now(), this.#cfg);
  }

  async #views(rows: NodeRow[]): Promise<NodeView[]> {
    const known = rows.map((row) => ({ row, info: decodeInfo(row) }));
    const loads = await this.#loads([...new Set(rows.map((r) => r.pool))]);
    return known.map((n) => this.#view(n, loads));
  }

  #ensureAlarm(): void {
    const now = Date.now();
    const delay = watchIntervalMs(new Set(this.#sql<{ kind: string }>("SELECT DISTINCT kind FROM nodes").map((r) => r.kind)), this.#cfg);
    if (delay === null) return;
    // Also the moment the next enrolled node's heartbeats are overdue: its scheduler hears at once.
    const want = Math.min(now + delay, nextHeartbeatDeadline(this.#rows(), now, this.#cfg) ?? Infinity);
    if (this.#alarmAt !== null && this.#alarmAt <= want + 50) return;
    this.#alarmAt = want;
    this.ctx.waitUntil(this.ctx.storage.getAlarm().then((at) => {
      if (at === null || at > want) return this.ctx.storage.setAlarm(want);
      this.#alarmAt = at;
      return undefined;
    }));
  }
}
