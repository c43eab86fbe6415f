// What a live session's object keeps on each WebSocket and in storage (do/session-do.ts), and
// sending a reply on a socket. How a socket was opened is the object's contract (contracts/session.ts).
import type { Caller } from "../contracts/key.ts";
import type { SessionCaps } from "../plans/plan-caps.ts";
import type { Reply } from "./dialect.ts";

export interface SocketState {
  dialect: "native" | "piston";
  session: string;
  caller: Caller;
  pool: string;
  started: boolean;
  stage: string | null;
  opened_ms: number;
  /** A reconnect not answered yet (the alarm answers it). */
  attach: boolean;
  /** The session's stdin count when this socket last sent (read back after a wake-up). */
  received?: number;
  /** Its token in the key's count of open sockets. */
  socket?: string;
}

/** The session once admitted: stored once, so that a reconnect and a wake-up find it. */
export interface Session {
  id: string;
  session: string;
  account_id: string;
  /** Only keys of this project attach to the session. */
  project_id: string;
  caps: SessionCaps;
  created_ms: number;
  /** Stdin bytes the client sent in all (the cap counts them). */
  received: number;
  done: boolean;
}

/** Sends a reply's messages, then its close; a client already gone is no error (the run goes on, or was told to stop). */
export function sendReply(ws: WebSocket, reply: Reply): void {
  try {
    for (const m of reply.messages) ws.send(m);
    if (reply.close) ws.close(reply.close.code, reply.close.reason);
  } catch {
    // the client is gone
  }
}
