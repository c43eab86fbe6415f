// One submission inside its shard (do/submission-do.ts): its record and transitions, the
// synchronous waiters, the Execute call to its node, and a wake-up while it is not terminal so
// that a dead node, a dropped stream, an evicted object or an edge restart still ends in
// `completed` or `error` (never by sending Execute again for a run that may have started). What
// the wake-up finds decides the next step (run-steps.ts, terminal-steps.ts); this class carries it
// out. Its writes, and why a synchronous submit is held in memory: docs/edge.md.
import type { DeepPartial, ExecuteRequest, ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { type RunSink, streamRun } from "./run-stream.ts";
import { isTerminal, type ResultRecord } from "../../../proto/record.ts";
import { DEFAULT_POOL, type NodeTarget } from "../contracts/scheduler.ts";
import type { CreateInput, CreateResult, HopTimes } from "../contracts/submission.ts";
import { completedRecord, errorRecord, isoMs } from "./record.ts";
import type { ScopedKv } from "../lib/scoped-kv.ts";
import { Waiters } from "./waiters.ts";
import { metrics, scheduler } from "../stubs.ts";
import { SPILLS_METRIC } from "./budgets.ts";
import { afterTerminal, handOverAfterCommit } from "./after-terminal.ts";
import { SubmissionEvents, heartbeatMs, streamFormat } from "./events.ts";
import { enqueueNew } from "./enqueue.ts";
import { cancelAtNode } from "./cancel-at-node.ts";
import { requeue } from "./requeue.ts";
import { executeRequest } from "./run-request.ts";
import { lossStep, watchInterval, type Step } from "./run-steps.ts";
import { checkRun } from "./watchdog.ts";
import { SubmissionStore } from "./store.ts";
import { newMeta, type Meta, type Run } from "./stored.ts";
import type { HandOver } from "./terminal-steps.ts";
import type { ShardHost } from "./shard-host.ts";
import { WakeUp, routineWake } from "./wake-up.ts";
import { type SessionFeed, sessionFeedFor } from "./session-feed.ts";
import { recordOutput, withoutOutput, type RecordOutput } from "./output-bytes.ts";

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class Submission {
  readonly id: string;
  readonly #host: ShardHost;
  readonly #store: SubmissionStore;
  readonly #events: SubmissionEvents;
  /** A synchronous submit's wait for the terminal record (none: nothing to wait for). */
  readonly #waiters = new Waiters<ResultRecord | null>((rec) => !rec || isTerminal(rec.job_status));
  #stream: AbortController | null = null;
  /** Where this submission spent its time (answered with a synchronous submit). */
  #hops: HopTimes = {};
  /** While create() waits for the scheduler: a dispatch that arrives meanwhile is kept here. */
  #creating = false;
  #dispatchedEarly: NodeTarget | null = null;
  /** A synchronous create() waits for the terminal record (the key's object then frees its unit itself). */
  #createWaiting = false;
  /** Hand-overs done by this instance after the terminal commit (after-terminal.ts). */
  readonly #handedOver = new Set<HandOver>();
  readonly #wakeUp: WakeUp;
  /** When this instance learnt that the run started at its node (the run's deadline counts from it). */
  #startedMs: number | null = null;
  /** A live session's feed (its object gets the run's events); null: not a session. */
  #session: SessionFeed | null | undefined;

  constructor(id: string, host: ShardHost, kv: ScopedKv) {
    this.id = id;
    this.#host = host;
    this.#store = new SubmissionStore(host.storage, kv);
    this.#events = new SubmissionEvents(kv, heartbeatMs(host.env), () => this.#spill());
    this.#wakeUp = new WakeUp(this.#store, (at) => host.setAlarm(id, at), () => void this.alarm());
  }

  /** Nothing of it is stored (an unknown id). */
  get absent(): boolean {
    return this.#store.bareRecord() === undefined && !this.#creating;
  }

  /** Whether the instance still matters in memory (a run, waiters, followers, hand-overs not yet recorded). */
  get busy(): boolean {
    return this.#creating || this.#stream !== null || this.#events.clients > 0 || !this.#isDone() || this.#store.kv.get("release") !== undefined;
  }

  // ---- RPC ----

  async create(input: CreateInput): Promise<CreateResult> {
    const cfg = this.#host.cfg;
    if (!this.absent) return { kind: "created", queue_depth: 0 };
    this.#store.knownNew(); // no record: nothing (a record is written with the rest)
    const now = Date.now();
    this.#hops = {};
    this.#creating = true;
    let placed;
    try {
      placed = await enqueueNew(this.#host.env, input);
    } finally {
      this.#creating = false;
    }
    this.#hops.enqueue = Date.now() - now;
    const r = placed.result;
    if (r.kind === "queue_full" || r.kind === "unsupported") return r;
    // Accepted: everything below is one synchronous block, so one commit (none yet when synchronous).
    const store = this.#store;
    if (input.wait_ms > 0) store.buffer();
    const meta = newMeta(input, now, placed.pool);
    const node = r.kind === "dispatched" ? r.node : this.#dispatchedEarly;
    this.#session = sessionFeedFor(this.#host, input.options);
    // The Execute call leaves before the writes below, so that the output gate (outgoing messages
    // wait until pending writes are durable) does not hold it for the commit.
    if (node) this.#launch(node, meta, executeRequest(meta, input.code, input.stdin, input.options));
    store.accept(meta, input);
    this.#events.queued(r.kind === "queued" ? r.position : 0);
    this.#events.flush();
    if (node) this.#recordRun(node);
    else this.#wakeUp.set(routineWake(cfg.watchdogMs));
    if (input.wait_ms <= 0) return { kind: "created", queue_depth: r.queue_depth };
    // Synchronous submit: held here until terminal, so the key's object makes one call in all.
    this.#createWaiting = true;
    const record = await this.#waiters.wait(input.wait_ms, () => this.#store.record()).finally(() => (this.#createWaiting = false));
    // The hold expired: the answer names the id, so the submission is written before it leaves.
    if (record && !isTerminal(record.job_status)) this.#wakeUp.persist();
    return { kind: "created", queue_depth: r.queue_depth, record, hops: { ...this.#hops, in_submission: Date.now() - now } };
  }

  /** Its storage, to read its record from; null unless `accountId` owns it (null: any account). */
  stored(accountId: string | null): SubmissionStore | null {
    const meta = this.#store.meta();
    return !meta || (accountId !== null && meta.account_id !== accountId) ? null : this.#store;
  }

  events(accountId: string, after: number): ReadableStream<Uint8Array> | null | "busy" {
    const meta = this.#store.meta();
    if (!meta || meta.account_id !== accountId) return null;
    this.#wakeUp.persist();
    return this.#events.stream(after, this.#store, streamFormat(meta.format));
  }

  /** Idempotent: a second dispatch of a run already started is ignored. */
  async dispatch(node: NodeTarget): Promise<void> {
    if (this.#creating) {
      this.#dispatchedEarly = node;
      return;
    }
    const rec = this.#store.bareRecord();
    if (!rec || isTerminal(rec.job_status)) {
      // Nobody will run it (refused at creation, or already ended): hand the run slot back.
      await this.#scheduler().release(this.id).catch(() => {});
      return;
    }
    if (this.#store.run()) return;
    this.#startRun(node);
  }

  /** Ends it as `error` with `why` unless already terminal; its run stops at its node. */
  async cancel(why: string): Promise<boolean> {
    if (this.#isDone()) return false;
    await this.#scheduler().cancel(this.id).catch(() => false);
    await this.#fail(why);
    return true;
  }

  async nodeLost(nodeId: string, why: string): Promise<boolean> {
    const run = this.#store.run();
    if (this.#isDone() || run?.node_id !== nodeId) return false;
    await this.#lost(run, why);
    return true;
  }

  // ---- wake-up (watchdog, hand-overs, retention) ----

  async alarm(): Promise<void> {
    try {
      await this.#watchdog();
    } catch (e) {
      // Never let a failing wake-up strand a submission: log and come back.
      console.error("submission watchdog failed", String(e));
      this.#wakeUp.set(Date.now() + this.#host.cfg.watchdogMs);
    }
  }

  async #watchdog(): Promise<void> {
    const rec = this.#store.bareRecord();
    const meta = this.#store.meta();
    if (!rec || !meta) return this.#wipe();
    if (isTerminal(rec.job_status)) return this.#afterTerminal(meta);
    const seen = { run: () => this.#store.run(), startedMs: this.#startedMs, streaming: this.#stream !== null };
    await this.#follow(await checkRun(this.#host.env, this.#host.cfg, meta, rec, seen, Date.now()), meta);
    if (!this.#isDone()) this.#wakeUp.set(Date.now() + watchInterval(this.#host.cfg.watchdogMs, this.#stream !== null));
  }

  /** Carries out a step (run-steps.ts). */
  async #follow(step: Step, meta: Meta): Promise<void> {
    if (step.update) this.#store.updateRun(step.update);
    switch (step.kind) {
      case "wait": return step.at === undefined ? undefined : this.#wakeUp.set(step.at);
      case "start": return this.#startRun(step.node);
      case "fail": return this.#fail(step.why);
      case "lost": return this.#lost(step.run, step.why);
      case "requeue": return this.#requeue(step.nodeId, step.reason);
      case "complete": return this.#complete(step.result);
      case "running": return this.#markRunning(step.startedAt, true);
      case "expire":
        if (await this.#scheduler().cancel(meta.id)) await this.#fail(step.why);
    }
  }

  /** The wake-up once terminal: the hand-overs not yet done, their marks cleared, the wipe at the end of retention. */
  async #afterTerminal(meta: Meta): Promise<void> {
    const next = await afterTerminal(this.#host.env, this.#store, meta, this.#handedOver, this.#host.cfg.watchdogMs);
    if (next.kind === "wipe") return this.#wipe();
    this.#wakeUp.set(next.at);
  }

  // ---- the run ----

  /** Runs a stored submission on `node`: the run recorded, then the Execute call. */
  #startRun(node: NodeTarget): void {
    const meta = this.#store.meta();
    if (this.#store.run() || !meta) return;
    this.#recordRun(node);
    this.#launch(node, meta, executeRequest(meta, this.#store.blob("code"), this.#store.blob("stdin"), this.#store.runOptions()));
  }

  /** Which node runs it (what the watchdog asks after a broken stream), and the watchdog's wake-up. */
  #recordRun(node: NodeTarget): void {
    this.#store.kv.put("run", { node_id: node.id, node_url: node.url, dispatched_ms: Date.now(), failures: 0, last_error: null } satisfies Run);
    this.#wakeUp.set(routineWake(this.#host.cfg.watchdogMs));
  }

  #launch(node: NodeTarget, meta: Meta, req: DeepPartial<ExecuteRequest>): void {
    this.#sessionFeed()?.node(node);
    this.#host.waitUntil(this.#runStream(node, meta, req));
  }

  async #runStream(node: NodeTarget, meta: Meta, req: DeepPartial<ExecuteRequest>): Promise<void> {
    const abort = new AbortController();
    this.#stream = abort;
    try {
      const state = { recorded: () => this.#isDone(), pending: () => this.#store.bareRecord()?.job_status === "pending" };
      const step = await streamRun(meta.id, node, req, abort.signal, this.#hops, this.#runSink(meta), state);
      if (step) await this.#follow(step, meta);
    } finally {
      if (this.#stream === abort) this.#stream = null;
    }
  }

  /** The node's events as they come, until the result is recorded. */
  #runSink(meta: Meta): RunSink {
    const format = streamFormat(meta.format);
    return {
      event: (ev) => {
        this.#events.fromNode(ev, format);
        this.#session?.fromNode(ev);
        if (ev.started) this.#markRunning(ev.started.startedAt, false);
      },
      result: (result) => {
        this.#stream = null;
        const why = "submission could not record its result (the watchdog asks again)";
        return this.#complete(result).catch((e: unknown) => console.error(why, this.id, message(e)));
      },
    };
  }

  /**
   * Its node is gone (dead, cut off, restarted): the run goes to another node (run-steps.ts
   * lossStep). What the first node may still answer is never read again (the stream is aborted; the
   * watchdog asks only the current run's node). A result the node did deliver, even IE, stands.
   */
  async #lost(run: Run, why: string): Promise<void> {
    const step = lossStep(this.#store.kv.get<number>("attempts") ?? 1, why, this.#sessionFeed() !== null);
    if (step.kind === "fail") return this.#fail(step.why);
    console.warn("fleet node lost mid-run; dispatching again", this.id, run.node_id, why);
    this.#store.kv.put("attempts", step.attempts);
    this.#stream?.abort();
    this.#startedMs = null;
    // Should the node still be running it (stalled rather than gone), it stops there.
    this.#host.waitUntil(cancelAtNode(this.#host.env, run, this.id, why));
    await this.#requeue(run.node_id, why);
  }

  /** A node refused before the program started, or was lost: back to the queue, within the queue's time budget. */
  async #requeue(nodeId: string, reason: string): Promise<void> {
    const meta = this.#store.meta();
    if (!meta) return;
    this.#store.requeued();
    await this.#follow(await requeue(this.#host.env, this.#host.cfg, meta, nodeId, reason), meta);
  }

  /** `persist`: written now (the watchdog learnt it); from the stream it is written with the end. */
  #markRunning(startedAt: Date | undefined, persist: boolean): void {
    this.#startedMs ??= Date.now();
    const rec = this.#store.bareRecord();
    if (!rec || rec.job_status !== "pending") return;
    const started_at = startedAt ? startedAt.toISOString() : isoMs(Date.now());
    this.#store.markRunning(started_at, persist);
    this.#events.started(started_at);
  }

  async #complete(result: ExecutionResult): Promise<void> {
    const rec = this.#store.bareRecord();
    const attempts = this.#store.kv.get<number>("attempts");
    if (!rec || isTerminal(rec.job_status)) return;
    const completed = completedRecord(rec, withoutOutput(result), Date.now(), this.#store.meta()?.format, attempts);
    await this.#commit(completed, recordOutput(result));
  }

  /** Ends it as `error`; a run it had at a node is cancelled there. */
  async #fail(why: string): Promise<void> {
    const rec = this.#store.bareRecord();
    if (!rec || isTerminal(rec.job_status)) return;
    const run = this.#store.run();
    await this.#commit(errorRecord(rec, why, Date.now()), null);
    if (run) this.#host.waitUntil(cancelAtNode(this.#host.env, run, this.id, why));
  }

  /** The one place a record becomes terminal (`rec` without its `output`): persist, wake waiters, hand back run slot and concurrency unit. */
  async #commit(rec: ResultRecord, output: RecordOutput | null): Promise<void> {
    const meta = this.#store.meta();
    if (!meta) return;
    const [now, answering, session] = [Date.now(), this.#createWaiting, this.#sessionFeed()]; // (the options go with the commit)
    this.#wakeUp.cancel();
    this.#store.commitTerminal(rec, output, this.#events.endOutput(), now, now + this.#host.cfg.retentionMs, answering);
    const full = () => this.#store.record()!; // the whole record, made only for whoever asks
    this.#events.completed(() => this.#store.streamedRecord());
    session?.result(full());
    // The wake-up that records the hand-overs below as done (or does them again after an eviction).
    this.#wakeUp.set(routineWake(this.#host.cfg.watchdogMs));
    this.#waiters.wake(full);
    this.#stream?.abort();
    await handOverAfterCommit(this.#host.env, this.#store, meta, this.#handedOver, answering);
  }

  /** Its event frames reached their memory budget (budgets.ts): it is written now, and they go to storage. */
  #spill(): void {
    this.#wakeUp.persist();
    const sample = { name: SPILLS_METRIC, labels: {}, value: 1 };
    this.#host.waitUntil(metrics(this.#host.env).add([sample]).catch(() => {}));
  }

  /** The session's feed when this submission is a live session's. */
  #sessionFeed(): SessionFeed | null {
    if (this.#session === undefined && this.#store.meta()) this.#session = sessionFeedFor(this.#host, this.#store.runOptions());
    return this.#session ?? null;
  }

  /** The node running it (a live session's stdin goes there); null before it is dispatched. */
  get nodeId(): string | null {
    return this.#store.run()?.node_id ?? null;
  }

  #scheduler() {
    return scheduler(this.#host.env, this.#store.meta()?.pool ?? DEFAULT_POOL);
  }

  #isDone(): boolean {
    const rec = this.#store.bareRecord();
    return !rec || isTerminal(rec.job_status);
  }

  #wipe(): void {
    this.#stream?.abort();
    this.#store.wipe();
    this.#host.dropped(this.id);
  }
}
