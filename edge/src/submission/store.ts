// One submission's storage inside its shard, all in the shard's synchronous KV under the
// submission's prefix (scoped-kv.ts): meta, record, run and release markers; code and stdin as
// chunked blobs; a finished record's output as raw bytes (output-store.ts), its tests' records
// without output one per key, its events compacted to point into them (event-log.ts). What it
// stores is charged to its account in the shard (account-usage.ts). A lookup of an unknown id
// writes nothing.
import type { Encoding, ResultRecord, TestRecord } from "../../../proto/record.ts";
import { KvBlobs } from "../lib/kv-blobs.ts";
import type { BulkKv, ScopedKv } from "../lib/scoped-kv.ts";
import type { RunOptions } from "../contracts/submission.ts";
import { newRecord } from "./record.ts";
import type { HooksPending, Meta, Pending, Run } from "./stored.ts";
import type { TerminalMarks } from "./terminal-steps.ts";
import type { BareTest, EventLog } from "./event-log.ts";
import { keptBytes, withOutput, type Place, type RecordOutput, type StreamName } from "./output-bytes.ts";
import { OutputStore } from "./output-store.ts";
import { outputJson, outputView } from "./output-text.ts";
import type { JsonText } from "../lib/json-pieces.ts";
import type { StoredRecord } from "./events.ts";
import { AccountUsage, CHARGED } from "./account-usage.ts";

/** Bytes charged per stored event entry besides its output (its key and framing). */
const ENTRY_BYTES = 64;

export class SubmissionStore implements StoredRecord {
  #storage: DurableObjectStorage;
  #kv: ScopedKv;
  #blobs: KvBlobs;
  #output: OutputStore;
  #usage: AccountUsage;
  /** The run started (the node said so): kept in memory, written with the terminal record. */
  #startedAt: string | null = null;

  constructor(storage: DurableObjectStorage, kv: ScopedKv) {
    this.#storage = storage;
    this.#kv = kv;
    this.#blobs = new KvBlobs(kv);
    this.#output = new OutputStore(kv);
    this.#usage = new AccountUsage(storage.kv);
  }

