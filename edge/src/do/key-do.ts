// KeyDO: one per API key (named by the key's SHA-256). One object per key serialises every decision
// for that key (synchronous SQLite statements, no await between check and write), so concurrent
// requests cannot both pass a check. What it decides with lives in keys/: the rate window, the
// idempotency keys, the concurrency units, the usage counts; live-session sockets in
// lib/socket-leases.ts. This class wires them to its storage, keeps revocation, and reports usage
// to the dashboard while it watches.
import { DurableObject } from "cloudflare:workers";
import type { HitResult, KeyQuota, KeyRpc, KeyUsage, RateInfo, SubmitOutcome, SubmitRequest } from "../contracts/key.ts";
import type { CreateResult } from "../contracts/submission.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { ChangeReporter } from "../lib/change-reporter.ts";
import { newSubmissionId } from "../contracts/submission-id.ts";
import { dashboard, submissionObject } from "../stubs.ts";
import { liveSocket, type SocketLease } from "../lib/socket-leases.ts";
import { ConcurrencyUnits } from "../keys/concurrency.ts";
import { Idempotency } from "../keys/idempotency.ts";
import { RateWindow } from "../keys/rate-window.ts";
import { UsageCounts } from "../keys/usage-counts.ts";

/**
 * How long a count, or a synchronous submit's hit, may stay in memory only: written with the next
 * request's writes, or within this time. A busy key's object then commits once per interval instead
 * of once per submit (a commit is an fsync locally, where every object shares one thread).
 */
const WRITE_LATER_MS = 1_000;

