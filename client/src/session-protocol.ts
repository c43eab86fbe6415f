// Reading a live session's server messages (GET /api/sessions, docs/live-sessions.md). The messages'
// types are generated from the server's own schemas (api.gen.ts, named in api-types.ts).
import type { SessionServerMessage } from "./api-types.ts";

const KNOWN = ["accepted", "stage", "stdout", "stderr", "stdin_ack", "result", "error", "attached"] as const;
// Every server message's type is known here: a message added to the contract fails this typecheck until it is.
const everyTypeKnown: Exclude<SessionServerMessage["type"], (typeof KNOWN)[number]> extends never ? true : never = true;
void everyTypeKnown;
const KNOWN_TYPES = new Set<string>(KNOWN);

/** A text frame as a server message, or null when it is none (not JSON, no known `type`). */
export function parseServerMessage(frame: unknown): SessionServerMessage | null {
  if (typeof frame !== "string") return null;
  let message: unknown;
  try {
    message = JSON.parse(frame);
  } catch {
    return null;
  }
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === "string" && KNOWN_TYPES.has(type) ? (message as SessionServerMessage) : null;
}
