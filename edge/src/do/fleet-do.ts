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
import type {
  DrainResult, EnrollmentTokenRequest, EnrollmentTokenView, FleetOverview, FleetRegistryRpc, FleetStatus, NodeView, Refused,
} from "../contracts/fleet.ts";
import type { NodeTarget, PoolLoad } from "../contracts/scheduler.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { EnrollmentTokens, createTokenTable } from "../registry/enrollment-tokens.ts";
import { REVOKED, isRevoked } from "../registry/node-admission.ts";
import { enrollNode, recordHeartbeat, settleRevoked } from "../registry/enroll-node.ts";
import { HealthPoll } from "../registry/health-poll.ts";
import { parseHeartbeat, parseLeave } from "../registry/enroll-messages.ts";
import { poolsOf, summarize } from "../registry/fleet-status.ts";
import type { KnownNode } from "../registry/fleet-status.ts";
import { heartbeatFresh, nextHeartbeatDeadline, nodeState, nodeView, watchIntervalMs } from "../registry/node-state.ts";
import { NodeStore, decodeInfo } from "../registry/node-store.ts";
import type { NodeRow } from "../registry/node-row.ts";
import { ChangeReporter } from "../lib/change-reporter.ts";
import { SchedulerPushes } from "../registry/scheduler-pushes.ts";
import { constantTimeEqual, sha256Hex } from "../lib/keys.ts";
import { dashboard, scheduler } from "../stubs.ts";

