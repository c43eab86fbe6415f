// SubmissionDO: one per submission. It owns the record and its transitions, holds synchronous
// waiters, makes the Execute call to the fleet node over gRPC-Web, persists every streamed event
// before acting on it, and keeps a watchdog alarm while the run is in flight so that a dead node,
// a dropped stream, an evicted object or an edge restart still ends in `completed` or `error`.
// It never re-sends Execute for a run that may have started: recovery is GetResult only, so a
// program is never run twice.
import { DurableObject } from "cloudflare:workers";
import { RunState } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { DeepPartial, ExecuteRequest, ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { GrpcError, fleetMethods, serverStream, unary } from "../../../proto/grpc-web/client.ts";
import { isTerminal } from "../../../proto/record.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import { DEFAULT_POOL, type NodeTarget } from "../contracts/scheduler.ts";
import type { CreateInput, CreateResult, HopTimes, SubmissionRpc } from "../contracts/submission.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { completedRecord, errorRecord, isoMs, newRecord } from "../lib/record.ts";
import { asGrpcError, runErrorKind } from "../lib/run-errors.ts";
import { Waiters } from "../lib/waiters.ts";
import { fleetRegistry, scheduler } from "../stubs.ts";
import { runKey } from "../scheduling/run-key.ts";
import { enqueueInPools } from "../submission/pools.ts";
import { runRequestFields } from "../submission/run-request.ts";
import { SubmissionStore, type Meta, type Run } from "../submission/store.ts";
import { afterTerminal, type TerminalWork } from "../submission/after-terminal.ts";
import { requeueRun } from "../submission/requeue.ts";
import { SubmissionEvents, heartbeatMs, streamFormat } from "../submission/events.ts";

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** Dispatches of one submission at most: a node lost mid-run is replaced once. */
const MAX_ATTEMPTS = 2;

export class SubmissionDO extends DurableObject<Env> implements SubmissionRpc {
  #cfg: Config;
  #store: SubmissionStore;
  #waiters = new Waiters<ResultRecord | null>();
  #events: SubmissionEvents;
  #stream: AbortController | null = null;
  /** Where this instance's submission spent its time (answered with a synchronous submit). */
  #hops: HopTimes = {};

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
    this.#store = new SubmissionStore(ctx.storage);
    this.#events = new SubmissionEvents(ctx.storage.kv, heartbeatMs(env));
  }

  // ---- RPC ----

  async create(input: CreateInput): Promise<CreateResult> {
    const store = this.#store;
    if (store.bareRecord()) return { kind: "created", queue_depth: 0 };
    const now = Date.now();
    this.#hops = {};
    const meta: Meta = {
      id: input.id, account_id: input.account_id, project_id: input.project_id, key_hash: input.key_hash,
      language: input.language, created_ms: now, pool: input.pool, ...(input.format ? { format: input.format } : {}),
    };
    // The enqueue call goes out before the writes so that it is not held by the output gate; the
    // writes still happen before any other event can run here (same synchronous block), so a
    // dispatch() racing with this call finds the record. Our reply waits for them to be durable.
    const enqueue = (pool: string, mayDecline: boolean) => scheduler(this.env, pool).enqueue(input.id, runKey(input.language, input.format), { pool, mayDecline });
    const first = enqueue(input.pool, true);
    store.kv.put("meta", meta);
    store.kv.put("record", newRecord(input.id, input.language, now, input.format));
    store.putBlob("code", input.code);
    store.putBlob("stdin", input.stdin);
    if (input.options) store.putBlob("options", JSON.stringify(input.options));
    let r;
    try {
      const placed = await enqueueInPools(input.pool, first, enqueue);
      this.#hops.enqueue = Date.now() - now;
      r = placed.result;
      if (placed.pool !== meta.pool) store.kv.put("meta", { ...meta, pool: placed.pool });
    } catch (e) {
      await this.#wipe();
      throw e;
    }
    if (r.kind === "queue_full" || r.kind === "unsupported") {
      await this.#wipe();
      return r;
    }
    // A dispatch racing with this call may have started the run (and said so) already.
    if (this.#events.last === 0) this.#events.queued(r.kind === "queued" ? r.position : 0);
    // Watchdog: startRun arms it for a dispatched run; a queued one is armed here.
    if (r.kind === "dispatched") this.#startRun(r.node);
    else this.ctx.waitUntil(this.ctx.storage.setAlarm(Date.now() + this.#cfg.watchdogMs));
    if (input.wait_ms <= 0) return { kind: "created", queue_depth: r.queue_depth };
    // Synchronous submit: held here until terminal, so the key's object makes one call in all.
    const record = await this.#wait(input.wait_ms);
    return { kind: "created", queue_depth: r.queue_depth, record, hops: { ...this.#hops, in_submission: Date.now() - now } };
  }

  prewarm(): boolean {
    // One write makes the object's database now, off the submission's path.
    this.#store.kv.put("warm", true);
    return true;
  }

  get(accountId: string | null): ResultRecord | null {
    const meta = this.#store.meta();
    if (!meta || (accountId !== null && meta.account_id !== accountId)) return null;
    return this.#store.record();
  }

  /** The event stream after event `after` (Last-Event-ID), or null when unknown or another account's. */
  events(accountId: string, after: number): ReadableStream<Uint8Array> | null | "busy" {
    const meta = this.#store.meta();
    if (!meta || meta.account_id !== accountId) return null;
    return this.#events.stream(after, () => this.#store.record());
  }

  /** Resolves with the record once terminal, or with the current record after `ms`. */
  async #wait(ms: number): Promise<ResultRecord | null> {
    const rec = this.#store.record();
    if (!rec || isTerminal(rec.job_status)) return rec;
    return this.#waiters.wait(ms, () => this.#store.record());
  }

  /** Idempotent: a second dispatch of a run already started is ignored. */
  async dispatch(subId: string, node: NodeTarget): Promise<void> {
    const rec = this.#store.bareRecord();
    if (!rec || isTerminal(rec.job_status)) {
      // Nobody will run it (creation rolled back, or already ended): hand the run slot back.
      await this.#scheduler().release(subId).catch(() => {});
      return;
    }
    if (this.#store.run()) return;
    this.#startRun(node);
  }

  // ---- watchdog ----

  override async alarm(): Promise<void> {
    try {
      await this.#watchdog();
    } catch (e) {
      // The runtime gives up on an alarm after a few failed retries; never let that strand a
      // submission: log and re-arm ourselves.
      console.error("submission watchdog failed", String(e));
      await this.ctx.storage.setAlarm(Date.now() + this.#cfg.watchdogMs);
    }
  }

  async #watchdog(): Promise<void> {
    const rec = this.#store.bareRecord();
    const meta = this.#store.meta();
    if (!rec || !meta) return this.#wipe();
    if (isTerminal(rec.job_status)) return afterTerminal(this.#terminalWork(), meta);
    const now = Date.now();
    const run = this.#store.run();
    if (!run) await this.#checkQueued(meta, now);
    else if (now - run.dispatched_ms > this.#cfg.maxRunMs) {
      await this.#fail(`no result from fleet node ${run.node_id} within ${Math.round(this.#cfg.maxRunMs / 1000)} s; the run was abandoned`);
    } else await this.#checkRun(meta, run);
    const after = this.#store.bareRecord();
    if (after && !isTerminal(after.job_status)) {
      // Without a live stream we learn the outcome only by polling, so poll faster.
      const interval = this.#stream ? this.#cfg.watchdogMs : Math.min(this.#cfg.watchdogMs, 1_000);
      await this.ctx.storage.setAlarm(Date.now() + interval);
    }
  }

  async #checkQueued(meta: Meta, now: number): Promise<void> {
    const p = await this.#scheduler().poll(meta.id);
    if (p.state === "assigned") this.#startRun(p.node);
    else if (p.state === "queued") {
      if (now - meta.created_ms > this.#cfg.queueTimeoutMs && (await this.#scheduler().cancel(meta.id))) {
        await this.#fail(`no fleet node became available within ${Math.round(this.#cfg.queueTimeoutMs / 1000)} s`);
      }
    } else if (!this.#store.run()) await this.#fail("the submission was lost from the fleet queue");
  }

  async #checkRun(meta: Meta, run: Run): Promise<void> {
    const target = await fleetRegistry(this.env).target(run.node_id);
    if (!target) return this.#lost(run, `fleet node ${run.node_id} was removed from the registry during the run`);
    try {
      const res = await unary(target, fleetMethods.getResult, { submissionId: meta.id }, Math.min(this.#cfg.watchdogMs, 5_000));
      this.#store.updateRun({ failures: 0, last_error: null });
      if (res.state === RunState.RUN_STATE_COMPLETED && res.result) await this.#complete(res.result);
      else if (res.state === RunState.RUN_STATE_RUNNING) this.#markRunning(res.startedAt);
      else if (res.state !== RunState.RUN_STATE_QUEUED && (!this.#stream || Date.now() - run.dispatched_ms > 2 * this.#cfg.watchdogMs)) {
        // UNKNOWN: the node never got the call or forgot it (restart): its run is gone with it.
        await this.#lost(run, `fleet node ${run.node_id} has no record of the submission (it restarted or lost it)`);
      }
    } catch (e) {
      const failures = run.failures + 1;
      this.#store.updateRun({ failures, last_error: message(e) });
      if (failures >= this.#cfg.watchdogFailures) await this.#lost(run, `lost contact with fleet node ${run.node_id} during the run (${message(e)})`);
    }
  }

  // ---- the run ----

  #startRun(node: NodeTarget): void {
    const kv = this.#store.kv;
    if (this.#store.run()) return;
    kv.put("run", { node_id: node.id, node_url: node.url, dispatched_ms: Date.now(), failures: 0, last_error: null } satisfies Run);
    this.ctx.waitUntil(this.ctx.storage.setAlarm(Date.now() + this.#cfg.watchdogMs));
    this.ctx.waitUntil(this.#runStream(node));
  }

  async #runStream(node: NodeTarget): Promise<void> {
    const meta = this.#store.meta();
    if (!meta) return;
    const abort = new AbortController();
    this.#stream = abort;
    // detach_on_disconnect: a severed stream (evicted object) must not kill the run, because the
    // watchdog recovers its outcome with GetResult.
    const req: DeepPartial<ExecuteRequest> = {
      submissionId: meta.id, language: meta.language, code: this.#store.blob("code"), stdin: this.#store.blob("stdin"),
      detachOnDisconnect: true, tenantId: meta.project_id, ...runRequestFields(this.#store.runOptions()),
    };
    const format = streamFormat(meta.format);
    const sentAt = Date.now();
    let firstAt = 0;
    try {
      for await (const ev of serverStream(node, fleetMethods.execute, req, abort.signal)) {
        if (!firstAt) this.#hops.node_first_event = (firstAt = Date.now()) - sentAt;
        if (ev.completed) this.#hops.node_run = Date.now() - firstAt;
        this.#events.fromNode(ev, format);
        if (ev.started) this.#markRunning(ev.started.startedAt);
        if (ev.completed?.result) {
          await this.#complete(ev.completed.result);
          break;
        }
      }
      if (!this.#isDone()) throw new GrpcError(-1, "stream ended without a result");
    } catch (e) {
      if (this.#isDone() || abort.signal.aborted) return;
      const err = asGrpcError(e);
      const kind = runErrorKind(err, this.#store.bareRecord()?.job_status === "pending");
      if (kind === "elsewhere") {
        console.warn("run refused before it started; requeued", meta.id, node.id, err.statusName, err.message);
        return this.#requeue(node.id, `${err.statusName}: ${err.message}`);
      }
      if (kind === "refused") return this.#fail(`fleet node ${node.id} refused the run (${err.statusName}): ${err.message}`);
      // Broken stream: the watchdog asks the node (GetResult) right away.
      console.warn("execute stream broke", meta.id, err.statusName, err.message);
      this.#store.updateRun({ last_error: err.message });
      await this.ctx.storage.setAlarm(Date.now() + 50);
    } finally {
      if (this.#stream === abort) this.#stream = null;
    }
  }

  /**
   * The node running this submission is gone (dead, cut off, restarted): its outcome will never
   * reach us, so the run goes to another node, at most MAX_ATTEMPTS dispatches in all. Whatever
   * the first node may still answer is never read again (the stream is aborted; the watchdog asks
   * only the current run's node). A result the node did deliver, even IE, always stands.
   */
  async #lost(run: Run, why: string): Promise<void> {
    const attempts = this.#store.kv.get<number>("attempts") ?? 1;
    if (attempts >= MAX_ATTEMPTS) return this.#fail(`${why}; the run was dispatched ${attempts} times and its outcome is unknown`);
    console.warn("fleet node lost mid-run; dispatching again", this.#store.meta()?.id, run.node_id, why);
    this.#store.kv.put("attempts", attempts + 1);
    this.#stream?.abort();
    await this.#requeue(run.node_id, why);
  }

  /** A node refused before the program started, or was lost: back to the queue (requeue.ts). */
  #requeue(nodeId: string, reason: string): Promise<void> {
    const work = { env: this.env, cfg: this.#cfg, store: this.#store, storage: this.ctx.storage, startRun: (n: NodeTarget) => this.#startRun(n), fail: (why: string) => this.#fail(why) };
    return requeueRun(work, nodeId, reason);
  }

  #markRunning(startedAt: Date | undefined): void {
    const rec = this.#store.bareRecord();
    if (!rec || rec.job_status !== "pending") return;
    const started_at = startedAt ? startedAt.toISOString() : isoMs(Date.now());
    this.#store.kv.put("record", { ...rec, job_status: "running", started_at });
    this.#events.started(started_at);
  }

  async #complete(result: ExecutionResult): Promise<void> {
    const rec = this.#store.bareRecord();
    const attempts = this.#store.kv.get<number>("attempts");
    const retried = attempts ? { attempts, schema_version: "1.1" } : {};
    if (rec && !isTerminal(rec.job_status)) await this.#commit({ ...completedRecord(rec, result, Date.now(), this.#store.meta()?.format), ...retried });
  }

  async #fail(why: string): Promise<void> {
    const rec = this.#store.bareRecord();
    if (rec && !isTerminal(rec.job_status)) await this.#commit(errorRecord(rec, why, Date.now()));
  }

  /** The one place a record becomes terminal: persist, wake waiters, then release run slot and concurrency unit. */
  async #commit(rec: ResultRecord): Promise<void> {
    const meta = this.#store.meta();
    if (!meta) return;
    this.#store.commitTerminal(rec, Date.now() + this.#cfg.retentionMs);
    this.#events.completed(rec);
    this.#waiters.wake(rec);
    this.#stream?.abort();
    await afterTerminal(this.#terminalWork(), meta);
  }

  // ---- helpers ----

  #terminalWork(): TerminalWork {
    return { env: this.env, store: this.#store, storage: this.ctx.storage, watchdogMs: this.#cfg.watchdogMs, wipe: () => this.#wipe() };
  }

  #scheduler() {
    return scheduler(this.env, this.#store.meta()?.pool ?? DEFAULT_POOL);
  }

  #isDone(): boolean {
    const rec = this.#store.bareRecord();
    return !rec || isTerminal(rec.job_status);
  }

  async #wipe(): Promise<void> {
    this.#stream?.abort();
    await this.#store.wipe();
  }
}
