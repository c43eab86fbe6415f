import type { Readable } from "node:stream";
import type { OutputIntegrity } from "./types.ts";

/** Captures up to `cap` bytes of a stream, drains and counts the rest (never back-pressures the program). */
export class CappedCapture {
  readonly #cap: number;
  readonly #chunks: Buffer[] = [];
  #captured = 0;
  total = 0;
  error: string | undefined;
  readonly done: Promise<void>;

  constructor(stream: Readable, cap: number) {
    this.#cap = cap;
    this.done = new Promise((resolve) => {
      stream.on("data", (chunk: Buffer) => this.#take(chunk));
      stream.on("error", (error) => {
        this.error = error.message;
        resolve();
      });
      stream.on("close", () => resolve());
    });
  }

  #take(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.#cap - this.#captured;
    if (room <= 0) return;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#chunks.push(kept);
    this.#captured += kept.length;
  }

  get truncated(): boolean {
    return this.total > this.#cap;
  }

  get discarded(): number {
    return this.total - this.#captured;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

export interface IntegrityInput {
  streams: { truncated: boolean; error: string | undefined; bytes: Buffer }[];
  /** The program was ended by a signal (its own crash, the platform's kill, anything). */
  endedBySignal: boolean;
}

/**
 * output_integrity (spec §2.2), first match wins:
 * write_error — reading a capture pipe failed; truncated_by_judge_limit — a stream passed the
 * capture cap; crash_mid_write — the program was ended by a signal and a stream stops in the
 * middle of a line (the last byte written is not a newline); complete — otherwise.
 */
export function outputIntegrity(input: IntegrityInput): OutputIntegrity {
  if (input.streams.some((stream) => stream.error !== undefined)) return "write_error";
  if (input.streams.some((stream) => stream.truncated)) return "truncated_by_judge_limit";
  const cutMidLine = input.streams.some((stream) => stream.bytes.length > 0 && stream.bytes.at(-1) !== 0x0a);
  if (input.endedBySignal && cutMidLine) return "crash_mid_write";
  return "complete";
}
