// A submission's event stream (GET /api/result/{id}/events): what happened to it, in order, each
// event stored before it is sent (event-log.ts) and fed to the clients streaming it (event-feed.ts).
// Events: queued, started, stdout/stderr (the node's Output events in the record's encoding), test
// (a test case's record), completed (the whole record, also for job_status error), after which
// the streams end. Output events are capped: past OUTPUT_EVENT_CAP a stream's chunks are held and
// sent as one event when their test (or the run) ends, so storage stays bounded and the
// concatenated chunks still equal the record's output. A frame is built only for a client that
// follows; a replay builds each from its stored entry as the client reads.
import { OutputStream } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecuteResponse, Output, TestResult as WireTest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { testFromWire } from "../../../proto/record-wire.ts";
import type { Encoding } from "../../../proto/record.ts";
import { sseFrame, sseFramePieces } from "../lib/sse.ts";
import { EventFeed } from "./event-feed.ts";
import { EventLog, type BareTest, type EventEntry } from "./event-log.ts";
import type { BulkKv } from "../lib/scoped-kv.ts";
import { OutputChunks, bytesJson } from "./output-text.ts";
import type { JsonText } from "../lib/json-pieces.ts";
import { HeldOutput } from "./held-output.ts";
import { pairOf, withOutput, type Place, type StreamName } from "./output-bytes.ts";

/** Output events stored at most before chunks are held until their test or run ends. */
export const OUTPUT_EVENT_CAP = 1000;

/** How the record writes output: its encoding, and whether the request had tests (chunks then name theirs). */
export interface StreamFormat {
  encoding: Encoding;
  tests: boolean;
}

/** What a replay reads of the finished record (store.ts): the home of a compacted run's output, as JSON made as it is read. */
export interface StoredRecord {
  /** Bytes [from, to) of the record's stream at `place`. */
  streamedOutput(place: Place, stream: StreamName, from: number, to: number): JsonText;
  /** Test `index`'s record with its output. */
  streamedTest(index: number): unknown;
  streamedRecord(): unknown;
}

/** SSE comment while nothing else flows (SSE_HEARTBEAT_MS, default 15 s). */
export function heartbeatMs(env: { SSE_HEARTBEAT_MS?: string }): number {
  const ms = Number(env.SSE_HEARTBEAT_MS);
  return Number.isFinite(ms) && ms >= 10 ? ms : 15_000;
}

/** The stream's format from the record's (the submission's meta); a request of schema 1.0 has none. */
export function streamFormat(f: Partial<StreamFormat> | undefined): StreamFormat {
  return { encoding: f?.encoding === "base64" ? "base64" : "utf8", tests: f?.tests === true };
}

/** Live followers of one submission at most (a replay after completion is not counted). */
export const MAX_LIVE_STREAMS = 16;

const EMPTY = new Uint8Array(0);

/** A test's record without its output, and that output's raw bytes. */
function splitTest(t: WireTest): { bare: BareTest; bytes: [Uint8Array, Uint8Array] } {
  const pair = t.result ? pairOf(t.result) : { stdout: EMPTY, stderr: EMPTY };
  const emptied = t.result ? { ...t, result: { ...t.result, stdout: "", stderr: "", stdoutBytes: EMPTY, stderrBytes: EMPTY } } : t;
  const { stdout: _o, stderr: _e, ...bare } = testFromWire(emptied);
  return { bare, bytes: [pair.stdout, pair.stderr] };
}

export class SubmissionEvents {
  readonly #log: EventLog;
  readonly #feed: EventFeed;
  #chunks: OutputChunks | undefined;
  #format: StreamFormat = streamFormat(undefined);
  /** Chunks past the cap, by `${stream}:${test}`. */
  readonly #held = new HeldOutput();

  /** `spill`: the entries held in memory reached their budget (budgets.ts); the submission writes itself. */
  constructor(kv: BulkKv, heartbeatMs: number, spill?: () => void) {
    this.#log = new EventLog(kv, spill);
    this.#feed = new EventFeed(heartbeatMs);
  }

  /** The last event's id (0: none yet). */
  get last(): number {
    return this.#log.last;
  }

  /** Writes the events still held in memory (with the record they go with). */
  flush(): void {
    this.#log.flush();
  }

  /** Clients streaming right now. */
  get clients(): number {
    return this.#feed.clients;
  }


  queued(position: number): void {
    this.#small("queued", { position });
  }

  started(startedAt: string): void {
    this.#small("started", { started_at: startedAt });
  }

  /** The node's queued, output and test events (started and completed go through the record). */
  fromNode(ev: ExecuteResponse, format: StreamFormat): void {
    this.#format = format;
    if (ev.queued) this.queued(ev.queued.position);
    else if (ev.output) this.#output(ev.output);
    else if (ev.test) {
      const { index, result } = ev.test;
      this.#finish(index);
      if (result) this.#test(index, result);
    }
  }

