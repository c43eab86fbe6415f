// SubmissionDO: one per submission. It owns the record and its transitions, holds synchronous
// waiters, makes the Execute call to the fleet node over gRPC-Web, persists every streamed event
// before acting on it, and keeps a watchdog alarm while the run is in flight so that a dead node,
// a dropped stream, an evicted object or an edge restart still ends in `completed` or `error`.
// It never re-sends Execute for a run that may have started: recovery is GetResult only, so a
// program is never run twice.
import { DurableObject } from "cloudflare:workers";
import { ExecuteResponse, RunState } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecuteRequest, ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { GrpcError, fleetMethods, serverStream, unary } from "../../../proto/grpc-web/client.ts";
import { completedRecord, errorRecord, isoMs, newRecord } from "../lib/record.ts";
import { isTerminal } from "../../../proto/record.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import { projectEndpoints } from "../lib/webhook-store.ts";
import type { NodeTarget } from "./fleet-types.ts";

interface Meta {
  id: string;
  account_id: string;
  project_id: string;
  key_hash: string;
  language: string;
  created_ms: number;
}

interface Run {
  node_id: string;
  node_url: string;
  dispatched_ms: number;
  failures: number;
  last_error: string | null;
}

export interface CreateInput {
  id: string;
  language: string;
  code: string;
  stdin: string;
  account_id: string;
  project_id: string;
  key_hash: string;
}

export type CreateResult =
  | { kind: "created"; queue_depth: number }
  | { kind: "queue_full"; queue_depth: number }
  | { kind: "unsupported"; available: string[] };

/** gRPC statuses by which a node refuses a run outright (the program did not start). */
const REFUSALS = new Set([3, 5, 6, 7, 9, 12, 16]);
/** Refusals that say "not now, not here" (draining, not ready, queue full): another node may run it. */
const TRY_ELSEWHERE = new Set([8, 14]);
/** SQLite-backed DO rows are limited to 2 MB; big strings are stored in chunks below that. */
const CHUNK_CHARS = 256 * 1024;

