// gRPC-Web wire format (binary, `application/grpc-web+proto`): a stream of frames, each
// 1 flag byte (0x00 data, 0x80 trailers) + 4-byte big-endian length + payload. The trailers
// frame carries HTTP/1-style header lines. Pure, so it is unit tested on its own.

export const FLAG_DATA = 0x00;
export const FLAG_TRAILERS = 0x80;

export interface Frame {
  trailers: boolean;
  payload: Uint8Array;
}

export function encodeFrame(payload: Uint8Array, flag: number = FLAG_DATA): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  out[0] = flag;
  new DataView(out.buffer).setUint32(1, payload.length, false);
  out.set(payload, 5);
  return out;
}

/** Largest frame we accept; a result carries at most 2 MiB of captured output plus evidence. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * Incremental frame parser: feed it chunks exactly as the network delivers them (a frame may span
 * chunks, a chunk may hold many frames) and it returns every frame completed so far.
 */
export class FrameParser {
  #buf: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): Frame[] {
    if (this.#buf.length === 0) this.#buf = chunk;
    else {
      const merged = new Uint8Array(this.#buf.length + chunk.length);
      merged.set(this.#buf);
      merged.set(chunk, this.#buf.length);
      this.#buf = merged;
    }
    const frames: Frame[] = [];
    let off = 0;
    while (this.#buf.length - off >= 5) {
      const flag = this.#buf[off] ?? 0;
      const len = new DataView(this.#buf.buffer, this.#buf.byteOffset + off + 1, 4).getUint32(0, false);
      if (len > MAX_FRAME_BYTES) throw new Error(`gRPC-Web frame of ${len} bytes exceeds the limit`);
      if (this.#buf.length - off - 5 < len) break;
      frames.push({ trailers: (flag & FLAG_TRAILERS) !== 0, payload: this.#buf.slice(off + 5, off + 5 + len) });
      off += 5 + len;
    }
    this.#buf = this.#buf.slice(off);
    return frames;
  }

  /** Bytes received that do not yet form a whole frame (non-zero at end of stream = truncated). */
  get pending(): number {
    return this.#buf.length;
  }
}

/** Parses a trailers frame body: `name: value\r\n` lines, names lower-cased. */
export function parseTrailers(payload: Uint8Array): Record<string, string> {
  const text = new TextDecoder().decode(payload);
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

/** grpc-message is percent-encoded on the wire. */
export function decodeGrpcMessage(value: string | null | undefined): string {
  if (!value) return "";
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export const GRPC_STATUS_NAMES: Record<number, string> = {
  0: "OK", 1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED", 5: "NOT_FOUND",
  6: "ALREADY_EXISTS", 7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED", 9: "FAILED_PRECONDITION",
  10: "ABORTED", 11: "OUT_OF_RANGE", 12: "UNIMPLEMENTED", 13: "INTERNAL", 14: "UNAVAILABLE",
  15: "DATA_LOSS", 16: "UNAUTHENTICATED",
};
