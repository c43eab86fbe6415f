// JSON responses and the one error type handlers throw. Every response the edge produces is JSON.
import { jsonChunks } from "./json-pieces.ts";

export class HttpError extends Error {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  constructor(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    super(typeof body.error === "string" ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/**
 * Below this many characters a JSON body goes out as it is. The front door (Cloudflare's, and
 * Miniflare's copy of it) compresses JSON for a client that accepts gzip or br unless the response
 * names an encoding of its own. A small run's record (about 1.4 KB) gains a few hundred bytes,
 * still one flight of packets, while the client pays for a decompressor: about 1 to 2 ms per
 * response with undici's fetch on the development VM. Larger bodies (long output, test sets,
 * listings) are compressed as before.
 */
export const COMPRESS_FROM_CHARS = 4096;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const encoding: Record<string, string> = text.length < COMPRESS_FROM_CHARS ? { "content-encoding": "identity" } : {};
  return new Response(text, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...encoding, ...headers },
  });
}

/** Output characters of a record past which its JSON is streamed (records with large output). */
export const STREAM_FROM_CHARS = 64 * 1024;

/**
 * `json` for a body that may be large: its JSON made a chunk at a time as the client reads
 * (lib/json-pieces.ts), so the Worker never holds it whole (a record's output escapes to up to 6
 * characters a byte). `large`: whether to stream; a small body goes out as `json` does.
 */
export function jsonStreamed(status: number, body: unknown, headers: Record<string, string>, large: boolean): Response {
  if (!large) return json(status, body, headers);
  return jsonBody(status, textStream(jsonChunks(body)), headers);
}

/** Text pieces as a byte stream, each made when the reader asks for more. */
export function textStream(chunks: Iterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}

/** A JSON answer whose body is made as it is read. */
export function jsonBody(status: number, body: ReadableStream<Uint8Array>, headers: Record<string, string>): Response {
  return new Response(body, { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers } });
}

/** A JSON body made as the client reads, from `parts` (pieces of JSON text, e.g. jsonChunks of each item). */
export function jsonFromParts(status: number, parts: AsyncIterator<string>, headers: Record<string, string>): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await parts.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  return jsonBody(status, stream, headers);
}

export function errorResponse(e: HttpError): Response {
  return json(e.status, e.body, e.headers);
}

/**
 * A body over its limit is still read (and dropped) up to this many bytes before the 413 leaves:
 * a client that is still sending would otherwise have its connection closed under it and lose the
 * answer (a reset discards what it had not read yet). Beyond it, the connection is closed at once.
 */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

const tooLarge = (limit: number) => new HttpError(413, { error: "request body too large", message: `the request body must not exceed ${limit} bytes` });

/** Reads a request body up to `limit` bytes; larger bodies fail with 413 without buffering them whole. */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  const declaredTooLarge = declared !== null && Number(declared) > limit;
  if (declaredTooLarge && Number(declared) > DRAIN_MAX_BYTES) throw tooLarge(limit);
  if (!request.body) {
    if (declaredTooLarge) throw tooLarge(limit);
    return new Uint8Array(0);
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit || declaredTooLarge) {
      // Read to the end (dropped, bounded by DRAIN_MAX_BYTES), so the 413 reaches the client.
      while (total <= DRAIN_MAX_BYTES) {
        const next = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (next.done) break;
        total += next.value.byteLength;
      }
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

/** Parses a JSON object body: content type, UTF-8 and JSON syntax are checked here, shape by zod later. */
/**
 * `anyMediaType`: the body is read as JSON whatever its declared type (the compatibility routes:
 * the peers' clients send JSON as text/plain or with no type at all).
 */
export async function readJsonObject(request: Request, limit: number, anyMediaType = false): Promise<Record<string, unknown>> {
  const ct = (request.headers.get("content-type") ?? "").toLowerCase();
  const [mediaType, ...params] = ct.split(";").map((s) => s.trim());
  if (mediaType !== "application/json" && !anyMediaType) {
    throw new HttpError(415, { error: "unsupported media type", message: "the request body must be JSON (content-type: application/json)" });
  }
  const charset = params.find((p) => p.startsWith("charset="))?.slice(8).replace(/"/g, "");
  if (charset && charset !== "utf-8" && charset !== "utf8") {
    throw new HttpError(415, { error: "unsupported media type", message: "the request body must be UTF-8 encoded JSON" });
  }
  const bytes = await readBodyLimited(request, limit);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new HttpError(400, { error: "invalid request body", message: "the request body is not valid UTF-8" });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, { error: "invalid request body", message: "the request body is not valid JSON" });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, { error: "invalid request body", message: "the request body must be a JSON object" });
  }
  return value as Record<string, unknown>;
}