const refused = (status: number, error: string): Refused => ({ ok: false, status, error });
const isRefused = (x: NodeRow | Refused): x is Refused => x.ok === false;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class FleetDO extends DurableObject<Env> implements FleetRegistryRpc {
  #cfg: Config;
  #nodes: NodeStore;
  #tokens: EnrollmentTokens;
  #reporter: ChangeReporter;
  #health: HealthPoll;
  #pushes: SchedulerPushes;
  #alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
    this.#nodes = new NodeStore(ctx.storage.sql);
    createTokenTable(ctx.storage.sql);
    this.#tokens = new EnrollmentTokens(ctx.storage.sql);
    this.#reporter = new ChangeReporter(250, () => dashboard(env).changed({ source: "fleet" }));
    this.#pushes = new SchedulerPushes(env, this.#cfg, this.#nodes, ctx.storage.kv, () => this.#reporter.changed());
    this.#health = new HealthPoll(this.#nodes, (id) => this.#pushes.node(id));
  }

  // ---- registry ----

  async register(input: { url: string; token: string; name?: string; pool?: string }): Promise<{ ok: true; node: NodeView } | { ok: false; error: string }> {
    let info: NodeInfoResponse;
    try {
      info = await unary({ url: input.url, token: input.token }, fleetMethods.nodeInfo, {}, 5_000);
    } catch (e) {
      return { ok: false, error: `cannot reach the node's gRPC-Web endpoint: ${message(e)}` };
    }
    const name = input.name || info.nodeId;
    const id = this.#nodes.upsert({ url: input.url, token: input.token, name, pool: input.pool, info, kind: "registered", hbHash: null });
    this.#nodes.admit(id, { tokenId: null, maxSlots: 0, pending: false });
    await this.#changed(id);
    return { ok: true, node: (await this.#views([this.#nodes.byId(id)!]))[0]! };
  }

  async list(): Promise<NodeView[]> {
    await this.#health.stale(this.#nodes.all(), this.#cfg.healthTtlMs);
    return this.#views(this.#nodes.all());
  }

  async remove(id: string): Promise<boolean> {
    const row = this.#nodes.byIdOrName(id);
    if (!row) return false;
    this.#nodes.remove(row.id);
    await scheduler(this.env, row.pool).removeNode(row.id).catch((e: unknown) => console.warn("scheduler removeNode failed", row.id, message(e)));
    await this.#pushes.pools();
    this.#reporter.changed();
    return true;
  }

  /** A revoked node has no target: a run on it is lost, and goes elsewhere (submission/watchdog.ts). */
  target(nodeId: string): NodeTarget | null {
    const row = this.#nodes.byId(nodeId);
    return row && !isRevoked(row) ? { id: row.id, url: row.url, token: row.token } : null;
  }

  async status(): Promise<FleetStatus> {
    return (await this.#summary()).status;
  }

  async overview(): Promise<FleetOverview> {
    const { status, pools, known, loads } = await this.#summary();
    const perPool = await Promise.all(pools.map((p) => scheduler(this.env, p.pool).recent(100).catch(() => [])));
    const recent = perPool.flat().sort((a, b) => a.at - b.at).slice(-100);
    return { status, pools, nodes: known.map((n) => this.#view(n, loads)), recent };
  }

  async drain(id: string): Promise<DrainResult | null> {
    const row = this.#nodes.byIdOrName(id);
    if (!row) return null;
    if (row.drain_state === null) this.#nodes.startDrain(row.id, Date.now());
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
    return { node: (await this.#views([this.#nodes.byId(row.id) ?? row]))[0]!, in_flight_at_drain: inFlight, rpc_error: rpcError };
  }

  /** A pending node (its token requires approval) joins rotation. */
  approve(id: string): Promise<NodeView | null> {
    return this.#operatorAct(id, "approved", (nodeId) => this.#nodes.approve(nodeId));
  }

  /** Its heartbeats are refused (403), the edge stops calling it, its runs go elsewhere at once; back only with a new token. */
  revoke(id: string): Promise<NodeView | null> {
    return this.#operatorAct(id, "credential revoked", (nodeId) => this.#nodes.revoke(nodeId, Date.now()));
  }

  async nodeRefused(nodeId: string, reason: string): Promise<void> {
    const row = this.#nodes.byId(nodeId);
    const info = row && decodeInfo(row);
    if (!info) return;
    this.#nodes.setInfo(nodeId, { ...info, ready: false, notReadyReasons: [reason] });
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
    const r = await enrollNode(this.#nodes, this.#tokens, enrollmentToken, body);
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
    recordHeartbeat(this.#nodes, row, req, heartbeatFresh(row, Date.now(), this.#cfg));
    await this.#changed(row.id);
    const after = this.#nodes.byId(row.id)!;
    const info = decodeInfo(after);
    const draining = after.drain_state !== null || !!info?.draining;
    const inFlight = draining ? ((await this.#loads([after.pool])).get(after.pool)?.in_flight[after.id] ?? 0) : 0;
    return {
      ok: true as const,
      response: {
        state: nodeState(after, info, inFlight, Date.now(), this.#cfg), drain: after.drain_state !== null, heartbeatIntervalMs: this.#cfg.heartbeatMs,
      },
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
    for (const r of this.#nodes.heartbeating()) {
      if (heartbeatFresh(r, now, this.#cfg)) continue;
      this.#nodes.markLost(r.id, now);
      console.warn("fleet node missed its heartbeats: unhealthy, no new work", r.id, r.name);
    }
    // Overdue heartbeats reach the schedulers first; health polls (up to 2 s each) push their own changes.
    await Promise.all(this.#nodes.all().map((r) => this.#pushes.node(r.id)));
    await this.#health.stale(this.#nodes.all(), this.#cfg.healthTtlMs).catch((e: unknown) => console.error("fleet health refresh failed", message(e)));
    await this.#pushes.pools();
    this.#ensureAlarm();
  }

  // ---- internals ----

  async #operatorAct(idOrName: string, what: string, act: (nodeId: string) => void): Promise<NodeView | null> {
    const row = this.#nodes.byIdOrName(idOrName);
    if (!row) return null;
    act(row.id);
    console.warn(`fleet node ${what} by an operator`, row.id, row.name);
    await this.#changed(row.id);
    if (isRevoked(this.#nodes.byId(row.id)!)) await settleRevoked(this.env, row, this.#tokens);
    return (await this.#views([this.#nodes.byId(row.id)!]))[0]!;
  }

  #known(): KnownNode[] {
    return this.#nodes.all().map((row) => ({ row, info: decodeInfo(row) }));
  }

  /** The node the secret belongs to; 404 (`unknown`) when none, 403 when revoked. */
  async #enrolledNode(nodeId: string, secret: string, unknown: string): Promise<NodeRow | Refused> {
    const row = this.#nodes.enrolled(nodeId);
    if (!row?.hb_hash || !constantTimeEqual(row.hb_hash, await sha256Hex(secret))) return refused(404, unknown);
    return isRevoked(row) ? refused(403, REVOKED) : row;
  }

  /** A node row changed: its scheduler learns what matters to it, the alarm keeps watching, the dashboard hears. */
  async #changed(id: string): Promise<void> {
    await this.#pushes.node(id);
    await this.#pushes.pools();
    this.#ensureAlarm();
    this.#reporter.changed();
  }

  async #loads(pools: string[]): Promise<Map<string, PoolLoad>> {
    const loads = await Promise.all(pools.map((p) => scheduler(this.env, p).load().catch(() => null)));
    return new Map(loads.filter((l): l is PoolLoad => l !== null).map((l) => [l.pool, l]));
  }

  async #summary() {
    await this.#health.stale(this.#nodes.all(), this.#cfg.healthTtlMs);
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
    const delay = watchIntervalMs(this.#nodes.kinds(), this.#cfg);
    if (delay === null) return;
    // Also the moment the next enrolled node's heartbeats are overdue: its scheduler hears at once.
    const want = Math.min(now + delay, nextHeartbeatDeadline(this.#nodes.all(), now, this.#cfg) ?? Infinity);
    if (this.#alarmAt !== null && this.#alarmAt <= want + 50) return;
    this.#alarmAt = want;
    this.ctx.waitUntil(this.ctx.storage.getAlarm().then((at) => {
      if (at === null || at > want) return this.ctx.storage.setAlarm(want);
      this.#alarmAt = at;
      return undefined;
    }));
  }
}
