// SessionDO's surface (do/session-do.ts): one object per live session, named by the session's id.
// The Worker's route hands it each WebSocket to accept (its fetch, told how the socket was opened);
// its submission's object pushes it the run's events in order, one batch at a time (its RPC).
import type { ResultRecord } from "../../../proto/record.ts";
import type { Caller } from "./key.ts";
import type { NodeTarget } from "./scheduler.ts";

/** The header the Worker's route tells the object how the socket was opened in (never a client's). */
export const OPEN_HEADER = "x-codecell-session-open";

/** How a socket was opened (the Worker's route, routes/sessions.ts, after the key checked out). */
export interface OpenSession {
  dialect: "native" | "piston";
  session: string;
  caller: Caller;
  pool: string;
  /** A reconnect to a session that exists (GET /api/sessions/{id}). */
  resume: boolean;
  /** The socket's token in its key's count of open sockets (KeyDO.liveSocket), given back at its close. */
  socket: string;
}

/** What the run of a session did, as its SubmissionDO learnt it. */
export type SessionEvent =
  /** The node running it (where its stdin goes). */
  | { kind: "node"; node: NodeTarget }
  | { kind: "stage"; stage: string }
  | { kind: "output"; stream: "stdout" | "stderr"; data: string }
  | { kind: "result"; record: ResultRecord };

export interface SessionRpc {
  push(events: SessionEvent[]): Promise<void>;
}
