// SchedulerDO: one per pool. It owns the pool's bounded FIFO queue and its run slots (which
// submission holds a run slot on which node). Run slot accounting is its own (assignments it made),
// not a node's momentary free slots, so two submissions are never promised the same slot. Every decision
// is synchronous, with no await inside, and written to SQLite in the same block; what it reads is
// held in memory beside the tables (this object is their only writer). It never calls back to the
// registry: the registry pushes each node change of the pool here (putNode/removeNode).
import { DurableObject } from "cloudflare:workers";
import type { EnqueueResult, NodeTarget, PollResult, PoolLoad, RecentRun, RunSummary, SchedulableNode, SchedulerRpc } from "../contracts/scheduler.ts";
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { ChangeReporter } from "../lib/change-reporter.ts";
import { capacity, offered, pickNode, takesWork, unsupported, waitingAtNodes } from "../scheduling/pick.ts";
import { WaitingLine, type Waiting } from "../scheduling/waiting-line.ts";
import { RecentRuns } from "../scheduling/recent-runs.ts";
import { PoolNodes } from "../scheduling/pool-nodes.ts";
import { Assignments } from "../scheduling/assignments.ts";
import { dashboard, submissionObject } from "../stubs.ts";

/** How long an Execute call may still be on its way to a node after the run slot was assigned. */
const JUST_ASSIGNED_MS = 2_000;
const SWEEP_MS = 60_000;