export class SubmissionDO extends DurableObject<Env> {
  #cfg: Config;
  #waiters = new Set<(r: ResultRecord) => void>();
  #stream: AbortController | null = null;
  #hasSchema = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
  }

  /** Tables are made on first write only: a lookup of an unknown id must not build a database. */
  #schema(): void {
    if (this.#hasSchema) return;
    this.ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, kind TEXT NOT NULL, data BLOB);
      CREATE TABLE IF NOT EXISTS blobs (name TEXT NOT NULL, idx INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (name, idx));`);
    this.#hasSchema = true;
  }

  // ---- RPC ----

  async create(input: CreateInput): Promise<CreateResult> {
    const kv = this.ctx.storage.kv;
    if (kv.get("record")) return { kind: "created", queue_depth: 0 };
    this.#schema();
    const now = Date.now();
    const meta: Meta = {
      id: input.id, account_id: input.account_id, project_id: input.project_id, key_hash: input.key_hash,
      language: input.language, created_ms: now,
    };
    // The enqueue call goes out before the writes so that it is not held by the output gate; the
    // writes still happen before any other event can run here (same synchronous block), so a
    // dispatch() racing with this call finds the record. Our reply waits for them to be durable.
    const enqueue = this.#fleet().enqueue(input.id, input.language);
    kv.put("meta", meta);
    kv.put("record", newRecord(input.id, input.language, now));
    this.#putBlob("code", input.code);
    this.#putBlob("stdin", input.stdin);
    let r;
    try {
      r = await enqueue;
    } catch (e) {
      await this.#wipe();
      throw e;
    }
    if (r.kind === "queue_full" || r.kind === "unsupported") {
      await this.#wipe();
      return r;
    }
    // Watchdog: startRun arms it for a dispatched run; a queued one is armed here.
    if (r.kind === "dispatched") this.#startRun(r.node);
    else this.ctx.waitUntil(this.ctx.storage.setAlarm(Date.now() + this.#cfg.watchdogMs));
    return { kind: "created", queue_depth: r.queue_depth };
  }

  /** Instantiates the object and its storage ahead of use (KeyDO's warm pool). Holds no record. */
  prewarm(): boolean {
    this.#schema();
    return true;
  }

  /** The record, or null when unknown or owned by another account. */
  get(accountId: string | null): ResultRecord | null {
    const meta = this.ctx.storage.kv.get<Meta>("meta");
    if (!meta || (accountId !== null && meta.account_id !== accountId)) return null;
    return this.#record();
  }

  /** Resolves with the record once terminal, or with the current record after `ms`. */
  async wait(ms: number): Promise<ResultRecord | null> {
    const rec = this.#record();
    if (!rec || isTerminal(rec.job_status)) return rec;
    return new Promise<ResultRecord | null>((resolve) => {
      const done = (r: ResultRecord) => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve(r);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(done);
        resolve(this.#record());
      }, ms);
      this.#waiters.add(done);
    });
  }

  /** The FleetDO assigned a slot. Idempotent: a second dispatch of a run already started is ignored. */
  async dispatch(subId: string, node: NodeTarget): Promise<void> {
    const rec = this.#record();
    if (!rec || isTerminal(rec.job_status)) {
      // Nobody will run it (creation rolled back, or already ended): hand the slot back.
      await this.#fleet().release(subId).catch(() => {});
      return;
    }
    if (this.ctx.storage.kv.get<Run>("run")) return;
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
    const rec = this.ctx.storage.kv.get<ResultRecord>("record");
    const meta = this.ctx.storage.kv.get<Meta>("meta");
    if (!rec || !meta) {
      await this.#wipe();
      return;
    }
    const now = Date.now();
    if (isTerminal(rec.job_status)) {
      await this.#afterTerminal(meta);
      return;
    }
    const run = this.ctx.storage.kv.get<Run>("run");
    if (!run) {
      await this.#checkQueued(meta, now);
    } else if (now - run.dispatched_ms > this.#cfg.maxRunMs) {
      await this.#fail(`no result from fleet node ${run.node_id} within ${Math.round(this.#cfg.maxRunMs / 1000)} s; the run was abandoned`);
    } else {
      await this.#checkRun(meta, run);
    }
    const after = this.#record();
    if (after && !isTerminal(after.job_status)) {
      // Without a live stream we learn the outcome only by polling, so poll faster.
      const interval = this.#stream ? this.#cfg.watchdogMs : Math.min(this.#cfg.watchdogMs, 1_000);
      await this.ctx.storage.setAlarm(Date.now() + interval);
    }
  }

  async #checkQueued(meta: Meta, now: number): Promise<void> {
    const fleet = this.#fleet();
    const p = await fleet.poll(meta.id);
    if (p.state === "assigned") {
      this.#startRun(p.node);
    } else if (p.state === "queued") {
      if (now - meta.created_ms > this.#cfg.queueTimeoutMs && (await fleet.cancel(meta.id))) {
        await this.#fail(`no fleet node became available within ${Math.round(this.#cfg.queueTimeoutMs / 1000)} s`);
      }
    } else if (!this.ctx.storage.kv.get<Run>("run")) {
      await this.#fail("the submission was lost from the fleet queue");
    }
  }

  async #checkRun(meta: Meta, run: Run): Promise<void> {
    const target = await this.#fleet().target(run.node_id);
    if (!target) {
      await this.#fail(`fleet node ${run.node_id} was removed from the registry during the run; the outcome is unknown`);
      return;
    }
    try {
      const res = await unary(target, fleetMethods.getResult, { submissionId: meta.id }, Math.min(this.#cfg.watchdogMs, 5_000));
      this.#updateRun({ failures: 0, last_error: null });
      if (res.state === RunState.RUN_STATE_COMPLETED && res.result) {
        await this.#complete(res.result);
      } else if (res.state === RunState.RUN_STATE_RUNNING) {
        this.#markRunning(res.startedAt);
      } else if (res.state === RunState.RUN_STATE_QUEUED) {
        // Waiting in the node's local queue: nothing to do.
      } else if (!this.#stream || Date.now() - run.dispatched_ms > 2 * this.#cfg.watchdogMs) {
        // UNKNOWN: the node never got the call or forgot it (restart). Re-sending could run it twice.
        await this.#fail(`fleet node ${run.node_id} has no record of the submission (it restarted or lost it); the run's outcome is unknown`);
      }
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const failures = run.failures + 1;
      this.#updateRun({ failures, last_error: msg });
      if (failures >= this.#cfg.watchdogFailures) {
        await this.#fail(`lost contact with fleet node ${run.node_id} during the run (${msg}); the run's outcome is unknown`);
      }
    }
  }

  // ---- the run ----

  #startRun(node: NodeTarget): void {
    const kv = this.ctx.storage.kv;
    if (kv.get<Run>("run")) return;
    const run: Run = { node_id: node.id, node_url: node.url, dispatched_ms: Date.now(), failures: 0, last_error: null };
    kv.put("run", run);
    this.ctx.waitUntil(this.ctx.storage.setAlarm(Date.now() + this.#cfg.watchdogMs));
    this.ctx.waitUntil(this.#runStream(node));
  }

  async #runStream(node: NodeTarget): Promise<void> {
    const meta = this.ctx.storage.kv.get<Meta>("meta");
    if (!meta) return;
    const abort = new AbortController();
    this.#stream = abort;
    // detach_on_disconnect: a severed stream (evicted object) must not kill the run, because the
    // watchdog recovers its outcome with GetResult.
    const req: ExecuteRequest = {
      submissionId: meta.id, language: meta.language, code: this.#getBlob("code"), stdin: this.#getBlob("stdin"),
      detachOnDisconnect: true, tenantId: meta.project_id,
    };
    try {
      for await (const ev of serverStream(node, fleetMethods.execute, req, abort.signal)) {
        this.#persistEvent(ev);
        if (ev.started) this.#markRunning(ev.started.startedAt);
        if (ev.completed?.result) {
          await this.#complete(ev.completed.result);
          break;
        }
      }
      if (!this.#isDone()) throw new GrpcError(-1, "stream ended without a result");
    } catch (e) {
      if (this.#isDone() || abort.signal.aborted) return;
      const err = e instanceof GrpcError ? e : new GrpcError(-1, e instanceof Error ? e.message : String(e));
      if (!err.transport && TRY_ELSEWHERE.has(err.code) && this.#record()?.job_status === "pending") {
        await this.#requeue(node, `${err.statusName}: ${err.message}`);
        return;
      }
      if (!err.transport && REFUSALS.has(err.code)) {
        await this.#fail(`fleet node ${node.id} refused the run (${err.statusName}): ${err.message}`);
        return;
      }
      // Broken stream: the watchdog asks the node (GetResult) right away.
      console.warn("execute stream broke", meta.id, err.statusName, err.message);
      this.#updateRun({ last_error: err.message });
      await this.ctx.storage.setAlarm(Date.now() + 50);
    } finally {
      if (this.#stream === abort) this.#stream = null;
    }
  }

  /** A node refused before the program started: back to the queue, within the submission's time budget. */
  async #requeue(node: NodeTarget, reason: string): Promise<void> {
    const kv = this.ctx.storage.kv;
    const meta = kv.get<Meta>("meta");
    if (!meta) return;
    kv.delete("run");
    kv.put("refusals", (kv.get<number>("refusals") ?? 0) + 1);
    if (Date.now() - meta.created_ms > this.#cfg.queueTimeoutMs) {
      await this.#fail(`no fleet node could take the run within ${Math.round(this.#cfg.queueTimeoutMs / 1000)} s; the last one, ${node.id}, refused it (${reason})`);
      return;
    }
    console.warn("run refused before it started; requeued", meta.id, node.id, reason);
    const r = await this.#fleet().requeue(meta.id, meta.language, node.id, reason);
    if (r.kind === "dispatched") this.#startRun(r.node);
    else await this.ctx.storage.setAlarm(Date.now() + Math.min(this.#cfg.watchdogMs, 1_000));
  }

  #persistEvent(ev: ExecuteResponse): void {
    const kind = ev.completed ? "completed" : ev.started ? "started" : ev.queued ? "queued" : "unknown";
    // Stored compact: the completed event's bulk (output) is persisted with the record itself.
    const data = ev.completed ? null : ExecuteResponse.encode(ev).finish();
    this.#schema();
    this.ctx.storage.sql.exec("INSERT INTO events (at, kind, data) VALUES (?, ?, ?)", Date.now(), kind, data);
  }

  #markRunning(startedAt: Date | undefined): void {
    const rec = this.ctx.storage.kv.get<ResultRecord>("record");
    if (!rec || rec.job_status !== "pending") return;
    rec.job_status = "running";
    rec.started_at = startedAt ? startedAt.toISOString() : isoMs(Date.now());
    this.ctx.storage.kv.put("record", rec);
  }

  async #complete(result: ExecutionResult): Promise<void> {
    const rec = this.#record();
    if (!rec || isTerminal(rec.job_status)) return;
    await this.#commit(completedRecord(rec, result, Date.now()));
  }

  async #fail(message: string): Promise<void> {
    const rec = this.#record();
    if (!rec || isTerminal(rec.job_status)) return;
    await this.#commit(errorRecord(rec, message, Date.now()));
  }

  /** The one place a record becomes terminal: persist, wake waiters, then release slot and quota. */
  async #commit(rec: ResultRecord): Promise<void> {
    const kv = this.ctx.storage.kv;
    const meta = kv.get<Meta>("meta");
    if (!meta) return;
    const expire = Date.now() + this.#cfg.retentionMs;
    this.ctx.storage.transactionSync(() => {
      this.#putBlob("stdout", rec.stdout);
      this.#putBlob("stderr", rec.stderr);
      kv.put("record", { ...rec, stdout: null, stderr: null });
      kv.put("expire", expire);
      kv.put("release", { fleet: true, key: true });
      kv.put("hooks_init", true);
      kv.delete("run");
      this.#putBlob("code", null);
      this.#putBlob("stdin", null);
    });
    for (const w of [...this.#waiters]) w(rec);
    this.#stream?.abort();
    await this.#afterTerminal(meta);
  }

  /**
   * Work left once terminal, repeated by the alarm until done: release slot and quota, hand the
   * record to the webhook delivery object, then delete everything at the end of retention.
   */
  async #afterTerminal(meta: Meta): Promise<void> {
    const kv = this.ctx.storage.kv;
    const released = await this.#releaseAll(meta);
    await this.#triggerWebhooks(meta);
    const now = Date.now();
    const expire = kv.get<number>("expire") ?? now;
    const times = [expire];
    if (!released) times.push(now + this.#cfg.watchdogMs);
    if (kv.get("hooks_init")) times.push(now + this.#cfg.watchdogMs);
    const next = Math.min(...times);
    if (next <= now && now >= expire) await this.#wipe();
    else await this.ctx.storage.setAlarm(Math.max(next, now + 10));
  }

  /**
   * Spec §6 trigger: when the project has active endpoints, hand the record (exact bytes) to this
   * submission's WebhookDeliveryDO, which owns attempts, retries and the log. Fire-and-forget for
   * the record: it is already final; a failed hand-off is retried by this object's alarm.
   */
  async #triggerWebhooks(meta: Meta): Promise<void> {
    const kv = this.ctx.storage.kv;
    if (!kv.get("hooks_init")) return;
    try {
      // The endpoints active when the submission ended are the targets.
      const eps = (await projectEndpoints(this.env.KEYS, meta.project_id)).filter((e) => e.active);
      const rec = this.#record();
      if (rec && eps.length > 0) {
        const ns = this.env.WEBHOOK_DELIVERY_DO;
        await ns.get(ns.idFromName(meta.id)).enqueue({
          submission_id: meta.id, project_id: meta.project_id, endpoint_ids: eps.map((e) => e.id), body: JSON.stringify(rec),
        });
      }
      kv.delete("hooks_init");
    } catch (e) {
      console.warn("webhook hand-off failed; retrying", meta.id, e instanceof Error ? e.message : String(e));
    }
  }

  async #releaseAll(meta: Meta): Promise<boolean> {
    const kv = this.ctx.storage.kv;
    const pending = kv.get<{ fleet: boolean; key: boolean }>("release");
    if (!pending) return true;
    const rec = this.#record();
    const [fleet, key] = await Promise.allSettled([
      pending.fleet ? this.#fleet().release(meta.id, rec ? {
        // For the operator dashboard's charts (verdict mix, latency of recent runs).
        job_status: rec.job_status, verdict: rec.verdict ?? null, language: meta.language,
        latency_ms: (rec.completed_at ? Date.parse(rec.completed_at) : Date.now()) - meta.created_ms,
        wall_ms: rec.wall_time_secs === null || rec.wall_time_secs === undefined ? null : rec.wall_time_secs * 1000,
      } : undefined) : Promise.resolve(),
      pending.key ? this.env.KEY_DO.get(this.env.KEY_DO.idFromName(meta.key_hash)).release(meta.id, rec?.job_status ?? "error") : Promise.resolve(),
    ]);
    const left = { fleet: pending.fleet && fleet.status === "rejected", key: pending.key && key.status === "rejected" };
    if (left.fleet || left.key) {
      kv.put("release", left);
      return false;
    }
    kv.delete("release");
    return true;
  }

  // ---- storage helpers ----

  #fleet() {
    return this.env.FLEET_DO.get(this.env.FLEET_DO.idFromName("global"));
  }

  #isDone(): boolean {
    const rec = this.ctx.storage.kv.get<ResultRecord>("record");
    return !rec || isTerminal(rec.job_status);
  }

  #record(): ResultRecord | null {
    const rec = this.ctx.storage.kv.get<ResultRecord>("record");
    if (!rec) return null;
    if (rec.job_status === "completed") return { ...rec, stdout: this.#getBlob("stdout"), stderr: this.#getBlob("stderr") };
    return rec;
  }

  #updateRun(patch: Partial<Run>): void {
    const run = this.ctx.storage.kv.get<Run>("run");
    if (run) this.ctx.storage.kv.put("run", { ...run, ...patch });
  }

  #putBlob(name: string, value: string | null): void {
    this.#schema();
    this.ctx.storage.sql.exec("DELETE FROM blobs WHERE name = ?", name);
    if (value === null) return;
    let i = 0;
    let idx = 0;
    do {
      let end = Math.min(value.length, i + CHUNK_CHARS);
      // Never split a surrogate pair: each chunk must be valid UTF-16 to round-trip through SQLite TEXT.
      const last = value.charCodeAt(end - 1);
      if (end < value.length && last >= 0xd800 && last <= 0xdbff) end--;
      this.ctx.storage.sql.exec("INSERT INTO blobs (name, idx, data) VALUES (?, ?, ?)", name, idx++, value.slice(i, end));
      i = end;
    } while (i < value.length);
  }

  #getBlob(name: string): string {
    this.#schema();
    return this.ctx.storage.sql
      .exec<{ data: string }>("SELECT data FROM blobs WHERE name = ? ORDER BY idx", name)
      .toArray()
      .map((r) => r.data)
      .join("");
  }

  async #wipe(): Promise<void> {
    this.#stream?.abort();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }
}
