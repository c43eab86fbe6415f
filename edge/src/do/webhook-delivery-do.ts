// WebhookDeliveryDO: one per submission that has webhook targets (named by the submission id).
// It owns the attempt schedule for every endpoint of the submission's project and the delivery log.
// The schedule (targets table) and the body are persisted before any attempt, and the object's alarm
// always points at the next thing to do, so an edge restart or an eviction loses no attempt: an
// attempt interrupted mid-flight is logged as such and retried like a network error.
//
// Attempts of an endpoint: immediately, then 1 s after the first failed, then 5 s after the second
// (docs/api.md: attempts at 0 s, 1 s and 5 s from the first, never before the previous one ended).
// Before each attempt the endpoint is re-read from KV (removed, deactivated, rotated secrets) and
// its URL re-validated against the SSRF rules and the edge's configuration.
import { DurableObject } from "cloudflare:workers";
import { config } from "../env.ts";
import type { Env } from "../env.ts";
import { checkWebhookUrl, webhookPolicy } from "../webhooks/endpoint-url.ts";
import { DEFAULT_ATTEMPT_TIMEOUT_MS, MAX_ATTEMPTS, classify, nextAttemptAt } from "../webhooks/attempt-policy.ts";
import type { AttemptOutcome } from "../contracts/webhook-delivery.ts";
import { sendOnce } from "../webhooks/send-attempt.ts";
import type { AttemptResult } from "../webhooks/send-attempt.ts";
import { activeSecrets, getEndpoint } from "../webhooks/endpoints.ts";
import { chunkText } from "../lib/chunks.ts";
import type { AttemptLog, DeliveryLog, EnqueueInput, WebhookDeliveryRpc } from "../contracts/webhook-delivery.ts";

interface Meta {
  submission_id: string;
  project_id: string;
  created_ms: number;
}

interface TargetRow {
  endpoint_id: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  first_at: number | null;
  next_at: number;
  inflight_since: number | null;
  [k: string]: SqlStorageValue;
}

/** Slack past the per-attempt timeout before an unfinished attempt is presumed lost. */
const INFLIGHT_GRACE_MS = 5_000;

