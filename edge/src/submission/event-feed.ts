// Live delivery of a submission's events to the clients streaming them: one byte stream each, fed
// as events are stored, with an SSE comment as heartbeat while nothing else flows. A client that
// goes away makes its next write fail, which drops it here (and the heartbeat with the last one).
// A client that reads too slowly is cut off once too much waits for it; it resumes with Last-Event-ID.
import { sseComment } from "../lib/sse.ts";

/** Bytes written to one client and not yet read before it is cut off. */
const MAX_BEHIND_BYTES = 8 * 1024 * 1024;

interface Sink {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Bytes written and not yet taken by the reader. */
  behind: number;
}

export class EventFeed {
  readonly #sinks = new Set<Sink>();
  readonly #heartbeatMs: number;
  readonly #encoder = new TextEncoder();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(heartbeatMs: number) {
    this.#heartbeatMs = heartbeatMs;
  }

  get clients(): number {
    return this.#sinks.size;
  }

  /** A stream that first carries `backlog`, then every event sent here; ended at once when `ended`. */
  open(backlog: Iterable<string>, ended: boolean): ReadableStream<Uint8Array> {
    const pipe = new IdentityTransformStream();
    const sink: Sink = { writer: pipe.writable.getWriter(), behind: 0 };
    this.#sinks.add(sink);
    for (const frame of backlog) this.#write(sink, this.#encoder.encode(frame));
    if (ended) this.#close(sink);
    else this.#heartbeat();
    return pipe.readable;
  }

  send(frame: string): void {
    if (this.#sinks.size === 0) return;
    const bytes = this.#encoder.encode(frame);
    for (const sink of this.#sinks) this.#write(sink, bytes);
  }

  /** Sends the last frame and ends every stream. */
  end(frame: string): void {
    this.send(frame);
    for (const sink of [...this.#sinks]) this.#close(sink);
  }

  #write(sink: Sink, bytes: Uint8Array): void {
    if (sink.behind > MAX_BEHIND_BYTES) {
      this.#drop(sink);
      sink.writer.abort(new Error("the client fell too far behind; resume with Last-Event-ID")).catch(() => {});
      return;
    }
    sink.behind += bytes.length;
    sink.writer.write(bytes).then(
      () => (sink.behind -= bytes.length),
      () => this.#drop(sink), // the reader is gone (the client disconnected)
    );
  }

  #close(sink: Sink): void {
    this.#drop(sink);
    sink.writer.close().catch(() => {});
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
