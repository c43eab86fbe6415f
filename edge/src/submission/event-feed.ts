// Live delivery of a submission's events to the clients streaming them: one ReadableStream each,
// fed as events are stored, with an SSE comment as heartbeat while nothing else flows. A client
// that goes away cancels its stream, which drops it here (and the heartbeat with the last one). A
// client that reads too slowly is cut off once too much waits for it; it resumes with Last-Event-ID.
import { sseComment } from "../lib/sse.ts";

/** Bytes queued for one client before it is cut off. */
const MAX_BEHIND_BYTES = 8 * 1024 * 1024;

type Sink = ReadableStreamDefaultController<Uint8Array>;

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
    let sink: Sink | undefined;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          sink = controller;
          for (const frame of backlog) controller.enqueue(this.#encoder.encode(frame));
          if (ended) return controller.close();
          this.#sinks.add(controller);
          this.#heartbeat();
        },
        cancel: () => {
          if (sink) this.#drop(sink);
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
    );
  }

  send(frame: string): void {
    if (this.#sinks.size === 0) return;
    const bytes = this.#encoder.encode(frame);
    for (const sink of this.#sinks) {
      if ((sink.desiredSize ?? 0) < -MAX_BEHIND_BYTES) {
        this.#drop(sink);
        sink.error(new Error("the client fell too far behind; resume with Last-Event-ID"));
      } else sink.enqueue(bytes);
    }
  }

  /** Sends the last frame and ends every stream. */
  end(frame: string): void {
    this.send(frame);
    for (const sink of [...this.#sinks]) {
      this.#drop(sink);
      sink.close();
    }
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
