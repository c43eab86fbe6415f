// SubmissionDO's RPC surface: one object per submission, owning its record and its run.
import type { ResultRecord } from "../../../proto/record.ts";
import type { NodeTarget } from "./scheduler.ts";

export interface CreateInput {
  id: string;
  language: string;
  code: string;
  stdin: string;
  account_id: string;
  project_id: string;
  key_hash: string;
  /** The pool to schedule in first (pools.ts); another takes the run when this one cannot. */
  pool: string;
  /** > 0: create holds until the record is terminal or this many ms passed (a synchronous submit). */
  wait_ms: number;
}

/** Where a synchronous submission's time went, in ms per hop (the Server-Timing header). */
export type HopTimes = Record<string, number>;

export type CreateResult =
  | { kind: "created"; queue_depth: number; record?: ResultRecord | null; hops?: HopTimes }
  | { kind: "queue_full"; queue_depth: number }
  | { kind: "unsupported"; available: string[] };

export interface SubmissionRpc {
  create(input: CreateInput): Promise<CreateResult>;
  /** Instantiates the object and its storage ahead of use (KeyDO's warm pool). Holds no record. */
  prewarm(): boolean;
  /** The record, or null when unknown or owned by another account (null: any account). */
  get(accountId: string | null): ResultRecord | null;
  /** The events after event `after` as text/event-stream bytes, live until completed; null when unknown or another account's. */
  events(accountId: string, after: number): ReadableStream<Uint8Array> | null;
  /** The scheduler assigned a run slot on `node` to this queued submission. */
  dispatch(subId: string, node: NodeTarget): Promise<void>;
}
