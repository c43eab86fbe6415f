// A run's streamed output as the record writes it: UTF-8 text, or base64 of the raw bytes. Each
// stream of each test keeps the bytes of a character split across two chunks (at most 3) until
// the character is whole, so every chunk is a whole range of the stream's bytes: a chunk is stored
// as those bytes (event-log.ts) and decodes to its text whenever it is sent, and the concatenated
// chunks of a stream equal the record's text (utf8) or, decoded, its bytes (base64).
import { toBase64 } from "../../../proto/base64.ts";
import type { Encoding } from "../../../proto/record.ts";
import type { JsonText } from "../lib/json-pieces.ts";

const decoder = new TextDecoder("utf-8");
/** Bytes decoded and escaped at once when output's JSON is made as it is read (a multiple of 3: whole base64 groups). */
const SLICE_BYTES = 12 * 1024;
/** Bytes read at once: whole stored pieces (output-store.ts, 64 KiB), each read once, and whole slices. */
const READ_BYTES = 16 * SLICE_BYTES;

/** A stream's bytes in the record's encoding (a whole range: see heldTail). */
export function outputView(bytes: Uint8Array, encoding: Encoding): string {
  return encoding === "base64" ? toBase64(bytes) : decoder.decode(bytes);
}

/**
 * outputView of `length` bytes as a JSON string made as it is read (lib/json-pieces.ts): read,
 * decoded and escaped a slice at a time, so no string of the whole output exists. The decoder
 * keeps a character split across two slices for the next: the text is outputView's.
 */
export function outputJson(length: number, read: (from: number, to: number) => Uint8Array, encoding: Encoding): JsonText {
  return {
    jsonText: true,
    *escaped() {
      const streaming = new TextDecoder("utf-8");
      for (let at = 0; at < length; at += READ_BYTES) {
        const block = read(at, Math.min(length, at + READ_BYTES));
        for (let i = 0; i < block.length; i += SLICE_BYTES) {
          const bytes = block.subarray(i, i + SLICE_BYTES);
          yield JSON.stringify(encoding === "base64" ? toBase64(bytes) : streaming.decode(bytes, { stream: true })).slice(1, -1);
        }
      }
      if (encoding === "utf8") yield JSON.stringify(streaming.decode()).slice(1, -1);
    },
  };
}

/** outputJson of bytes in memory. */
export const bytesJson = (bytes: Uint8Array, encoding: Encoding): JsonText => outputJson(bytes.length, (from, to) => bytes.subarray(from, to), encoding);

/** Bytes of a UTF-8 sequence begun by `lead` (0: not a lead byte a valid sequence starts with). */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Whether `next` may follow `lead` as its first continuation byte (WHATWG's UTF-8 decoder). */
function firstContinuationOk(lead: number, next: number): boolean {
  const [low, high] = lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
  return next >= low && next <= high;
}

/**
 * How many bytes at the end of `bytes` begin a character not yet whole (what a streaming
 * TextDecoder holds back): 0 to 3. Looks at the last 3 bytes only.
 */
export function heldTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const at = bytes.length - back;
    const byte = bytes[at]!;
    if (byte >= 0x80 && byte <= 0xbf) continue; // a continuation: its lead is further back
    const need = sequenceLength(byte);
    if (need <= back) return 0;
    for (let i = at + 1; i < bytes.length; i++) {
      const ok = i === at + 1 ? firstContinuationOk(byte, bytes[i]!) : bytes[i]! >= 0x80 && bytes[i]! <= 0xbf;
      if (!ok) return 0;
    }
    return back;
  }
  return 0;
}

const EMPTY = new Uint8Array(0);

/**
 * Cuts each stream's chunks at character boundaries (utf8; base64 chunks are any bytes): what a
 * chunk returns is a whole range of the stream's bytes, whose outputView is the chunk's text.
 */
export class OutputChunks {
  readonly #encoding: Encoding;
  /** Bytes of an unfinished character, by stream key (utf8 only). */
  readonly #carry = new Map<string, Uint8Array>();

  constructor(encoding: Encoding) {
    this.#encoding = encoding;
  }

  /** The whole range `bytes` end for the stream `key`; empty when they end inside a character (held for the next). */
  take(key: string, bytes: Uint8Array): Uint8Array {
    if (this.#encoding === "base64") return bytes;
    const carry = this.#carry.get(key);
    const all = carry ? concat(carry, bytes) : bytes;
    const held = heldTail(all);
    if (held > 0) this.#carry.set(key, all.slice(all.length - held));
    else this.#carry.delete(key);
    return held > 0 ? all.subarray(0, all.length - held) : all;
  }

  /** What a stream still holds (an unfinished character: its text is U+FFFD, as the record has it). */
  finish(key: string): Uint8Array {
    const carry = this.#carry.get(key) ?? EMPTY;
    this.#carry.delete(key);
    return carry;
  }

  /** Keys still holding bytes, to finish at the end of the run. */
  keys(): string[] {
    return [...this.#carry.keys()];
  }
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
