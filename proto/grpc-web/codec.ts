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

/** The 5 bytes that precede a payload of `length` bytes: written apart, a large payload is not copied. */
export function frameHeader(length: number, flag: number = FLAG_DATA): Uint8Array {
  const out = new Uint8Array(5);
  out[0] = flag;
  new DataView(out.buffer).setUint32(1, length, false);
  return out;
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
 * its submission's output budget of output, 8 MiB at most (docs/fleet-node.md "Output budget"),
 * plus evidence.
 */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** A frame's declared length is over MAX_FRAME_BYTES: the peer sent more than we take in one message. */
export class FrameTooLargeError extends Error {
  readonly bytes: number;
  constructor(bytes: number) {
    super(`gRPC-Web frame of ${bytes} bytes exceeds the limit of ${MAX_FRAME_BYTES} bytes`);
    this.bytes = bytes;
  }
}

/**
 * Incremental frame parser: feed it chunks exactly as the network delivers them (a frame may span
 * chunks, a chunk may hold many frames) and it returns every frame completed so far. Linear in the
 * bytes fed: chunks are kept as they come and joined once, when a frame is whole.
 */
export class FrameParser {
  #chunks: Uint8Array[] = [];
  #length = 0;

  push(chunk: Uint8Array): Frame[] {
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#length += chunk.length;
    }
    const frames: Frame[] = [];
    while (this.#length >= 5) {
      const header = this.#peek(5);
      const len = new DataView(header.buffer, header.byteOffset, 5).getUint32(1, false);
      if (len > MAX_FRAME_BYTES) throw new FrameTooLargeError(len);
      if (this.#length - 5 < len) break;
      const frame = this.#take(5 + len);
      frames.push({ trailers: ((header[0] ?? 0) & FLAG_TRAILERS) !== 0, payload: frame.subarray(5) });
    }
    return frames;
  }

  /** Bytes received that do not yet form a whole frame (non-zero at end of stream = truncated). */
  get pending(): number {
    return this.#length;
  }

  /** The first `n` bytes (n ≤ length), without consuming them; copies only across chunks. */
  #peek(n: number): Uint8Array {
    const first = this.#chunks[0]!;
    if (first.length >= n) return first.subarray(0, n);
    return this.#join(n, false);
  }

  /** Removes and returns the first `n` bytes (n ≤ length) as one array. */
  #take(n: number): Uint8Array {
    const first = this.#chunks[0]!;
    if (first.length >= n) {
      const out = first.slice(0, n);
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
      this.#length -= n;
      return out;
    }
    return this.#join(n, true);
  }

  #join(n: number, consume: boolean): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    let index = 0;
    while (filled < n) {
      const chunk = this.#chunks[index]!;
      const part = Math.min(chunk.length, n - filled);
      out.set(chunk.subarray(0, part), filled);
      filled += part;
      if (!consume) index++;
      else if (part === chunk.length) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(part);
    }
    if (consume) this.#length -= n;
    return out;
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