export class KeyDO extends DurableObject<Env> implements KeyRpc {
  #cfg: Config;
  #rate: RateWindow;
  #idempotency: Idempotency<SubmitOutcome>;
  #units: ConcurrencyUnits;
  #usage: UsageCounts;
  #writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Usage changes reported to the dashboard while it watches. */
  #reporter: ChangeReporter;
  /** This object's name, the key's SHA-256, as the dashboard knows it. */
  #keyHash = "";
  /** Revocation is decided here, not only in KV: every API request passes through this object, so a revoked
   * (or rotated-away) key is refused at once, whatever the Worker's cache or KV's propagation delay says. */
  #revoked = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
    const sql = ctx.storage.sql;
    this.#units = new ConcurrencyUnits(sql, this.#cfg.maxRunMs + this.#cfg.queueTimeoutMs);
    this.#rate = new RateWindow(sql, this.#cfg.rateWindowMs, (now) => this.#units.prune(now));
    this.#idempotency = new Idempotency(sql, this.#cfg.retentionMs);
    this.#usage = new UsageCounts(sql);
    this.#revoked = ctx.storage.kv.get<boolean>("revoked") === true;
    this.#reporter = new ChangeReporter(250, () => this.#report());
  }

  async revoke(cancelInFlight = false): Promise<number> {
    this.#revoked = true;
    this.ctx.storage.kv.put("revoked", true);
    if (!cancelInFlight) return 0;
    // A deleted key's submissions end now, and their runs stop at their nodes; each releases its
    // unit back here as it ends (release()).
    const why = "the API key was revoked while the submission was in flight";
    const ended = await Promise.all(this.#units.ids().map((id) => submissionObject(this.env, id).cancel(id, why).catch(() => false)));
    return ended.filter(Boolean).length;
  }

  /** A key imported again after revocation (development's DEV_API_KEY) works again. */
  reinstate(): void {
    this.#revoked = false;
    this.ctx.storage.kv.delete("revoked");
  }

  #revokedRate(quota: KeyQuota | undefined): RateInfo {
    return { limit: quota?.rate_per_minute ?? this.#cfg.rateLimit, remaining: 0, reset_secs: 0 };
  }

  /** Counts one request against the rolling window (every endpoint); `quota`: the key's plan (absent: the config's). */
  hit(quota?: KeyQuota): HitResult {
    if (this.#revoked) {
      return { ok: false, revoked: true, retry_after: 0, reason: "the API key was revoked", rate: this.#revokedRate(quota) };
    }
    const h = this.#rateCheck(Date.now(), quota?.rate_per_minute ?? this.#cfg.rateLimit);
    if (h.ok) this.#recordHit(Date.now());
    return h;
  }

  /** The rate decision, read-only; a refusal is counted here, an accepted hit by #recordHit. */
  #rateCheck(now: number, limit: number): HitResult {
    const d = this.#rate.decide(now, limit);
    const rate: RateInfo = { limit, remaining: d.remaining, reset_secs: d.resetSecs };
    if (!d.allowed) {
      this.#count("rejected_rate_limit");
      return { ok: false, retry_after: d.retryAfterSecs, reason: `rate limit of ${limit} requests per minute exceeded`, rate };
    }
    return { ok: true, rate };
  }

  #recordHit(now: number): void {
    this.#rate.record(now);
    this.#count("requests");
    this.#writeCounts();
  }

  async submit(req: SubmitRequest): Promise<SubmitOutcome> {
    if (this.#revoked) return { kind: "revoked", rate: this.#revokedRate(req.quota) };
    const now = Date.now();
    const h = this.#rateCheck(now, req.quota?.rate_per_minute ?? this.#cfg.rateLimit);
    if (!h.ok) return { kind: "rate_limited", retry_after: h.retry_after, reason: h.reason, rate: h.rate };
    const rate = h.rate;
    const ik = req.idempotency_key;
    if (ik !== null) {
      const creating = this.#idempotency.creating(ik);
      if (creating) {
        this.#recordHit(now);
        const first = await creating;
        return first.kind === "created" || first.kind === "duplicate" ? { kind: "duplicate", id: first.id, rate } : { ...first, rate };
      }
      const earlier = this.#idempotency.find(ik, now);
      if (earlier !== undefined) {
        this.#recordHit(now);
        return { kind: "duplicate", id: earlier, rate };
      }
    }
    const maxInFlight = req.quota?.max_in_flight ?? this.#cfg.maxInFlight;
    if (this.#units.taken(now) >= maxInFlight) {
      this.#recordHit(now);
      this.#count("rejected_concurrency");
      return { kind: "rate_limited", retry_after: 1, reason: `at most ${maxInFlight} submissions may be in flight per API key`, rate };
    }
    const id = newSubmissionId(this.#cfg.submissionShards);
    const { idempotency_key: _ik, quota: _quota, ...rest } = req;
    const sentAt = Date.now();
    // The create call goes out before this object's own writes: a Durable Object holds outgoing
    // messages until its pending writes are durable (output gate), which would add that flush to
    // the submit latency. The reservation below is still taken in the same synchronous block as the
    // checks above, so no other request can interleave between check and reservation. It is
    // counted as a submission now, in the same commit (a refusal below takes it back).
    const call = submissionObject(this.env, id).create({ ...rest, id });
    const sync = req.wait_ms > 0;
    if (sync && ik === null) {
      this.#rate.recordLater(now);
      this.#countLater("requests");
      this.#countLater("submissions");
    } else {
      this.#recordHit(now);
      this.#count("submissions");
    }
    if (sync) this.#units.hold(id);
    else this.#units.take(id, now);
    if (req.options?.live) this.#units.markLive(id);
    if (ik !== null) this.#idempotency.reserve(ik, id, now);
    const work = this.#settle(id, ik, sync, call, rate);
    const out = await (ik !== null ? this.#idempotency.track(ik, work) : work);
    if (out.kind === "created" && out.hops) out.hops.key_to_submission = Math.max(0, Date.now() - sentAt - (out.hops.in_submission ?? 0));
    return out;
  }

  async #settle(id: string, ik: string | null, sync: boolean, call: Promise<CreateResult>, rate: RateInfo): Promise<SubmitOutcome> {
    const undo = () => {
      this.#usage.uncount("submissions");
      this.#units.undo(id);
      if (ik !== null) this.#idempotency.undo(ik, id);
    };
    let r: CreateResult;
    try {
      r = await call;
    } catch (e) {
      undo();
      throw e;
    }
    if (r.kind !== "created") {
      undo();
      this.#count(r.kind === "queue_full" ? "rejected_queue_full" : r.kind === "storage_full" ? "rejected_storage" : "rejected_language");
      return { ...r, rate };
    }
    if (sync && this.#units.endHold(id)) {
      const status = r.record?.job_status;
      // Answered with its terminal record: the SubmissionDO sends no release for it (store.ts,
      // commitTerminal); the unit is freed here. The hold expired first: the unit is written, and
      // the SubmissionDO releases it when the run ends.
      if (status === "completed" || status === "error") this.#countLater(status === "completed" ? "completed" : "errors");
      else this.#units.write(id, Date.now());
    }
    if (ik !== null) await this.#ensureAlarm();
    return { kind: "created", id, queue_depth: r.queue_depth, rate, record: r.record, hops: r.hops };
  }

  /** The submission reached a terminal state: its concurrency unit is free again. */
  release(id: string, status: string): void {
    if (this.#units.release(id)) this.#count(status === "completed" ? "completed" : "errors");
  }

  liveSocket(token: string, lease: SocketLease | null): boolean {
    return liveSocket(this.ctx.storage.sql, token, lease);
  }

  watch(untilMs: number, keyHash: string): void {
    this.#keyHash = keyHash;
    this.#reporter.watch(untilMs);
  }

  usage(): KeyUsage {
    return {
      counters: this.#usage.all(),
      in_flight: this.#units.inFlight(),
      live_sessions: this.#units.liveSessions(),
      requests_last_minute: this.#rate.count(Date.now()),
      revoked: this.#revoked,
    };
  }

  /** Idempotency keys are kept exactly as long as the records they point to. */
  override async alarm(): Promise<void> {
    this.#idempotency.prune(Date.now());
    await this.#ensureAlarm(true);
  }

  async #ensureAlarm(reschedule = false): Promise<void> {
    const at = this.#idempotency.nextPruneAt();
    if (at === null) return;
    if (!reschedule && (await this.ctx.storage.getAlarm()) !== null) return;
    await this.ctx.storage.setAlarm(at);
  }

  #count(name: string): void {
    this.#usage.count(name);
    this.#reporter.changed();
  }

  /** A count that needs no write of its own: it goes with the next one (or WRITE_LATER_MS later). */
  #countLater(name: string): void {
    this.#usage.countLater(name);
    this.#reporter.changed();
    this.#writeTimer ??= setTimeout(() => {
      this.#rate.flush();
      this.#writeCounts();
    }, WRITE_LATER_MS);
  }

  #writeCounts(): void {
    if (this.#writeTimer !== undefined) clearTimeout(this.#writeTimer);
    this.#writeTimer = undefined;
    this.#usage.write();
  }

  /** Usage to the dashboard; and again when the oldest counted request leaves the rolling window. */
  async #report(): Promise<void> {
    await dashboard(this.env).changed({ source: "key", hash: this.#keyHash, usage: this.usage() });
    const oldest = this.#rate.oldest(Date.now());
    if (oldest !== null) this.#reporter.changesAt(oldest + this.#cfg.rateWindowMs + 10);
  }
}
