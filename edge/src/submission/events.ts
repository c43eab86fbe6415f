// A submission's event stream (GET /api/result/{id}/events): what happened to it, in order, each
// event stored before it is sent (event-log.ts) and fed to the clients streaming it (event-feed.ts).
// Events: queued, started, stdout/stderr (the node's Output events in the record's encoding), test
// (a test case's record), completed (the whole record, also for job_status error), after which
// the streams end. Output events are capped: past OUTPUT_EVENT_CAP a stream's chunks are held and
// sent as one event when their test (or the run) ends, so storage stays bounded and the
// concatenated chunks still equal the record's output.
import { OutputStream } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecuteResponse, Output } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { testFromWire } from "../../../proto/record-wire.ts";
import type { Encoding, ResultRecord } from "../../../proto/record.ts";
import { sseFrame } from "../lib/sse.ts";
import { EventFeed } from "./event-feed.ts";
import { EventLog } from "./event-log.ts";
import type { SyncKv } from "../lib/scoped-kv.ts";
import { OutputText } from "./output-text.ts";
import { HeldOutput } from "./held-output.ts";

/** Output events stored at most before chunks are held until their test or run ends. */
export const OUTPUT_EVENT_CAP = 1000;

/** How the record writes output: its encoding, and whether the request had tests (chunks then name theirs). */
export interface StreamFormat {
  encoding: Encoding;
  tests: boolean;
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

export class SubmissionEvents {
  readonly #log: EventLog;
  readonly #feed: EventFeed;
  #text: OutputText | undefined;
  #tests = false;
  /** Chunks past the cap, by `${stream}:${test}`. */
  readonly #held = new HeldOutput();

  /** `spill`: the frames held in memory reached their budget (budgets.ts); the submission writes itself. */
  constructor(kv: SyncKv, heartbeatMs: number, spill?: () => void) {
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
    this.#emit("queued", { position });
  }

  started(startedAt: string): void {
    this.#emit("started", { started_at: startedAt });
  }

  /** The node's queued, output and test events (started and completed go through the record). */
  fromNode(ev: ExecuteResponse, format: StreamFormat): void {
    if (ev.queued) this.queued(ev.queued.position);
    else if (ev.output) this.#output(ev.output, format);
    else if (ev.test) {
      const { index, result } = ev.test;
      this.#finish(index);
      if (result) this.#emit("test", { index, ...testFromWire(result, format.encoding) });
    }
  }

  /** The terminal record: the last output, then `completed`; every stream ends. */
  completed(rec: ResultRecord): void {
    if (this.#log.completedId !== undefined) return;
    this.#finish(null);
    const id = this.#log.markCompleted();
    this.#feed.end(sseFrame(id, "completed", rec));
  }

  /**
   * The events after `after`, then (unless already completed) the live ones; "busy" when
   * MAX_LIVE_STREAMS clients are following the run already (each holds the object's memory).
   */
  stream(after: number, record: () => ResultRecord | null): ReadableStream<Uint8Array> | "busy" {
    const done = this.#log.completedId !== undefined;
    if (!done && this.#feed.clients >= MAX_LIVE_STREAMS) return "busy";
    if (!done) this.#log.persistEagerly();
    const backlog = this.#log.replay(after, (id) => sseFrame(id, "completed", record()));
    return this.#feed.open(backlog, done);
  }

  #output(out: Output, format: StreamFormat): void {
    const stream = out.stream === OutputStream.OUTPUT_STREAM_STDERR ? "stderr" : out.stream === OutputStream.OUTPUT_STREAM_STDOUT ? "stdout" : null;
    if (!stream || out.data.length === 0) return;
    this.#text ??= new OutputText(format.encoding);
    this.#tests = format.tests;
    const key = `${stream}:${out.testIndex}`;
    if (this.#held.has(key) || this.#log.outputs >= OUTPUT_EVENT_CAP) {
      const full = this.#held.add(key, out.data);
      if (full) this.#chunk(stream, out.testIndex, this.#text.take(key, full));
    } else this.#chunk(stream, out.testIndex, this.#text.take(key, out.data));
  }

  /** Sends what is held or half-decoded for one test's streams (null: every stream). */
  #finish(test: number | null): void {
    const text = this.#text;
    if (!text) return;
    for (const stream of ["stdout", "stderr"] as const) {
      const keys = new Set([...this.#held.keys(), ...text.keys()].filter((k) => k.startsWith(`${stream}:`) && (test === null || k === `${stream}:${test}`)));
      for (const key of keys) {
        const index = Number(key.slice(stream.length + 1));
        const bytes = this.#held.finish(key);
        this.#chunk(stream, index, (bytes.length > 0 ? text.take(key, bytes) : "") + text.finish(key));
      }
    }
  }

  #chunk(stream: "stdout" | "stderr", test: number, data: string): void {
    if (data === "") return;
    this.#emit(stream, this.#tests ? { data, test } : { data }, true);
  }

  #emit(event: string, data: unknown, output = false): void {
    if (this.#log.completedId !== undefined) return;
    const { frame } = this.#log.append((id) => sseFrame(id, event, data), output);
    this.#feed.send(frame);
  }
}
