// SchedulerDO's RPC surface: one object per pool (named by the pool), owning the pool's queue and
// its run slots (capacity on a node). The node registry pushes every node change of the pool to
// it, so it decides alone: enqueue, requeue and release never call another object back.
import type { FleetTarget } from "../../../proto/grpc-web/client.ts";

export const DEFAULT_POOL = "default";

/** Pool names: what a DNS label allows, so they read well in URLs and logs. */
export const POOL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const POOL_NAME_RULE = "pool: lower-case letters, digits and '-' (at most 63)";

export interface NodeTarget extends FleetTarget {
  id: string;
}

/** A node as its pool's scheduler sees it. */
export interface SchedulableNode extends NodeTarget {
  pool: string;
  /** Concurrent runs the node takes. */
  run_slots: number;
  /**
   * Runs that may wait in the node's own queue beyond its run slots (NODE_PREFETCH per slot, at
   * most its queue capacity): dispatched ahead, so that a freed slot starts the next run at once
   * instead of waiting for the edge's release-and-dispatch round trip. Absent: none.
   */
  waiting_room?: number;
  /** Canonical names of the languages it offers, and each as language@version (scheduling/run-key.ts). */
  languages: string[];
  /** May get new work now (healthy, strict isolation, not draining). */
  ready: boolean;
}

export type EnqueueResult =
  | { kind: "dispatched"; node: NodeTarget; queue_depth: number }
  | { kind: "queued"; queue_depth: number; position: number }
  | { kind: "queue_full"; queue_depth: number }
  | { kind: "unsupported"; available: string[] }
  /** Asked with `mayDecline`: this pool has no ready node for the language, or its queue is full; `others` may. */
  | { kind: "declined"; available: string[]; others: string[] };

export type PollResult = { state: "queued"; position: number } | { state: "assigned"; node: NodeTarget } | { state: "unknown" };

/** What a SubmissionDO reports when it releases its run slot: feeds the dashboard's charts. */
export interface RunSummary {
  job_status: string;
  verdict: string | null;
  language: string;
  latency_ms: number;
  wall_ms: number | null;
}

export interface RecentRun extends RunSummary {
  at: number;
}

export interface PoolLoad {
  pool: string;
  queue_depth: number;
  /** Run slots taken, by node id. */
  in_flight: Record<string, number>;
  /** Slots assigned in the last two seconds, by node id (their Execute calls may still be on the way). */
  just_assigned: Record<string, number>;
}

export interface SchedulerRpc {
  /**
   * `offer` (a new submission): this scheduler's pool name, and whether it may decline — a pool
   * with no ready node for the language or a full queue then declines when another pool may take it.
   */
  enqueue(subId: string, language: string, offer?: { pool: string; mayDecline: boolean }): EnqueueResult;
  /** A node refused the run before it started: back to the head of the queue, that node not ready for now. */
  requeue(subId: string, language: string, nodeId: string, reason: string): EnqueueResult;
  /** A run ended (or will never start): frees its run slot for the next in line. */
  release(subId: string, summary?: RunSummary): void;
  poll(subId: string): PollResult;
  /** Removes a still-queued submission. False when it was already dispatched. */
  cancel(subId: string): boolean;
  load(): PoolLoad;
  /** Runs that ended lately, oldest first (the dashboard's charts). */
  recent(limit: number): RecentRun[];
  putNode(node: SchedulableNode): void;
  /** Every pool with nodes (and the default pool): where a declined run may go instead. */
  setPools(pools: string[]): void;
  removeNode(nodeId: string): void;
  /** The submissions whose runs are on a node right now (a revoked node's are taken from it at once). */
  runsOn(nodeId: string): string[];
  /** The dashboard watches until `untilMs`: report changes to it meanwhile. */
  watch(untilMs: number): void;
}
