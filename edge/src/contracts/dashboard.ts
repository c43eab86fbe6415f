// DashboardDO's RPC surface: the operators' live view. It holds the dashboards' WebSockets
// (hibernating) and sends a snapshot only after an event said something changed.
import type { FleetStatus, NodeView, PoolView } from "./fleet.ts";
import type { KeyUsage } from "./key.ts";
import type { RecentRun } from "./scheduler.ts";

export interface KeyRow {
  key_id: string; name: string; project_id: string; fingerprint: string; requests_last_minute: number;
  in_flight: number; live_sessions: number; rejected_rate_limit: number; rejected_concurrency: number; submissions: number; completed: number; errors: number;
  /** The key's plan and its limits (each key is shown against its own). */
  plan: string; rate_per_min: number; max_in_flight: number;
}

export interface DashboardSnapshot {
  generated_at: string;
  limits: { rate_per_min: number; max_in_flight: number; queue_capacity: number };
  queue_depth: number;
  fleet: FleetStatus;
  pools: PoolView[];
  nodes: NodeView[];
  keys: KeyRow[];
  recent: RecentRun[];
  verdicts: Record<string, number>;
}

/** Who reports a change: the registry (nodes), a scheduler (queue, run slots, runs ended), a key. */
export type DashboardEvent = { source: "fleet" } | { source: "pool"; pool: string } | { source: "key"; hash: string; usage: KeyUsage };

export interface DashboardRpc {
  changed(event: DashboardEvent): void;
  /** The key list changed (created, revoked, rotated). */
  keysChanged(): void;
  snapshot(): Promise<DashboardSnapshot>;
}
