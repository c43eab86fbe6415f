// gRPC-Web wire format (binary, `application/grpc-web+proto`): a stream of frames, each
// 1 flag byte (0x00 data, 0x80 trailers) + 4-byte big-endian length + payload. The trailers
// frame carries HTTP/1-style header lines. Pure and runtime-neutral (workerd and Node): the
// edge's client and the fleet node's server frame with the same functions.

export const FLAG_DATA = 0x00;
export const FLAG_TRAILERS = 0x80;
export const CONTENT_TYPE = "application/grpc-web+proto";

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

/** The trailers frame that ends every call: grpc-status and the percent-encoded grpc-message. */
export function encodeTrailers(code: number, message: string): Uint8Array {
  const text = `grpc-status:${code}\r\ngrpc-message:${encodeURIComponent(message)}\r\n`;
  return encodeFrame(new TextEncoder().encode(text), FLAG_TRAILERS);
}

/**
 * Largest frame we accept. A node keeps every message below it: a result record carries at most
 * 8 MiB of output (its result budget, docs/fleet-node.md "Result budget") plus evidence.
 */
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

/**
 * The one message of a unary request body, or null when the body is not exactly one data frame
 * (`compressed` is set when the frame's flag says compressed, which we do not support).
 */
export function singleFrame(body: Uint8Array): { payload: Uint8Array } | { malformed: true; compressed: boolean } {
  if (body.length < 5 || body[0] !== FLAG_DATA) return { malformed: true, compressed: body[0] === 1 };
  const len = new DataView(body.buffer, body.byteOffset + 1, 4).getUint32(0, false);
  if (body.length !== 5 + len) return { malformed: true, compressed: false };
  return { payload: body.subarray(5) };
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