export class WebhookDeliveryDO extends DurableObject<Env> implements WebhookDeliveryRpc {
  #inflight = new Map<string, Promise<void>>();
  #pumping: Promise<void> | null = null;
  #timeoutMs: number;
  #hasSchema = false;
  #retentionMs: number;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const t = Number(env.WEBHOOK_TIMEOUT_MS);
    this.#timeoutMs = Number.isFinite(t) && t >= 100 ? t : DEFAULT_ATTEMPT_TIMEOUT_MS;
    this.#retentionMs = config(env).retentionMs;
  }

  /** Tables are made on first use by a real delivery: a log lookup of an unknown id builds nothing. */
  #schema(): void {
    if (this.#hasSchema) return;
    this.ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS targets (endpoint_id TEXT PRIMARY KEY, state TEXT NOT NULL, attempts INTEGER NOT NULL,
        first_at INTEGER, next_at INTEGER NOT NULL, inflight_since INTEGER);
      CREATE TABLE IF NOT EXISTS attempts (endpoint_id TEXT NOT NULL, attempt INTEGER NOT NULL, started_at INTEGER NOT NULL,
        status INTEGER, latency_ms INTEGER NOT NULL, outcome TEXT NOT NULL, error TEXT);
      CREATE TABLE IF NOT EXISTS body (idx INTEGER PRIMARY KEY, data TEXT NOT NULL);`);
    this.#hasSchema = true;
  }

  // ---- RPC ----

  /** Idempotent: the first call for a submission fixes its targets and body. */
  async enqueue(input: EnqueueInput): Promise<{ targets: number }> {
    const kv = this.ctx.storage.kv;
    const existing = kv.get<Meta>("meta");
    if (existing) return { targets: this.#targets().length };
    const now = Date.now();
    this.#schema();
    this.ctx.storage.transactionSync(() => {
      kv.put("meta", { submission_id: input.submission_id, project_id: input.project_id, created_ms: now } satisfies Meta);
      chunkText(input.body).forEach((chunk, idx) => this.ctx.storage.sql.exec("INSERT INTO body (idx, data) VALUES (?, ?)", idx, chunk));
      for (const id of new Set(input.endpoint_ids)) {
        this.ctx.storage.sql.exec(
          "INSERT INTO targets (endpoint_id, state, attempts, first_at, next_at, inflight_since) VALUES (?, 'pending', 0, NULL, ?, NULL)", id, now);
      }
    });
    // The first attempts leave from this call, in this event; the alarm the pump sets is the safety net.
    this.ctx.waitUntil(this.#kick(now));
    return { targets: input.endpoint_ids.length };
  }

  /** The delivery log, or null when unknown or belonging to another project. */
  log(projectId: string, endpointId?: string): DeliveryLog | null {
    const meta = this.ctx.storage.kv.get<Meta>("meta");
    if (!meta || meta.project_id !== projectId) return null;
    this.#schema();
    const rows = this.ctx.storage.sql
      .exec<{ endpoint_id: string; attempt: number; started_at: number; status: number | null; latency_ms: number; outcome: string; error: string | null }>(
        "SELECT * FROM attempts ORDER BY started_at, attempt",
      )
      .toArray();
    const endpoints = this.#targets()
      .filter((t) => endpointId === undefined || t.endpoint_id === endpointId)
      .map((t) => ({
        endpoint_id: t.endpoint_id,
        state: t.state,
        attempts: t.attempts,
        next_attempt_at: t.state === "pending" ? new Date(t.next_at).toISOString() : null,
        log: rows
          .filter((r) => r.endpoint_id === t.endpoint_id)
          .map((r) => ({
            endpoint_id: r.endpoint_id, attempt: r.attempt, started_at: new Date(r.started_at).toISOString(), status: r.status,
            latency_ms: r.latency_ms, outcome: r.outcome as AttemptLog["outcome"], error: r.error,
          })),
      }));
    return { submission_id: meta.submission_id, project_id: meta.project_id, created_at: new Date(meta.created_ms).toISOString(), endpoints };
  }

  // ---- schedule ----

  override async alarm(): Promise<void> {
    await this.#kick();
  }

  /** Runs the schedule (one pump at a time, its first round at `at`); a failure brings the alarm back in a second. */
  async #kick(at = Date.now()): Promise<void> {
    try {
      this.#pumping ??= this.#pump(at).finally(() => (this.#pumping = null));
      await this.#pumping;
    } catch (e) {
      console.error("webhook delivery alarm failed", e instanceof Error ? e.message : String(e));
      await this.ctx.storage.setAlarm(Date.now() + 1_000);
    }
  }

  async #pump(firstAt: number): Promise<void> {
    const meta = this.ctx.storage.kv.get<Meta>("meta");
    if (!meta) {
      await this.ctx.storage.deleteAll();
      return;
    }
    this.#schema();
    for (let round = 0; ; round++) {
      const now = round === 0 ? firstAt : Date.now();
      const targets = this.#targets();
      for (const t of targets) {
        if (t.state !== "pending") continue;
        if (t.inflight_since !== null && !this.#inflight.has(t.endpoint_id)) {
          // Started by an earlier incarnation of this object that did not live to record it.
          const interrupted = { status: null, latency_ms: now - t.inflight_since, error: "interrupted: the edge restarted during the attempt" };
          this.#record(meta, t, t.inflight_since, interrupted, true);
        }
      }
      for (const t of this.#targets()) {
        if (t.state === "pending" && t.inflight_since === null && t.next_at <= now) this.#start(meta, t, now);
      }
      const pending = this.#targets().filter((t) => t.state === "pending");
      if (pending.length === 0) {
        // Everything settled: the body (the record's JSON: up to 6 bytes a byte of output) is not
        // needed again; keep the log as long as the record, then delete it all.
        this.ctx.storage.sql.exec("DELETE FROM body");
        const expire = meta.created_ms + this.#retentionMs;
        if (now >= expire) {
          await this.ctx.storage.deleteAlarm();
          await this.ctx.storage.deleteAll();
        } else {
          await this.ctx.storage.setAlarm(expire);
        }
        return;
      }
      const waiting = pending.filter((t) => t.inflight_since === null).map((t) => t.next_at);
      const nextDue = waiting.length > 0 ? Math.min(...waiting) : null;
      // The safety net: if this object dies now, the alarm brings it back to the next due attempt,
      // or to the point where an in-flight attempt must have finished.
      await this.ctx.storage.setAlarm(nextDue ?? now + this.#timeoutMs + INFLIGHT_GRACE_MS);
      if (this.#inflight.size === 0) return;
      const waits: Promise<unknown>[] = [...this.#inflight.values()];
      if (nextDue !== null) waits.push(new Promise((r) => setTimeout(r, Math.max(0, nextDue - Date.now()))));
      await Promise.race(waits);
    }
  }

  #start(meta: Meta, t: TargetRow, started: number): void {
    const attempt = t.attempts + 1;
    const first = t.first_at ?? started;
    this.ctx.storage.sql.exec("UPDATE targets SET attempts = ?, first_at = ?, inflight_since = ? WHERE endpoint_id = ?",
      attempt, first, started, t.endpoint_id);
    const p = this.#attempt(meta, t.endpoint_id)
      .catch((e): AttemptResult => ({ status: null, latency_ms: Date.now() - started, error: `internal error: ${e instanceof Error ? e.message : String(e)}` }))
      .then((res) => {
        const row = this.#targets().find((x) => x.endpoint_id === t.endpoint_id);
        if (row) this.#record(meta, row, started, res, false);
      })
      .finally(() => this.#inflight.delete(t.endpoint_id));
    this.#inflight.set(t.endpoint_id, p);
  }

  /** One attempt against the endpoint as it is now. `final` results (config, removed endpoint) are marked by status -1. */
  async #attempt(meta: Meta, endpointId: string): Promise<AttemptResult & { final?: boolean }> {
    const policy = webhookPolicy(this.env);
    if (policy.configError) return { status: null, latency_ms: 0, error: policy.configError, final: true };
    const ep = await getEndpoint(this.env.KEYS, meta.project_id, endpointId);
    if (!ep || !ep.active) return { status: null, latency_ms: 0, error: ep ? "endpoint deactivated" : "endpoint removed", final: true };
    const check = checkWebhookUrl(ep.url, policy);
    if (!check.ok) return { status: null, latency_ms: 0, error: `url refused: ${check.reason}`, final: true };
    const secrets = activeSecrets(ep);
    if (secrets.length === 0) return { status: null, latency_ms: 0, error: "endpoint has no active signing secret", final: true };
    return sendOnce(check.url, secrets, meta.submission_id, this.#body(), this.#timeoutMs);
  }

  #record(meta: Meta, t: TargetRow, startedMs: number, res: AttemptResult & { final?: boolean }, interrupted: boolean): void {
    const attempt = t.attempts;
    let outcome: AttemptOutcome = res.final ? "failed" : classify(res.status, attempt);
    if (interrupted && attempt < MAX_ATTEMPTS) outcome = "retry";
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec(
        "INSERT INTO attempts (endpoint_id, attempt, started_at, status, latency_ms, outcome, error) VALUES (?, ?, ?, ?, ?, ?, ?)",
        t.endpoint_id, attempt, startedMs, res.status, res.latency_ms, interrupted ? "interrupted" : outcome, res.error,
      );
      if (outcome === "retry") {
        const first = this.ctx.storage.sql
          .exec<{ first: number | null }>("SELECT MIN(started_at) AS first FROM attempts WHERE endpoint_id = ?", t.endpoint_id)
          .one().first ?? startedMs;
        const next = nextAttemptAt(first, now, attempt + 1);
        this.ctx.storage.sql.exec("UPDATE targets SET next_at = ?, inflight_since = NULL WHERE endpoint_id = ?", next, t.endpoint_id);
      } else {
        this.ctx.storage.sql.exec("UPDATE targets SET state = ?, inflight_since = NULL WHERE endpoint_id = ?", outcome, t.endpoint_id);
      }
    });
    // Operator-visible log line: ids, status and timing only (never secrets, signatures or the body).
    const error = res.error ? ` error="${res.error}"` : "";
    console.log(`webhook attempt submission=${meta.submission_id} endpoint=${t.endpoint_id} attempt=${attempt} status=${res.status ?? "-"} ` +
      `latency_ms=${res.latency_ms} outcome=${interrupted ? "interrupted" : outcome}${error}`);
  }

  #targets(): TargetRow[] {
    return this.ctx.storage.sql.exec<TargetRow>("SELECT * FROM targets ORDER BY endpoint_id").toArray();
  }

  #body(): string {
    return this.ctx.storage.sql.exec<{ data: string }>("SELECT data FROM body ORDER BY idx").toArray().map((r) => r.data).join("");
  }
}
