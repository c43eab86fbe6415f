// One submission's storage inside its shard, all in the shard's synchronous KV under the
// submission's prefix (scoped-kv.ts): meta, record, run and release markers; code, stdin and output
// as chunked blobs (its events: event-log.ts). A lookup of an unknown id writes nothing.
import type { ResultRecord } from "../../../proto/record.ts";
import { KvBlobs } from "../lib/kv-blobs.ts";
import type { ScopedKv, SyncKv } from "../lib/scoped-kv.ts";
import type { RunOptions } from "../contracts/submission.ts";
import { newRecord } from "./record.ts";
import type { HooksPending, Meta, Pending, Run } from "./stored.ts";
import type { TerminalMarks } from "./terminal-steps.ts";

export class SubmissionStore {
  #storage: DurableObjectStorage;
  #kv: ScopedKv;
  #blobs: KvBlobs;
  /** The run started (the node said so): kept in memory, written with the terminal record. */
  #startedAt: string | null = null;

  constructor(storage: DurableObjectStorage, kv: ScopedKv) {
    this.#storage = storage;
    this.#kv = kv;
    this.#blobs = new KvBlobs(kv);
  }

  get kv(): SyncKv {
    return this.#kv;
  }

  /** Nothing is stored under this id: what is not written through this store is absent, unread. */
  knownNew(): void {
    this.#kv.knownEmpty();
  }

  /** A new submission's writes are held in memory until persist() (a synchronous submit: submission.ts). */
  buffer(): void {
    this.#kv.buffer();
  }

  get buffered(): boolean {
    return this.#kv.buffered;
  }

  /** Writes what is held (no-op when nothing is). */
  persist(): void {
    this.#kv.persist();
  }

  blob(name: string): string {
    return this.#blobs.has(name) ? this.#blobs.get(name) : "";
  }

  /** The request's 1.1 options, read back from their stored JSON; undefined when it had none. */
  runOptions(): RunOptions | undefined {
    return this.#blobs.has("options") ? (JSON.parse(this.#blobs.get("options")) as RunOptions) : undefined;
  }

  putBlob(name: string, value: string | null): void {
    this.#blobs.put(name, value);
  }

  /** A new submission: what it is, its record, its input. */
  accept(meta: Meta, input: { code: string; stdin: string; options?: RunOptions }): void {
    this.kv.put("meta", meta);
    this.kv.put("record", newRecord(meta.id, meta.language, meta.created_ms, meta.format));
    this.putBlob("code", input.code);
    this.putBlob("stdin", input.stdin);
    if (input.options) this.putBlob("options", JSON.stringify(input.options));
  }

  meta(): Meta | undefined {
    return this.kv.get<Meta>("meta");
  }

  /** The record without its output (cheap); `running` as soon as the node said the run started. */
  bareRecord(): ResultRecord | undefined {
    const rec = this.kv.get<ResultRecord>("record");
    return rec && this.#startedAt !== null && rec.job_status === "pending" ? { ...rec, job_status: "running", started_at: this.#startedAt } : rec;
  }

  /** The run started: shown at once, written with the next record write (`persist`: now). */
  markRunning(startedAt: string, persist: boolean): void {
    this.#startedAt = startedAt;
    const rec = this.kv.get<ResultRecord>("record");
    if (persist && rec?.job_status === "pending") this.kv.put("record", { ...rec, job_status: "running", started_at: startedAt });
  }

  /** The record with its output. */
  record(): ResultRecord | null {
    const rec = this.bareRecord();
    if (!rec) return null;
    if (rec.job_status !== "completed") return rec;
    const full = { ...rec, stdout: this.blob("stdout"), stderr: this.blob("stderr") };
    // Per-test outputs can be large: kept as a blob of their own, like stdout and stderr.
    return this.#blobs.has("tests") ? { ...full, tests: JSON.parse(this.#blobs.get("tests")) } : full;
  }

  run(): Run | undefined {
    return this.kv.get<Run>("run");
  }

  updateRun(patch: Partial<Run>): void {
    const run = this.run();
    if (run) this.kv.put("run", { ...run, ...patch });
  }

  /** The run is taken from its node and goes back to the queue: forgotten, and counted. */
  requeued(): void {
    this.kv.delete("run");
    this.kv.put("refusals", (this.kv.get<number>("refusals") ?? 0) + 1);
  }

  /** The marks a terminal submission keeps until its hand-overs are recorded and its retention ends. */
  terminalMarks(): TerminalMarks {
    return { release: this.kv.get<Pending>("release"), hooks: this.kv.get<HooksPending>("hooks"), expire: this.kv.get<number>("expire") };
  }

  /**
   * The terminal record, atomically: output stored, input dropped, release and webhook hand-off
   * marked as to do. `unitWithAnswer`: the key's object gets the record as the answer to its create
   * call and frees the concurrency unit itself, so no release is sent to it.
   */
  commitTerminal(rec: ResultRecord, endedMs: number, expireMs: number, unitWithAnswer: boolean): void {
    try {
      this.#write(rec, endedMs, expireMs, unitWithAnswer);
    } catch (e) {
      this.#kv.forget();
      throw e;
    }
  }

  #write(rec: ResultRecord, endedMs: number, expireMs: number, unitWithAnswer: boolean): void {
    this.#storage.transactionSync(() => {
      this.#blobs.put("stdout", rec.stdout);
      this.#blobs.put("stderr", rec.stderr);
      const { tests, ...bare } = rec;
      if (tests) this.#blobs.put("tests", JSON.stringify(tests));
      this.kv.put("record", { ...bare, stdout: null, stderr: null });
      this.kv.put("expire", expireMs);
      this.kv.put("release", { run_slot: true, concurrency_unit: !unitWithAnswer } satisfies Pending);
      this.kv.put("hooks", { ended_ms: endedMs } satisfies HooksPending);
      this.kv.delete("run");
      this.#blobs.put("code", null);
      this.#blobs.put("stdin", null);
      if (this.#blobs.has("options")) this.#blobs.put("options", null);
      this.#kv.persist();
    });
  }

  /** Deletes everything of this submission. */
  wipe(): void {
    this.#kv.deleteAll();
  }
}