  /** The run's last output appended, the log for the terminal commit to compact (store.ts). */
  endOutput(): EventLog {
    this.#finish(null);
    return this.#log;
  }

  /** The terminal record (committed; made only if someone follows, as it is read): `completed`; every stream ends. */
  completed(rec: () => unknown): void {
    if (this.#log.completedId !== undefined) return;
    this.#finish(null);
    const id = this.#log.markCompleted();
    this.#feed.end(() => sseFramePieces(id, "completed", rec()));
  }

  /**
   * The events after `after`, then (unless already completed) the live ones; "busy" when
   * MAX_LIVE_STREAMS clients are following the run already (each holds the object's memory).
   */
  stream(after: number, stored: StoredRecord, format: StreamFormat): ReadableStream<Uint8Array> | "busy" {
    const done = this.#log.completedId !== undefined;
    if (!done && this.#feed.clients >= MAX_LIVE_STREAMS) return "busy";
    if (!done) this.#log.persistEagerly();
    const backlog = this.#log.replay(after, (id, entry) => render(id, entry, stored, format));
    return this.#feed.open(backlog, done);
  }

  #output(out: Output): void {
    const stream = out.stream === OutputStream.OUTPUT_STREAM_STDERR ? "stderr" : out.stream === OutputStream.OUTPUT_STREAM_STDOUT ? "stdout" : null;
    if (!stream || out.data.length === 0) return;
    this.#chunks ??= new OutputChunks(this.#format.encoding);
    const key = `${stream}:${out.testIndex}`;
    if (this.#held.has(key) || this.#log.outputs >= OUTPUT_EVENT_CAP) {
      const full = this.#held.add(key, out.data);
      if (full) this.#chunk(stream, out.testIndex, this.#chunks.take(key, full));
    } else this.#chunk(stream, out.testIndex, this.#chunks.take(key, out.data));
  }

  /** Sends what is held or half-decoded for one test's streams (null: every stream). */
  #finish(test: number | null): void {
    const chunks = this.#chunks;
    if (!chunks) return;
    for (const stream of ["stdout", "stderr"] as const) {
      const keys = new Set([...this.#held.keys(), ...chunks.keys()].filter((k) => k.startsWith(`${stream}:`) && (test === null || k === `${stream}:${test}`)));
      for (const key of keys) {
        const index = Number(key.slice(stream.length + 1));
        const bytes = this.#held.finish(key);
        if (bytes.length > 0) this.#chunk(stream, index, chunks.take(key, bytes));
        this.#chunk(stream, index, chunks.finish(key));
      }
    }
  }

  /** `bytes`: a whole range of the stream (output-text.ts), its text made only for a client that follows. */
  #chunk(stream: StreamName, test: number, bytes: Uint8Array): void {
    if (bytes.length === 0 || this.#log.completedId !== undefined) return;
    const id = this.#log.append({ o: stream, t: test, b: bytes });
    const data = () => bytesJson(bytes, this.#format.encoding);
    this.#send(() => sseFramePieces(id, stream, this.#format.tests ? { data: data(), test } : { data: data() }));
  }

  #test(index: number, result: WireTest): void {
    if (this.#log.completedId !== undefined) return;
    const { bare, bytes } = splitTest(result);
    const id = this.#log.append({ i: index, r: bare, b: bytes });
    const encoding = this.#format.encoding;
    this.#send(() => sseFramePieces(id, "test", { index, ...withOutput(bare, bytesJson(bytes[0], encoding), bytesJson(bytes[1], encoding)) }));
  }

  #small(event: string, data: unknown): void {
    if (this.#log.completedId !== undefined) return;
    const frame = sseFrame(this.#log.last + 1, event, data);
    this.#log.append(frame);
    this.#send(() => frame);
  }

  /** A frame for the clients following live (made only when there is one). */
  #send(frame: () => string | Iterable<string>): void {
    if (this.#feed.clients > 0) this.#feed.send(frame());
  }
}

/** The frame (in pieces, made as it is read) of a stored event (null: the completed event, whose data is the record). */
function render(id: number, entry: EventEntry | null, stored: StoredRecord, format: StreamFormat): string | Iterable<string> {
  if (entry === null) return sseFramePieces(id, "completed", stored.streamedRecord());
  if (typeof entry === "string") return entry;
  if ("o" in entry) {
    const data = "b" in entry ? bytesJson(entry.b, format.encoding) : stored.streamedOutput(entry.p, entry.o, entry.a, entry.z);
    return sseFramePieces(id, entry.o, format.tests ? { data, test: entry.t } : { data });
  }
  const test = entry.r && entry.b
    ? withOutput(entry.r, bytesJson(entry.b[0], format.encoding), bytesJson(entry.b[1], format.encoding))
    : stored.streamedTest(entry.i);
  return sseFramePieces(id, "test", { index: entry.i, ...(test as object) });
}
