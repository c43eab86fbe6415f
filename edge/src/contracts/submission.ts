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
}

export type CreateResult =
  | { kind: "created"; queue_depth: number }
  | { kind: "queue_full"; queue_depth: number }
  | { kind: "unsupported"; available: string[] };

export interface SubmissionRpc {
  create(input: CreateInput): Promise<CreateResult>;
  /** Instantiates the object and its storage ahead of use (KeyDO's warm pool). Holds no record. */
  prewarm(): boolean;
  /** The record, or null when unknown or owned by another account (null: any account). */
  get(accountId: string | null): ResultRecord | null;
  /** Resolves with the record once terminal, or with the current record after `ms`. */
  wait(ms: number): Promise<ResultRecord | null>;
  /** The scheduler assigned a run slot on `node` to this queued submission. */
  dispatch(subId: string, node: NodeTarget): Promise<void>;
}
