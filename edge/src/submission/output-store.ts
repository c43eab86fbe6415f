// A finished record's output in its shard: each stream's raw bytes in pieces under
// `out:<place>:<stream>:<n>` (place: `top` or a test's index), its length under `out:<place>:<stream>`.
// The output's one home: event replays read ranges of it (event-log.ts), and a record read
// decodes it (store.ts). Written and read through, never kept in memory.
import type { BulkKv } from "../lib/scoped-kv.ts";
import type { Place, StreamName } from "./output-bytes.ts";

/** Bytes per stored piece (a range read touches only the pieces it needs). */
export const PIECE_BYTES = 64 * 1024;

const EMPTY = new Uint8Array(0);

export class OutputStore {
  readonly #kv: BulkKv;

  constructor(kv: BulkKv) {
    this.#kv = kv;
  }

  put(place: Place, stream: StreamName, bytes: Uint8Array): void {
    const key = `out:${place}:${stream}`;
    for (let n = 0; n * PIECE_BYTES < bytes.length; n++) this.#kv.putThrough(`${key}:${n}`, bytes.slice(n * PIECE_BYTES, (n + 1) * PIECE_BYTES));
    this.#kv.put(key, bytes.length);
  }

  /** The stream's length; undefined when nothing is stored for it. */
  length(place: Place, stream: StreamName): number | undefined {
    return this.#kv.get<number>(`out:${place}:${stream}`);
  }

  /** Bytes [from, to) of a stream (clamped to what is stored). */
  read(place: Place, stream: StreamName, from = 0, to = Number.MAX_SAFE_INTEGER): Uint8Array {
    const key = `out:${place}:${stream}`;
    const end = Math.min(to, this.length(place, stream) ?? 0);
    if (from >= end) return EMPTY;
    const out = new Uint8Array(end - from);
    for (let n = Math.floor(from / PIECE_BYTES); n * PIECE_BYTES < end; n++) {
      const piece = this.#kv.getThrough<Uint8Array>(`${key}:${n}`) ?? EMPTY;
      const base = n * PIECE_BYTES;
      const part = piece.subarray(Math.max(0, from - base), Math.min(piece.length, end - base));
      out.set(part, base + Math.max(0, from - base) - from);
    }
    return out;
  }
}