export class SchedulerDO extends DurableObject<Env> implements SchedulerRpc {
  #cfg: Config;
  #sweepArmed = false;
  #recent: RecentRuns;
  /** Turned on every assignment: equally free nodes take runs in turn (pickNode). */
  #turn = 0;
  #nodes: PoolNodes;
  #assigned: Assignments;
  /** The queue table mirrored (read once: only this object writes it). */
  #line: WaitingLine;
  /** The stored "pool" and "pools" (only this object writes them). */
  #poolName: string | undefined;
  #pools: string[] | undefined;
  #reporter: ChangeReporter;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
    const sql = ctx.storage.sql;
    this.#nodes = new PoolNodes(sql);
    sql.exec(`CREATE TABLE IF NOT EXISTS queue (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, sub_id TEXT UNIQUE NOT NULL, language TEXT NOT NULL, enqueued_at INTEGER NOT NULL)`);
    this.#assigned = new Assignments(sql);
    this.#recent = new RecentRuns(sql);
    this.#line = WaitingLine.of(sql.exec<Waiting & Record<string, SqlStorageValue>>("SELECT seq, sub_id, language FROM queue").toArray());
    this.#poolName = ctx.storage.kv.get<string>("pool");
    this.#pools = ctx.storage.kv.get<string[]>("pools");
    this.#reporter = new ChangeReporter(250, () => dashboard(env).changed({ source: "pool", pool: this.#pool() }));
  }

  // ---- the submission path ----

  enqueue(subId: string, language: string, offer?: { pool: string; mayDecline: boolean }): EnqueueResult {
    if (offer && this.#poolName === undefined) this.#setPool(offer.pool);
    const mayDecline = !!offer?.mayDecline && this.#others().length + (this.#pool() === DEFAULT_POOL ? 0 : 1) > 0;
    const nodes = this.#nodes.all();
    const available = unsupported(nodes, language);
    if (available) return mayDecline ? this.#decline(available) : { kind: "unsupported", available };
    if (mayDecline && !nodes.some((n) => takesWork(n) && n.languages.includes(language))) return this.#decline(offered(nodes));
    const already = this.#assigned.byRun.get(subId);
    const known = already !== undefined && nodes.find((n) => n.id === already);
    if (known) return { kind: "dispatched", node: target(known), queue_depth: this.#queueDepth() };
    const queued = this.#line.size;
    const inQueue = this.#line.has(subId);
    const inFlight = this.#assigned.inFlight();
    const waiting = waitingAtNodes(nodes, inFlight);
    if (!inQueue && queued === 0) {
      // Fast path (nobody waiting here): straight to a node, one write. A run that would wait in
      // the node's own queue counts against the queue's bound like one waiting here.
      const node = pickNode(nodes, inFlight, language, this.#turn);
      const intoRunSlot = node !== null && (inFlight.get(node.id) ?? 0) < node.run_slots;
      if (node && (intoRunSlot || waiting < this.#cfg.queueCapacity)) {
        this.#assign(subId, node.id);
        return { kind: "dispatched", node: target(node), queue_depth: waiting + (intoRunSlot ? 0 : 1) };
      }
    }
    if (!inQueue) {
      // A free run slot with nobody waiting dispatches even at capacity 0; otherwise the queue bounds.
      const depth = queued + waiting;
      if (depth >= this.#cfg.queueCapacity && !(depth === 0 && pickNode(nodes, inFlight, language, this.#turn))) {
        return mayDecline ? this.#decline(offered(nodes)) : { kind: "queue_full", queue_depth: depth };
      }
      const { seq } = this.ctx.storage.sql.exec<{ seq: number }>(
        "INSERT INTO queue (sub_id, language, enqueued_at) VALUES (?, ?, ?) RETURNING seq", subId, language, Date.now()).one();
      this.#line.append({ seq, sub_id: subId, language });
    }
    return this.#afterQueueing(subId);
  }

  requeue(subId: string, language: string, nodeId: string, reason: string): EnqueueResult {
    this.#assigned.unassign(subId);
    this.#nodes.refused(nodeId, reason);
    if (!this.#line.has(subId)) {
      const seq = (this.#line.headSeq ?? 1) - 1;
      this.ctx.storage.sql.exec("INSERT INTO queue (seq, sub_id, language, enqueued_at) VALUES (?, ?, ?, ?)", seq, subId, language, Date.now());
      this.#line.prepend({ seq, sub_id: subId, language });
    }
    return this.#afterQueueing(subId);
  }

  release(subId: string, summary?: RunSummary): void {
    this.#assigned.unassign(subId);
    this.#dequeue(subId);
    if (summary) this.#recent.record(subId, summary, Date.now());
    this.#pump();
    this.#reporter.changed();
  }

  poll(subId: string): PollResult {
    const a = this.#assigned.byRun.get(subId);
    if (a !== undefined) {
      const node = this.#nodes.all().find((n) => n.id === a);
      return node ? { state: "assigned", node: target(node) } : { state: "unknown" };
    }
    if (this.#line.has(subId)) return { state: "queued", position: this.#position(subId) };
    return { state: "unknown" };
  }

  cancel(subId: string): boolean {
    const removed = this.#dequeue(subId);
    if (removed) this.#reporter.changed();
    return removed;
  }

  // ---- what the registry and the dashboard see ----

  load(): PoolLoad {
    const { inFlight, recent } = this.#assigned.counts(Date.now() - JUST_ASSIGNED_MS);
    return { pool: this.#pool(), queue_depth: this.#queueDepth(), in_flight: inFlight, just_assigned: recent };
  }

  recent(limit: number): RecentRun[] {
    return this.#recent.last(limit);
  }

  putNode(node: SchedulableNode): void {
    this.#setPool(node.pool);
    this.#nodes.put(node);
    this.#pump();
    this.#reporter.changed();
  }

  setPools(pools: string[]): void {
    this.ctx.storage.kv.put("pools", pools);
    this.#pools = pools;
  }

  removeNode(nodeId: string): void {
    this.#nodes.remove(nodeId);
    this.#reporter.changed();
  }

  runsOn(nodeId: string): string[] {
    return [...this.#assigned.byRun].filter(([, node]) => node === nodeId).map(([sub]) => sub);
  }

  watch(untilMs: number): void {
    this.#reporter.watch(untilMs);
  }

  /** Assignments far older than any run can last belong to submissions that already gave up. */
  override async alarm(): Promise<void> {
    this.#sweepArmed = false;
    this.#assigned.sweep(Date.now() - this.#cfg.maxRunMs - this.#cfg.queueTimeoutMs);
    this.#pump();
    if (this.#line.size > 0 || this.#assigned.byRun.size > 0) this.#armSweep();
  }

  // ---- internals ----

  #pool(): string {
    return this.#poolName ?? DEFAULT_POOL;
  }

  #setPool(pool: string): void {
    if (pool === this.#poolName) return;
    this.ctx.storage.kv.put("pool", pool);
    this.#poolName = pool;
  }

  /** Takes a submission off the queue; whether it was there. */
  #dequeue(subId: string): boolean {
    if (!this.#line.remove(subId)) return false;
    this.ctx.storage.sql.exec("DELETE FROM queue WHERE sub_id = ?", subId);
    return true;
  }

  /** Submissions waiting: here, and in the nodes' own queues (dispatched beyond their run slots). */
  #queueDepth(): number {
    return this.#line.size + waitingAtNodes(this.#nodes.all(), this.#assigned.inFlight());
  }

  /** Place in line: those waiting at nodes come first. */
  #position(subId: string): number {
    return this.#line.position(subId) + waitingAtNodes(this.#nodes.all(), this.#assigned.inFlight());
  }

  /** Pools that may take a run this one declines (a pool no node ever joined knows none: the default pool is asked). */
  #others(): string[] {
    const pool = this.#pool();
    return (this.#pools ?? []).filter((p) => p !== pool);
  }

  #decline(available: string[]): EnqueueResult {
    return { kind: "declined", available, others: this.#others() };
  }

  #assign(subId: string, nodeId: string): void {
    this.#turn = (this.#turn + 1) % 1_000_000;
    this.#assigned.assign(subId, nodeId, Date.now());
    this.#armSweep();
    this.#reporter.changed();
  }

  #afterQueueing(subId: string): EnqueueResult {
    const mine = this.#pump(subId);
    this.#armSweep();
    this.#reporter.changed();
    if (mine) return { kind: "dispatched", node: mine, queue_depth: this.#queueDepth() };
    return { kind: "queued", queue_depth: this.#queueDepth(), position: this.#position(subId) };
  }

  /**
   * Assigns queued submissions to free run slots, oldest first per language (a language no ready
   * node offers does not block the others). Others are told by RPC; `own`'s node is returned.
   */
  #pump(own?: string): NodeTarget | null {
    const nodes = this.#nodes.all();
    const inFlight = this.#assigned.inFlight();
    // Walk the line and stop once every run slot is taken: a deep queue costs a release what the
    // free slots cost, not what the queue's length costs (bench:scheduler).
    let free = nodes.filter(takesWork).reduce((sum, n) => sum + Math.max(0, capacity(n) - (inFlight.get(n.id) ?? 0)), 0);
    let mine: NodeTarget | null = null;
    for (const q of this.#line.inOrder()) {
      if (free <= 0) break;
      const node = pickNode(nodes, inFlight, q.language, this.#turn);
      if (!node) continue;
      free--;
      this.#dequeue(q.sub_id);
      this.#assign(q.sub_id, node.id);
      inFlight.set(node.id, (inFlight.get(node.id) ?? 0) + 1);
      if (q.sub_id === own) mine = target(node);
      else {
        // If this RPC is lost, the SubmissionDO's watchdog polls and finds the assignment.
        this.ctx.waitUntil(submissionObject(this.env, q.sub_id).dispatch(q.sub_id, target(node))
          .catch((e: unknown) => console.warn("dispatch notify failed", q.sub_id, String(e))));
      }
    }
    return mine;
  }

  #armSweep(): void {
    if (this.#sweepArmed) return;
    this.#sweepArmed = true;
    this.ctx.waitUntil(this.ctx.storage.getAlarm().then((at) => (at === null ? this.ctx.storage.setAlarm(Date.now() + SWEEP_MS) : undefined)));
  }
}

function target(n: NodeTarget): NodeTarget {
  return { id: n.id, url: n.url, token: n.token };
}
