// SubmissionDO's RPC surface: one object per shard of submissions (stubs.ts), each submission
// owning its record and its run inside it.
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
  /** The pool to schedule in first (scheduling/first-pool.ts); another takes the run when this one cannot. */
  pool: string;
  /** > 0: create holds until the record is terminal or this many ms passed (a synchronous submit). */
  wait_ms: number;
  /** The request's fields beyond language/code/stdin (schema 1.1), ready for the ExecuteRequest. */
  options?: RunOptions;
  /** Present when the request used any field added in schema 1.1: how its record is written. */
  format?: RecordFormat;
  /** The submission's output budget (its key's plan; absent: OUTPUT_BUDGET_DEFAULT_BYTES). */
  output_budget_bytes?: number;
  /** What its account may store in the submission's shard (its plan); absent: no quota. */
  storage_quota_bytes?: number;
}

/** Bytes travel as base64 (RPC, storage as JSON). Limits are already checked against the key's plan. */
export interface RunOptions {
  stdin_b64?: string;
  limits?: { wall_time_ms: number; cpu_time_ms: number; memory_bytes: number; processes: number; output_bytes: number; file_size_bytes?: number };
  /** The program's stderr into its stdout (one stream, in the order written). */
  merge_stderr?: boolean;
  /** The compile step's limits (0: the node's compile default). */
  compile_limits?: { wall_time_ms: number; cpu_time_ms: number; memory_bytes: number };
  files?: { path: string; content_b64: string }[];
  args?: string[];
  compiler_options?: string[];
  version?: string;
  check?: { compare: string; float_epsilon: number; expected_b64?: string };
  tests?: { name: string; stdin_b64: string; expected_b64?: string; points?: number }[];
  stop_on_first_failure?: boolean;
  /** The plan's budget for the tests' wall time, when narrower than the node's. */
  tests_wall_budget_ms?: number;
  binary_output?: boolean;
  /** A custom checker (language canonical), with the run limits the key's plan gives it. */
  checker?: CheckerOptions;
  /** An interactor (language canonical) run beside the program, with a checker's plan limits. */
  interactor?: CheckerOptions;
  /** A live session's run (docs/live-sessions.md): its stdin comes live; its events go to the session's object. */
  live?: { session: string; max_ms: number };
}

export interface CheckerOptions {
  language: string;
  code: string;
  version?: string;
  files?: { path: string; content_b64: string }[];
  limits: { wall_time_ms: number; cpu_time_ms: number; memory_bytes: number };
}

/** How a schema 1.1 record is written: output encoding, whether it names its version, and lists tests. */
export interface RecordFormat {
  encoding: "utf8" | "base64";
  /** The version the request named (resolved); the node's own answer wins when it gives one. */
  version?: string;
  named_version: boolean;
  tests: boolean;
}

/** Where a synchronous submission's time went, in ms per hop (the Server-Timing header). */
export type HopTimes = Record<string, number>;

export type CreateResult =
  | { kind: "created"; queue_depth: number; record?: ResultRecord | null; hops?: HopTimes }
  | { kind: "queue_full"; queue_depth: number }
  | { kind: "unsupported"; available: string[] }
  | { kind: "storage_full"; used_bytes: number; quota_bytes: number };

export interface SubmissionRpc {
  create(input: CreateInput): Promise<CreateResult>;
  /** The record, or null when unknown or owned by another account (null: any account). */
  get(id: string, accountId: string | null): ResultRecord | null;
  /**
   * The record to answer with: the object when its output is small, else its JSON as a byte
   * stream made from the stored output as it is read; null when unknown or another account's.
   */
  read(id: string, accountId: string): ResultRecord | ReadableStream<Uint8Array> | null;
  /** The events after event `after` as text/event-stream bytes, live until completed; null when unknown or another account's. */
  /** null: unknown or another account's; "busy": MAX_LIVE_STREAMS clients are following it already. */
  events(id: string, accountId: string, after: number): ReadableStream<Uint8Array> | null | "busy";
  /** The scheduler assigned a run slot on `node` to this queued submission. */
  dispatch(subId: string, node: NodeTarget): Promise<void>;
  /**
   * Ends a submission that is not terminal yet as `error` with `why` (an operator, its key
   * revoked) and cancels its run at the node. False: unknown, or already terminal.
   */
  cancel(subId: string, why: string): Promise<boolean>;
  /**
   * Its run's node was revoked: the run is lost (nothing the node sends counts any more) and goes
   * to another node, as with a node that died. False: unknown, terminal, or running elsewhere.
   */
  nodeLost(subId: string, nodeId: string, why: string): Promise<boolean>;
  /** The node a submission's run is at (a live session's stdin goes there); null: none yet, or unknown. */
  liveNode(subId: string): string | null;
}
