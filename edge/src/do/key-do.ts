// KeyDO: one per API key (named by the key's SHA-256). Rate limit, concurrency units (submissions in
// flight), live-session sockets, idempotency and usage counters live here: one object per key serialises every decision for
// that key (synchronous SQLite statements, no await between check and write), so concurrent requests cannot both pass a check.
import { DurableObject } from "cloudflare:workers";
import type { HitResult, KeyQuota, KeyRpc, KeyUsage, RateInfo, SubmitOutcome, SubmitRequest } from "../contracts/key.ts";
import type { CreateResult } from "../contracts/submission.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { ChangeReporter } from "../lib/change-reporter.ts";
import { windowDecision } from "../lib/ratelimit.ts";
import { newSubmissionId } from "../contracts/submission-id.ts";
import { dashboard, submissionObject } from "../stubs.ts";
import { liveSocket, type SocketLease } from "../lib/socket-leases.ts";

/** Requests between two deletions of what left the rate window (and of stale concurrency units). */
const PRUNE_EVERY = 64;
/** How long a count, or a synchronous submit's hit, may stay in memory only (#unwrittenCounts, #unwrittenHits). */
const WRITE_LATER_MS = 1_000;
/** How many such hits at most (each rate decision reads them all). */
const HITS_UNWRITTEN_MAX = 256;

