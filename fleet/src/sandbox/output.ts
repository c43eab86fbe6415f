import type { Readable } from "node:stream";
import type { OutputIntegrity } from "./run-spec.ts";

/** Receives each captured chunk as it arrives; never more than the capture keeps. */
export type OutputTap = (data: Buffer) => void;

/** Captures up to `cap` bytes of a stream, drains and counts the rest (never back-pressures the program). */
export class CappedCapture {
  readonly #cap: number;
  readonly #chunks: Buffer[] = [];
  #captured = 0;
  #tap: OutputTap | undefined;
  total = 0;
  error: string | undefined;
  /** The tap threw: the first message (the capture itself goes on). */
  tapError: string | undefined;
  readonly done: Promise<void>;

  constructor(stream: Readable, cap: number, tap?: OutputTap) {
    this.#cap = cap;
    this.#tap = tap;
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
    this.#deliver(kept);
  }

  #deliver(kept: Buffer): void {
    if (!this.#tap || kept.length === 0) return;
    try {
      // a copy: the receiver may keep or change it without touching the captured bytes
      this.#tap(Buffer.from(kept));
    } catch (error) {
      this.tapError ??= error instanceof Error ? error.message : String(error);
    }
  }

  /** No chunk is delivered after this (the run's outcome is about to be returned). */
  closeTap(): void {
    this.#tap = undefined;
  }

  /** The drainer's count of what the program wrote (it forwards only the first `cap` bytes). */
  setWrittenTotal(total: number | undefined): void {
    if (total !== undefined && total > this.total) this.total = total;
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
 * output_integrity (docs/api.md), first match wins:
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

/**
 * A stream's JSON-encoded size may be at most this many times the capture limit (docs/sandbox.md):
 * ordinary text (newlines, quotes) never reaches it; control characters or invalid UTF-8 do.
 */
export const ENCODED_OUTPUT_FACTOR = 2;

/** Bytes `JSON.stringify` spends on one UTF-16 code unit of a string (UTF-8 output). */
function encodedUnitBytes(unit: number): number {
  if (unit === 0x22 || unit === 0x5c) return 2; // \" \\
  if (unit < 0x20) return unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d ? 2 : 6; // \n or \u0001
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  if (unit >= 0xd800 && unit <= 0xdfff) return 2; // half of a 4-byte pair
  return 3;
}

/**
 * Caps a captured stream by the size of its JSON-encoded form, not only its raw bytes: a control
 * character costs 6 bytes in the record (`\u0001`), an invalid UTF-8 byte 3 (U+FFFD). The text is
 * cut at the last whole character that fits; `cut` then marks the stream truncated_by_judge_limit.
 */
export function capEncodedSize(text: string, maxEncodedBytes: number): { text: string; cut: boolean } {
  let size = 0;
  for (let index = 0; index < text.length; index++) {
    size += encodedUnitBytes(text.charCodeAt(index));
    if (size > maxEncodedBytes) {
      // never keep half of a surrogate pair
      const end = index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) ? index - 1 : index;
      return { text: text.slice(0, end), cut: true };
    }
  }
  return { text, cut: false };
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
