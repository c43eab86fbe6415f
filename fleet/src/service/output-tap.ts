// The program's output as Output events: writes that arrive within one event-loop turn are
// coalesced into one event per stream (a hello world costs one event), in order.
import type { Run } from "./run-registry.ts";

type Stream = "stdout" | "stderr";

export class OutputTap {
  readonly #run: Run;
  #pending: { stream: Stream; parts: Uint8Array[] }[] = [];
  #scheduled = false;

  constructor(run: Run) {
    this.#run = run;
  }

  readonly take = (stream: Stream, data: Uint8Array): void => {
    if (data.length === 0) return;
    const last = this.#pending.at(-1);
    if (last?.stream === stream) last.parts.push(data);
    else this.#pending.push({ stream, parts: [data] });
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  };

  /** Publishes what is pending now (also called before the run's completion is published). */
  flush(): void {
    this.#scheduled = false;
    const pending = this.#pending;
    this.#pending = [];
    for (const { stream, parts } of pending) this.#run.output(stream, parts.length === 1 ? parts[0]! : Buffer.concat(parts));
  }
}