  get kv(): BulkKv {
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

  /**
   * A new submission: what it is, its record, its input. Its account is charged at its end, in the
   * terminal commit (a charge now would cost a synchronous submit a commit of its own).
   */
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

  /** The record with its output (decoded from the stored bytes as the record's encoding asks). */
  record(): ResultRecord | null {
    const rec = this.bareRecord();
    if (!rec) return null;
    if (rec.job_status !== "completed") return rec;
    const encoding = rec.encoding ?? "utf8";
    const top = this.kv.get<number>("out_top") ?? "top";
    const full = { ...rec, stdout: this.#view(top, "stdout", encoding), stderr: this.#view(top, "stderr", encoding) };
    const count = this.kv.get<number>("tests");
    if (count === undefined) return full;
    const tests: TestRecord[] = [];
    for (let i = 0; i < count; i++) tests.push(this.test(i)!);
    return { ...full, tests };
  }

  /** Output bytes the finished record keeps (its own and its tests'), from the stored lengths. */
  outputBytes(): number {
    const count = this.kv.get<number>("tests") ?? 0;
    const places: Place[] = [...(this.kv.get<number>("out_top") === undefined ? ["top" as const] : []), ...Array.from({ length: count }, (_, i) => i)];
    return places.reduce<number>((n, p) => n + (this.#output.length(p, "stdout") ?? 0) + (this.#output.length(p, "stderr") ?? 0), 0);
  }

  /** The record with its output as JSON made as it is read from storage (outputJson): for jsonChunks. */
  streamedRecord(): unknown {
    const rec = this.bareRecord();
    if (!rec || rec.job_status !== "completed") return rec ?? null;
    const top = this.kv.get<number>("out_top") ?? "top";
    const full = { ...rec, stdout: this.streamedOutput(top, "stdout"), stderr: this.streamedOutput(top, "stderr") };
    const count = this.kv.get<number>("tests");
    return count === undefined ? full : { ...full, tests: Array.from({ length: count }, (_, i) => this.streamedTest(i)) };
  }

  /** Test `index`'s record with its output as JSON made as it is read. */
  streamedTest(index: number): unknown {
    const bare = this.kv.getThrough<BareTest>(`test:${index}`);
    return bare && withOutput(bare, this.streamedOutput(index, "stdout"), this.streamedOutput(index, "stderr"));
  }

  /** Bytes [from, to) of a stored stream (all of it by default) as JSON made as it is read. */
  streamedOutput(place: Place, stream: StreamName, from = 0, to?: number): JsonText {
    const end = Math.min(to ?? Number.MAX_SAFE_INTEGER, this.#output.length(place, stream) ?? 0);
    const encoding = this.bareRecord()?.encoding ?? "utf8";
    return outputJson(Math.max(0, end - from), (a, z) => this.#output.read(place, stream, from + a, from + z), encoding);
  }

  /** Test `index`'s record with its output (a finished record's). */
  test(index: number): TestRecord | undefined {
    const bare = this.kv.getThrough<BareTest>(`test:${index}`);
    const encoding = this.bareRecord()?.encoding ?? "utf8";
    return bare && withOutput(bare, this.#view(index, "stdout", encoding), this.#view(index, "stderr", encoding));
  }

  #view(place: Place, stream: StreamName, encoding: Encoding): string {
    return outputView(this.#output.read(place, stream), encoding);
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
  commitTerminal(rec: ResultRecord, output: RecordOutput | null, events: EventLog, endedMs: number, expireMs: number, unitWithAnswer: boolean): void {
    try {
      this.#write(rec, output, events, endedMs, expireMs, unitWithAnswer);
    } catch (e) {
      this.#kv.forget();
      throw e;
    }
  }

  #write(rec: ResultRecord, output: RecordOutput | null, events: EventLog, endedMs: number, expireMs: number, unitWithAnswer: boolean): void {
    this.#storage.transactionSync(() => {
      const { tests, ...rest } = rec;
      const bare = { ...rest, stdout: null, stderr: null };
      let stored = JSON.stringify(bare).length;
      if (output) {
        if (output.top) for (const s of ["stdout", "stderr"] as const) this.#output.put("top", s, output.top[s]);
        else this.kv.put("out_top", output.topTest);
        output.tests.forEach((pair, i) => (["stdout", "stderr"] as const).forEach((s) => this.#output.put(i, s, pair[s])));
        stored += keptBytes(output);
      }
      stored += events.compact(output);
      if (tests) {
        tests.forEach(({ stdout: _o, stderr: _e, ...test }, i) => {
          this.kv.putThrough(`test:${i}`, test);
          stored += JSON.stringify(test).length;
        });
        this.kv.put("tests", tests.length);
      }
      this.kv.put("record", bare);
      this.kv.put("expire", expireMs);
      this.kv.put("release", { run_slot: true, concurrency_unit: !unitWithAnswer } satisfies Pending);
      this.kv.put("hooks", { ended_ms: endedMs } satisfies HooksPending);
      this.kv.delete("run");
      this.#blobs.put("code", null);
      this.#blobs.put("stdin", null);
      if (this.#blobs.has("options")) this.#blobs.put("options", null);
      const meta = this.meta();
      if (meta) this.#charge(meta.account_id, stored + events.last * ENTRY_BYTES);
      this.#kv.persist();
    });
  }

  /** Sets what this submission is charged to its account in the shard (replacing its earlier charge). */
  #charge(accountId: string, bytes: number): void {
    const before = this.kv.get<number>(CHARGED) ?? 0;
    this.#usage.add(accountId, bytes - before);
    this.kv.put(CHARGED, bytes);
  }

  /** Deletes everything of this submission, and its charge. */
  wipe(): void {
    const meta = this.meta();
    if (meta) this.#usage.add(meta.account_id, -(this.kv.get<number>(CHARGED) ?? 0));
    this.#kv.deleteAll();
  }
}
