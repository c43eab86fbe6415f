// A live session's stdin flow control (docs/live-sessions.md): at most `size` bytes sent and not
// yet acknowledged (the server's stdin_ack carries `taken`, the bytes its node has taken so far).
// Also the cutting of a write into messages that each fit the window.

export class StdinWindow {
  readonly size: number;
  #sent: number;
  #taken = 0;
  #failure: unknown = undefined;
  #waiters: { bytes: number; resolve: () => void; reject: (error: unknown) => void }[] = [];

  /** `sent`: bytes already counted against the window (a `start`'s own stdin). */
  constructor(size: number, sent = 0) {
    if (!(size > 0)) throw new RangeError(`a stdin window must be positive, not ${size}`);
    this.size = size;
    this.#sent = sent;
  }

  get sent(): number {
    return this.#sent;
  }

  get taken(): number {
    return this.#taken;
  }

  get unacknowledged(): number {
    return this.#sent - this.#taken;
  }

  fits(bytes: number): boolean {
    return this.unacknowledged + bytes <= this.size;
  }

  /** Resolves once `bytes` more fit in the window; rejects once the window has failed. */
  room(bytes: number): Promise<void> {
    if (bytes > this.size) return Promise.reject(new RangeError(`${bytes} bytes never fit a window of ${this.size}`));
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#waiters.length === 0 && this.fits(bytes)) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ bytes, resolve, reject }));
  }

  /** Counts `bytes` as sent; the caller has waited for room(bytes). */
  sending(bytes: number): void {
    if (!this.fits(bytes)) throw new RangeError(`${bytes} bytes do not fit: ${this.unacknowledged} of ${this.size} unacknowledged`);
    this.#sent += bytes;
  }

  /** A stdin_ack: the first `taken` bytes are taken. Acks only grow; waiters are woken in order. */
  ack(taken: number): void {
    this.#taken = Math.min(this.#sent, Math.max(this.#taken, taken));
    while (this.#waiters.length > 0 && this.fits(this.#waiters[0]!.bytes)) this.#waiters.shift()!.resolve();
  }

  /** No more room ever (the session closed): every waiter, present and future, rejects with `error`. */
  fail(error: unknown): void {
    this.#failure ??= error;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(this.#failure);
  }
}

/** `bytes` cut into pieces of at most `max` bytes. */
export function chunkBytes(bytes: Uint8Array, max: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += max) pieces.push(bytes.subarray(at, at + max));
  return pieces;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `text` cut into pieces of at most `max` UTF-8 bytes each, never inside a character; with each piece's size. */
export function chunkText(text: string, max: number): { text: string; bytes: number }[] {
  const bytes = encoder.encode(text);
  const pieces: { text: string; bytes: number }[] = [];
  for (let at = 0; at < bytes.length; ) {
    let end = Math.min(bytes.length, at + max);
    // A byte 10xxxxxx continues a character: cut before the character starts instead.
    while (end < bytes.length && end > at && (bytes[end]! & 0xc0) === 0x80) end--;
    if (end === at) throw new RangeError(`a window of ${max} bytes is smaller than one character`);
    pieces.push({ text: decoder.decode(bytes.subarray(at, end)), bytes: end - at });
    at = end;
  }
  return pieces;
}

/** Standard base64 of `bytes` (btoa exists in every runtime the SDK runs in). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
