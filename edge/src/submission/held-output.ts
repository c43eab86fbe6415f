// Output past OUTPUT_EVENT_CAP (events.ts): a stream's chunks are held and sent as one event when
// their test (or the run) ends, or as soon as HELD_OUTPUT_BYTES of them are held, so that neither
// the number of events nor the memory they take grows with what a program prints. Pure.
import { HELD_OUTPUT_BYTES } from "./budgets.ts";

interface Held {
  parts: Uint8Array[];
  bytes: number;
}

export class HeldOutput {
  readonly #held = new Map<string, Held>();

  /** Whether the stream `key` is being held (once held, it stays so until finished). */
  has(key: string): boolean {
    return this.#held.has(key);
  }

  keys(): IterableIterator<string> {
    return this.#held.keys();
  }

  /** Holds `data`; returns the held bytes (and empties the hold) once they reach the budget, else null. */
  add(key: string, data: Uint8Array): Uint8Array | null {
    let held = this.#held.get(key);
    if (!held) this.#held.set(key, (held = { parts: [], bytes: 0 }));
    held.parts.push(data);
    held.bytes += data.length;
    if (held.bytes < HELD_OUTPUT_BYTES) return null;
    const out = concat(held.parts);
    held.parts = [];
    held.bytes = 0;
    return out;
  }

  /** What is still held for `key` (maybe empty); the stream is no longer held. */
  finish(key: string): Uint8Array {
    const held = this.#held.get(key);
    this.#held.delete(key);
    return held ? concat(held.parts) : new Uint8Array(0);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
