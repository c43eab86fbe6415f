// Server-Sent Events framing (text/event-stream) and the resume point a client asks for. Pure.
import { jsonChunks } from "./json-pieces.ts";

/** One event: `id`, `event` and a one-line JSON `data` (JSON never holds a raw newline). */
export function sseFrame(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** sseFrame in chunks (json-pieces.ts): a frame with large data (a record, a test's output) is never one string. */
export function* sseFramePieces(id: number, event: string, data: unknown): Generator<string> {
  yield `id: ${id}\nevent: ${event}\ndata: `;
  yield* jsonChunks(data);
  yield "\n\n";
}

/** A comment line: ignored by clients, keeps proxies from closing an idle stream. */
export function sseComment(text: string): string {
  return `: ${text}\n\n`;
}

export type ResumePoint = { ok: true; after: number } | { ok: false; field: string; value: string };

const MAX_EVENT_ID = 2 ** 31 - 1;

/**
 * The last event id the client saw: the `Last-Event-ID` header (what a reconnecting EventSource
 * sends), else `?last_event_id=`; 0 when neither. A decimal integer 0..2^31-1, or the field is named as bad.
 */
export function resumePoint(header: string | null, query: string | null): ResumePoint {
  const [field, raw] = header !== null ? ["Last-Event-ID", header] : ["last_event_id", query];
  if (raw === null) return { ok: true, after: 0 };
  const value = raw.trim();
  if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_EVENT_ID) return { ok: false, field, value: raw.slice(0, 40) };
  return { ok: true, after: Number(value) };
}
