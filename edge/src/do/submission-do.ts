// SubmissionDO: one per shard of submissions (a submission's shard is named in the first four hex
// digits of its id: contracts/submission-id.ts), hosting each of them as a Submission
// (submission/submission.ts) with its own prefix in the shard's storage and its own wake-up
// (submission/deadlines.ts). A shard's object lives on across submissions, so a submission costs
// no object creation; what each writes and when: submission.ts.
import { DurableObject } from "cloudflare:workers";
import type { ResultRecord } from "../../../proto/record.ts";
import type { NodeTarget } from "../contracts/scheduler.ts";
import type { CreateInput, CreateResult, SubmissionRpc } from "../contracts/submission.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { ScopedKv } from "../lib/scoped-kv.ts";
import { Deadlines } from "../submission/deadlines.ts";
import type { ShardHost } from "../submission/shard-host.ts";
import { Submission } from "../submission/submission.ts";
import { AccountUsage } from "../submission/account-usage.ts";
import { storageFull } from "../submission/storage-quota.ts";
import { STREAM_FROM_CHARS, textStream } from "../lib/http.ts";
import { jsonChunks } from "../lib/json-pieces.ts";

export class SubmissionDO extends DurableObject<Env> implements SubmissionRpc {
  #host: ShardHost;
  #deadlines: Deadlines;
  /** Submissions with something in memory (a run, waiters, followers, hand-overs to record). */
  #live = new Map<string, Submission>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const cfg: Config = config(env);
    this.#deadlines = new Deadlines(ctx.storage, (p) => ctx.waitUntil(p));
    void ctx.blockConcurrencyWhile(() => this.#deadlines.resume());
    this.#host = {
      env, cfg, storage: ctx.storage,
      waitUntil: (p) => ctx.waitUntil(p),
      setAlarm: (id, at) => this.#deadlines.set(id, at),
      dropped: (id) => {
        this.#deadlines.clear(id);
        this.#live.delete(id);
      },
    };
  }

  async create(input: CreateInput): Promise<CreateResult> {
    const id = input.id.toLowerCase();
    // What its account stores in this shard comes first: nothing is queued past the quota.
    const full = storageFull(new AccountUsage(this.ctx.storage.kv).of(input.account_id), input);
    if (full) return full;
    const sub = this.#live.get(id) ?? this.#open(id);
    this.#live.set(id, sub);
    try {
      return await sub.create(input);
    } finally {
      this.#settle(sub);
    }
  }

  get(id: string, accountId: string | null): ResultRecord | null {
    return this.#find(id)?.stored(accountId)?.record() ?? null;
  }

  read(id: string, accountId: string): ResultRecord | ReadableStream<Uint8Array> | null {
    const store = this.#find(id)?.stored(accountId);
    if (!store) return null;
    // A large output is never decoded whole: its JSON is made from the stored bytes as the client reads.
    return store.outputBytes() <= STREAM_FROM_CHARS ? store.record() : textStream(jsonChunks(store.streamedRecord()));
  }

  events(id: string, accountId: string, after: number): ReadableStream<Uint8Array> | null | "busy" {
    const sub = this.#find(id);
    if (!sub) return null;
    const stream = sub.events(accountId, after);
    // A follower of a live run keeps the instance (its feed) in memory.
    if (stream && stream !== "busy" && sub.busy) this.#live.set(sub.id, sub);
    return stream;
  }

  async dispatch(subId: string, node: NodeTarget): Promise<void> {
    const id = subId.toLowerCase();
    const sub = this.#live.get(id) ?? this.#open(id);
    if (!this.#live.has(id) && sub.absent) return sub.dispatch(node); // releases the run slot
    this.#live.set(id, sub);
    await sub.dispatch(node);
  }

  async cancel(subId: string, why: string): Promise<boolean> {
    const sub = this.#find(subId);
    if (!sub) return false;
    this.#live.set(sub.id, sub);
    try {
      return await sub.cancel(why);
    } finally {
      this.#settle(sub);
    }
  }

  async nodeLost(subId: string, nodeId: string, why: string): Promise<boolean> {
    const sub = this.#find(subId);
    if (!sub) return false;
    this.#live.set(sub.id, sub);
    try {
      return await sub.nodeLost(nodeId, why);
    } finally {
      this.#settle(sub);
    }
  }

  liveNode(subId: string): string | null {
    return this.#find(subId)?.nodeId ?? null;
  }

  override async alarm(): Promise<void> {
    const due = this.#deadlines.takeDue(Date.now());
    try {
      await Promise.all(due.map(async ({ id, at }) => {
        const sub = this.#live.get(id) ?? this.#open(id);
        this.#live.set(id, sub);
        try {
          await sub.alarm();
        } finally {
          this.#deadlines.handled(id, at);
          this.#settle(sub);
        }
      }));
    } finally {
      this.#deadlines.fired();
    }
  }

  // ---- internals ----

  /** The live instance, or one read from storage; null when the id is unknown here. */
  #find(subId: string): Submission | null {
    const id = subId.toLowerCase();
    const sub = this.#live.get(id) ?? this.#open(id);
    return sub.absent ? null : sub;
  }

  #open(id: string): Submission {
    return new Submission(id, this.#host, new ScopedKv(this.ctx.storage.kv, id));
  }

  /** Keeps an instance in memory only while it matters there. */
  #settle(sub: Submission): void {
    if (!sub.busy && this.#live.get(sub.id) === sub) this.#live.delete(sub.id);
  }
}