export class KeyDO extends DurableObject<Env> implements KeyRpc {
  #cfg: Config;
  /** Idempotency keys whose submission is being created right now; duplicates wait on it. */
  #creating = new Map<string, Promise<SubmitOutcome>>();
  /** Usage changes reported to the dashboard while it watches. */
  #reporter: ChangeReporter;
  /** This object's name, the key's SHA-256, as the dashboard knows it. */
  #keyHash = "";
  #hitsSincePrune = 0;
  /** Concurrency units of synchronous submits, held in memory: such a submit holds this object's call open
   * until its answer, so a unit cannot outlive the call (were the object lost, the call fails with it).
   * It is written (inflight) only if the hold expires before the run ends. */
  #heldBySyncCalls = new Set<string>();
  /** Usage counts not written yet: written with the next request's writes, or within a second. */
  #unwrittenCounts = new Map<string, number>();
  #countsTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Hits of synchronous submits not written yet (oldest first, all newer than every written one):
   * every rate decision counts them with the written ones, so none is missed. They are written
   * with the counts, at most WRITE_LATER_MS later (sooner when HITS_UNWRITTEN_MAX wait, or with the
   * next written hit), so that a busy key's object commits once per interval instead of once per
   * submit (a commit is an fsync locally, where every object shares one thread). What a crash can
   * lose: up to WRITE_LATER_MS of this key's sync submits from its rolling window.
   */
  #unwrittenHits: number[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS hits (ts INTEGER NOT NULL)");
    sql.exec("CREATE INDEX IF NOT EXISTS hits_ts ON hits (ts)");
    sql.exec("CREATE TABLE IF NOT EXISTS inflight (id TEXT PRIMARY KEY, since INTEGER NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS idem (key TEXT PRIMARY KEY, id TEXT NOT NULL, created INTEGER NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS usage (name TEXT PRIMARY KEY, n INTEGER NOT NULL)");
    // The key's submissions that are live sessions (the dashboard counts those still in flight).
    sql.exec("CREATE TABLE IF NOT EXISTS live (id TEXT PRIMARY KEY)");
    this.#revoked = ctx.storage.kv.get<boolean>("revoked") === true;
    this.#reporter = new ChangeReporter(250, () => this.#report());
  }

  /** Revocation is decided here, not only in KV: every API request passes through this object, so a revoked
   * (or rotated-away) key is refused at once, whatever the Worker's cache or KV's propagation delay says. */
  #revoked = false;

  async revoke(cancelInFlight = false): Promise<number> {
    this.#revoked = true;
    this.ctx.storage.kv.put("revoked", true);
    if (!cancelInFlight) return 0;
    // A deleted key's submissions end now, and their runs stop at their nodes; each releases its
    // unit back here as it ends (release()).
    const ids = [...this.ctx.storage.sql.exec<{ id: string }>("SELECT id FROM inflight").toArray().map((r) => r.id), ...this.#heldBySyncCalls];
    const ended = await Promise.all(ids.map((id) =>
      submissionObject(this.env, id).cancel(id, "the API key was revoked while the submission was in flight").catch(() => false)));
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
    if (this.#revoked) return { ok: false, revoked: true, retry_after: 0, reason: "the API key was revoked", rate: this.#revokedRate(quota) };
    const h = this.#rateCheck(Date.now(), quota?.rate_per_minute ?? this.#cfg.rateLimit);
    if (h.ok) this.#recordHit(Date.now());
    return h;
  }

  /** The rate decision, read-only; a refusal is counted here, an accepted hit by #recordHit. */
  #rateCheck(now: number, limit: number): HitResult {
    const sql = this.ctx.storage.sql;
    const since = now - this.#cfg.rateWindowMs;
    const written = sql.exec<{ count: number; oldest: number | null; newest: number | null }>(
      "SELECT COUNT(*) AS count, MIN(ts) AS oldest, MAX(ts) AS newest FROM hits WHERE ts > ? AND ts <= ?", since, now).one();
    const unwritten = this.#unwrittenHits.filter((ts) => ts > since && ts <= now);
    const w = {
      count: written.count + unwritten.length,
      oldest: written.oldest ?? unwritten[0] ?? null,
      newest: unwritten.at(-1) ?? written.newest,
    };
    const d = windowDecision(w, now, limit, this.#cfg.rateWindowMs, (k) => k >= written.count ? unwritten[k - written.count]! :
      sql.exec<{ ts: number }>("SELECT ts FROM hits WHERE ts > ? AND ts <= ? ORDER BY ts LIMIT 1 OFFSET ?", since, now, k).one().ts);
    const rate: RateInfo = { limit, remaining: d.remaining, reset_secs: d.resetSecs };
    if (!d.allowed) {
      this.#count("rejected_rate_limit");
      return { ok: false, retry_after: d.retryAfterSecs, reason: `rate limit of ${limit} requests per minute exceeded`, rate };
    }
    return { ok: true, rate };
  }

  #recordHit(now: number): void {
    this.#writeHits();
    this.#insertHit(now);
    this.#count("requests");
    this.#writeCounts();
  }

  #insertHit(now: number): void {
    // Every count reads only the window, so what left it is deleted now and then, not every time.
    if (++this.#hitsSincePrune >= PRUNE_EVERY) {
      this.#hitsSincePrune = 0;
      this.ctx.storage.sql.exec("DELETE FROM hits WHERE ts <= ?", now - this.#cfg.rateWindowMs);
      this.ctx.storage.sql.exec("DELETE FROM inflight WHERE since < ?", now - this.#cfg.maxRunMs - this.#cfg.queueTimeoutMs);
      this.ctx.storage.sql.exec("DELETE FROM live WHERE id NOT IN (SELECT id FROM inflight)");
    }
    this.ctx.storage.sql.exec("INSERT INTO hits (ts) VALUES (?)", now);
  }

  async submit(req: SubmitRequest): Promise<SubmitOutcome> {
    if (this.#revoked) return { kind: "revoked", rate: this.#revokedRate(req.quota) };
    const now = Date.now();
    const h = this.#rateCheck(now, req.quota?.rate_per_minute ?? this.#cfg.rateLimit);
    if (!h.ok) return { kind: "rate_limited", retry_after: h.retry_after, reason: h.reason, rate: h.rate };
    const rate = h.rate;
    const ik = req.idempotency_key;
    if (ik !== null) {
      const creating = this.#creating.get(ik);
      if (creating) {
        this.#recordHit(now);
        const first = await creating;
        return first.kind === "created" || first.kind === "duplicate" ? { kind: "duplicate", id: first.id, rate } : { ...first, rate };
      }
      const row = this.ctx.storage.sql.exec<{ id: string }>("SELECT id FROM idem WHERE key = ? AND created > ?", ik, now - this.#cfg.retentionMs).toArray()[0];
      if (row) {
        this.#recordHit(now);
        return { kind: "duplicate", id: row.id, rate };
      }
    }
    // Entries older than any run can last are leftovers of a release that never arrived.
    const staleBefore = now - this.#cfg.maxRunMs - this.#cfg.queueTimeoutMs;
    const inflight = this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM inflight WHERE since >= ?", staleBefore).one().n + this.#heldBySyncCalls.size;
    const maxInFlight = req.quota?.max_in_flight ?? this.#cfg.maxInFlight;
    if (inflight >= maxInFlight) {
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
      if (this.#unwrittenHits.push(now) >= HITS_UNWRITTEN_MAX) this.#writeHits();
      this.#countLater("requests");
      this.#countLater("submissions");
    } else {
      this.#recordHit(now);
      this.#count("submissions");
    }
    if (sync) this.#heldBySyncCalls.add(id);
    else this.ctx.storage.sql.exec("INSERT INTO inflight (id, since) VALUES (?, ?)", id, now);
    if (req.options?.live) this.ctx.storage.sql.exec("INSERT OR IGNORE INTO live (id) VALUES (?)", id);
    if (ik !== null) this.ctx.storage.sql.exec("INSERT OR REPLACE INTO idem (key, id, created) VALUES (?, ?, ?)", ik, id, now);
    const work = this.#settle(id, ik, sync, call, rate);
    if (ik !== null) this.#creating.set(ik, work);
    let out: SubmitOutcome;
    try {
      out = await work;
    } finally {
      if (ik !== null) this.#creating.delete(ik);
    }
    if (out.kind === "created" && out.hops) out.hops.key_to_submission = Math.max(0, Date.now() - sentAt - (out.hops.in_submission ?? 0));
    return out;
  }

  async #settle(id: string, ik: string | null, sync: boolean, call: Promise<CreateResult>, rate: RateInfo): Promise<SubmitOutcome> {
    const undo = () => {
      this.#uncount("submissions");
      this.#heldBySyncCalls.delete(id);
      this.ctx.storage.sql.exec("DELETE FROM inflight WHERE id = ?", id);
      this.ctx.storage.sql.exec("DELETE FROM live WHERE id = ?", id);
      if (ik !== null) this.ctx.storage.sql.exec("DELETE FROM idem WHERE key = ? AND id = ?", ik, id);
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
    if (sync && this.#heldBySyncCalls.delete(id)) {
      const status = r.record?.job_status;
      // Answered with its terminal record: the SubmissionDO sends no release for it (store.ts,
      // commitTerminal); the unit is freed here. The hold expired first: the unit is written, and
      // the SubmissionDO releases it when the run ends.
      if (status === "completed" || status === "error") this.#countLater(status === "completed" ? "completed" : "errors");
      else this.ctx.storage.sql.exec("INSERT OR IGNORE INTO inflight (id, since) VALUES (?, ?)", id, Date.now());
    }
    if (ik !== null) await this.#ensureAlarm();
    return { kind: "created", id, queue_depth: r.queue_depth, rate, record: r.record, hops: r.hops };
  }

  /** The submission reached a terminal state: its concurrency unit is free again. */
  release(id: string, status: string): void {
    const n = this.ctx.storage.sql.exec("DELETE FROM inflight WHERE id = ?", id).rowsWritten;
    this.ctx.storage.sql.exec("DELETE FROM live WHERE id = ?", id);
    if (n > 0) this.#count(status === "completed" ? "completed" : "errors");
  }

  liveSocket(token: string, lease: SocketLease | null): boolean {
    return liveSocket(this.ctx.storage.sql, token, lease);
  }

  watch(untilMs: number, keyHash: string): void {
    this.#keyHash = keyHash;
    this.#reporter.watch(untilMs);
  }

  usage(): KeyUsage {
    const counters: Record<string, number> = {};
    for (const r of this.ctx.storage.sql.exec<{ name: string; n: number }>("SELECT name, n FROM usage")) counters[r.name] = r.n;
    for (const [name, n] of this.#unwrittenCounts) counters[name] = (counters[name] ?? 0) + n;
    return {
      counters,
      in_flight: this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM inflight").one().n + this.#heldBySyncCalls.size,
      live_sessions: this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM live WHERE id IN (SELECT id FROM inflight)").one().n,
      requests_last_minute: this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM hits WHERE ts > ?", Date.now() - this.#cfg.rateWindowMs).one().n + this.#unwrittenHits.length,
      revoked: this.#revoked,
    };
  }

  /** Idempotency keys are kept exactly as long as the records they point to. */
  override async alarm(): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM idem WHERE created <= ?", Date.now() - this.#cfg.retentionMs);
    await this.#ensureAlarm(true);
  }

  async #ensureAlarm(reschedule = false): Promise<void> {
    const oldest = this.ctx.storage.sql.exec<{ t: number | null }>("SELECT MIN(created) AS t FROM idem").one().t;
    if (oldest === null) return;
    if (!reschedule && (await this.ctx.storage.getAlarm()) !== null) return;
    await this.ctx.storage.setAlarm(oldest + this.#cfg.retentionMs + 1_000);
  }

  #uncount(name: string): void {
    const unwritten = this.#unwrittenCounts.get(name) ?? 0;
    if (unwritten > 0) this.#unwrittenCounts.set(name, unwritten - 1);
    else this.ctx.storage.sql.exec("UPDATE usage SET n = n - 1 WHERE name = ? AND n > 0", name);
  }

  /** A count that needs no write of its own: it goes with the next one (or a second later). */
  #countLater(name: string): void {
    this.#unwrittenCounts.set(name, (this.#unwrittenCounts.get(name) ?? 0) + 1);
    this.#reporter.changed();
    this.#countsTimer ??= setTimeout(() => {
      this.#writeHits();
      this.#writeCounts();
    }, WRITE_LATER_MS);
  }

  #writeHits(): void {
    const hits = this.#unwrittenHits;
    if (hits.length === 0) return;
    this.#unwrittenHits = [];
    for (const ts of hits) this.#insertHit(ts);
  }

  #writeCounts(): void {
    if (this.#countsTimer !== undefined) clearTimeout(this.#countsTimer);
    this.#countsTimer = undefined;
    for (const [name, n] of this.#unwrittenCounts) {
      this.ctx.storage.sql.exec("INSERT INTO usage (name, n) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET n = n + excluded.n", name, n);
    }
    this.#unwrittenCounts.clear();
  }

  #count(name: string): void {
    this.ctx.storage.sql.exec("INSERT INTO usage (name, n) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET n = n + 1", name);
    this.#reporter.changed();
  }

  /** Usage to the dashboard; and again when the oldest counted request leaves the rolling window. */
  async #report(): Promise<void> {
    await dashboard(this.env).changed({ source: "key", hash: this.#keyHash, usage: this.usage() });
    const oldest = this.ctx.storage.sql.exec<{ t: number | null }>("SELECT MIN(ts) AS t FROM hits WHERE ts > ?", Date.now() - this.#cfg.rateWindowMs).one().t ??
      this.#unwrittenHits[0] ?? null;
    if (oldest !== null) this.#reporter.changesAt(oldest + this.#cfg.rateWindowMs + 10);
  }
}
