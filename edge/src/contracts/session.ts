// SessionDO's RPC surface (do/session-do.ts): one object per live session, named by the session's
// id. Its submission's object pushes it the run's events in order, one batch at a time.
import type { ResultRecord } from "../../../proto/record.ts";
import type { NodeTarget } from "./scheduler.ts";

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
