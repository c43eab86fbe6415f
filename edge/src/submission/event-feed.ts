// Delivery of a submission's events to the clients streaming them: one byte stream each. Its
// backlog (the stored events after the client's resume point) is read as the client reads, a
// page at a time, so a long finished run is replayed from storage in constant memory; then the
// live events follow, with an SSE comment as heartbeat while nothing else flows. A client that
// goes away cancels its stream, which drops it here (and the heartbeat with the last one). A
// client that reads too slowly is cut off once too much waits for it; it resumes with Last-Event-ID.
import { sseComment } from "../lib/sse.ts";

/** Bytes written to one client and not yet read before it is cut off. */
const MAX_BEHIND_BYTES = 8 * 1024 * 1024;
/** Backlog bytes read from storage per pull (and the stream's queue's high-water mark). */
const PAGE_BYTES = 64 * 1024;

interface Sink {
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Stored events not yet read into the stream; null once drained. */
  backlog: Iterator<string> | null;
  /** Live frames that came while the backlog was still being read. */
  waiting: Uint8Array[];
  waitingBytes: number;
  /** The last frame (the record: possibly large), read as the client reads after everything else. */
  last: Iterator<string> | null;
  /** No live event will come: close once the backlog and waiting frames are out. */
  ended: boolean;
  closed: boolean;
}

const encoder = new TextEncoder();

export class EventFeed {
  readonly #sinks = new Set<Sink>();
  readonly #heartbeatMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(heartbeatMs: number) {
    this.#heartbeatMs = heartbeatMs;
  }

  get clients(): number {
    return this.#sinks.size;
  }

  /** A stream that first carries `backlog` (read as the client reads), then every event sent here; ended after the backlog when `ended`. */
  open(backlog: Iterator<string>, ended: boolean): ReadableStream<Uint8Array> {
    let sink!: Sink;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        sink = { controller, backlog, waiting: [], waitingBytes: 0, last: null, ended, closed: false };
      },
      pull: () => this.#pull(sink),
      cancel: () => this.#drop(sink),
    }, { highWaterMark: PAGE_BYTES, size: (chunk) => chunk.byteLength });
    if (!ended) {
      this.#sinks.add(sink);
      this.#heartbeat();
    }
    return stream;
  }

  /** A frame, whole or in pieces (each encoded once for every client). */
  send(frame: string | Iterable<string>): void {
    if (this.#sinks.size === 0) return;
    for (const piece of typeof frame === "string" ? [frame] : frame) {
      const bytes = encoder.encode(piece);
      for (const sink of this.#sinks) this.#write(sink, bytes);
    }
  }

  /**
   * Ends every stream with the last frame (made only if someone follows), each client reading it
   * as it reads: a large record is never queued whole for a follower.
   */
  end(frame: () => Iterable<string>): void {
    for (const sink of [...this.#sinks]) {
      this.#drop(sink);
      sink.last = frame()[Symbol.iterator]();
      sink.ended = true;
      this.#pull(sink);
    }
  }

  #pull(sink: Sink): void {
    if (sink.closed) return;
    const read = this.#drain(sink, "backlog", 0);
    if (sink.backlog !== null) return;
    for (const bytes of sink.waiting) sink.controller.enqueue(bytes);
    sink.waiting = [];
    sink.waitingBytes = 0;
    this.#drain(sink, "last", read);
    if (sink.last === null && sink.ended) this.#close(sink);
  }

  /** Reads the sink's backlog or last frame into its stream up to a page; `read`: bytes read so far in this pull. */
  #drain(sink: Sink, which: "backlog" | "last", read: number): number {
    while (sink[which] !== null && read < PAGE_BYTES) {
      const next = sink[which]!.next();
      if (next.done) {
        sink[which] = null;
        break;
      }
      const bytes = encoder.encode(next.value);
      sink.controller.enqueue(bytes);
      read += bytes.length;
    }
    return read;
  }

  #write(sink: Sink, bytes: Uint8Array): void {
    const behind = sink.backlog !== null ? sink.waitingBytes : -(sink.controller.desiredSize ?? 0);
    if (behind > MAX_BEHIND_BYTES) {
      this.#drop(sink);
      sink.closed = true;
      sink.controller.error(new Error("the client fell too far behind; resume with Last-Event-ID"));
      return;
    }
    if (sink.backlog !== null) {
      sink.waiting.push(bytes);
      sink.waitingBytes += bytes.length;
    } else sink.controller.enqueue(bytes);
  }

  #close(sink: Sink): void {
    this.#drop(sink);
    if (sink.closed) return;
    sink.closed = true;
    sink.controller.close();
  }

  #drop(sink: Sink): void {
    this.#sinks.delete(sink);
    if (this.#sinks.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #heartbeat(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.send(sseComment("heartbeat")), this.#heartbeatMs);
  }
}
