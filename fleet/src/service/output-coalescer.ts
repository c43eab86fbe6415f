// Output events: the writes that arrive within one event-loop turn for the same stream and test
// become one event (a hello world is one Output event, not one per write).
import { OutputStream, type Output } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";

type Stream = "stdout" | "stderr";

export class OutputCoalescer {
  readonly #emit: (output: Output) => void;
  #pending: { stream: Stream; test: number; chunks: Uint8Array[] } | undefined;
  #scheduled = false;

  constructor(emit: (output: Output) => void) {
    this.#emit = emit;
  }

  write(stream: Stream, data: Uint8Array, test: number): void {
    if (data.byteLength === 0) return;
    if (this.#pending && (this.#pending.stream !== stream || this.#pending.test !== test)) this.flush();
    this.#pending ??= { stream, test, chunks: [] };
    // The sandbox may reuse its buffer after the call: keep a copy.
    this.#pending.chunks.push(Uint8Array.from(data));
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.flush();
      });
    }
  }

  /** Sends what is pending now (before a test or completion event, so order is kept). */
  flush(): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = undefined;
    this.#emit({
      stream: pending.stream === "stdout" ? OutputStream.OUTPUT_STREAM_STDOUT : OutputStream.OUTPUT_STREAM_STDERR,
      data: Buffer.concat(pending.chunks),
      testIndex: pending.test,
    });
  }
}
