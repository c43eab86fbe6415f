// The FleetDO's records and the shapes it answers with: node rows, enrollment tokens, views for
// the admin API and the dashboard, and the scheduler's results.
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { FleetTarget } from "../../../proto/grpc-web/client.ts";

export interface NodeTarget extends FleetTarget {
  id: string;
}

export interface NodeRow {
  id: string;
  url: string;
  token: string;
  name: string;
  info: string | null;
  last_checked: number;
  last_ok: number;
  failures: number;
  last_error: string | null;
  registered_at: number;
  kind: string;
  hb_hash: string | null;
  last_heartbeat: number;
  drain_state: string | null;
  drain_at: number;
  lost_at: number;
  [key: string]: SqlStorageValue;
}

export interface TokenRow {
  id: string;
  hash: string;
  name: string;
  created: number;
  expires: number;
  uses: number;
  last_used: number;
  [key: string]: SqlStorageValue;
}

/** What a SubmissionDO reports when it releases its slot: feeds the dashboard's charts. */
export interface RunSummary {
  job_status: string;
  verdict: string | null;
  language: string;
  latency_ms: number;
  wall_ms: number | null;
}

export interface EnrollInput {
  url: string;
  token: string;
  name?: string;
  slots?: number;
  languages?: string[];
}

export interface HeartbeatInput {
  node_id: string;
  secret: string;
  info?: StoredInfo;
  draining?: boolean;
}

export interface EnrollmentTokenView {
  id: string;
  name: string;
  created_at: string;
  expires_at: string | null;
  uses: number;
  last_used_at: string | null;
}

export interface StoredInfo {
  node_id: string;
  version: string;
  slots: number;
  queue_depth: number;
  queue_capacity: number;
  languages: { name: string; version: string }[];
  enforcement_mode: string;
  cgroup_version: string;
  kernel: string;
  ready: boolean;
  draining: boolean;
  not_ready_reasons: string[];
}

export interface NodeView {
  id: string;
  name: string;
  url: string;
  node_id: string | null;
  version: string | null;
  reachable: boolean;
  ready: boolean;
  draining: boolean;
  enforcement_mode: string;
  slots: number;
  in_flight: number;
  free_slots: number;
  languages: { name: string; version: string }[];
  not_ready_reasons: string[];
  last_ok_at: string | null;
  last_error: string | null;
  registered_at: string;
  /** "registered" (operator, health by NodeInfo polls) or "enrolled" (heartbeats). */
  kind: string;
  /** healthy | unhealthy | draining | drained | not_ready */
  state: string;
  last_heartbeat_at: string | null;
}

export interface FleetStatus {
  ready_nodes: number;
  workers: number;
  queue_depth: number;
  enforcement_mode: string;
  languages: string[];
  reasons: string[];
}

export type EnqueueResult =
  | { kind: "dispatched"; node: NodeTarget; queue_depth: number }
  | { kind: "queued"; queue_depth: number; position: number }
  | { kind: "queue_full"; queue_depth: number }
  | { kind: "unsupported"; available: string[] };

export interface DashboardSnapshot {
  generated_at: string;
  limits: { rate_per_min: number; max_in_flight: number; queue_capacity: number };
  queue_depth: number;
  fleet: FleetStatus;
  nodes: NodeView[];
  keys: {
    key_id: string; name: string; project_id: string; fingerprint: string; requests_last_minute: number;
    in_flight: number; rejected_rate_limit: number; rejected_concurrency: number; submissions: number; completed: number; errors: number;
  }[];
  recent: { at: number; verdict: string | null; job_status: string; language: string; latency_ms: number; wall_ms: number | null }[];
  verdicts: Record<string, number>;
}

export type PollResult = { state: "queued"; position: number } | { state: "assigned"; node: NodeTarget } | { state: "unknown" };

export function toInfo(r: NodeInfoResponse): StoredInfo {
  return {
    node_id: r.nodeId, version: r.version, slots: r.slots, queue_depth: r.queueDepth, queue_capacity: r.queueCapacity,
    languages: r.languages.map((l) => ({ name: l.name, version: l.version })), enforcement_mode: r.enforcementMode,
    cgroup_version: r.cgroupVersion, kernel: r.kernel, ready: r.ready, draining: r.draining, not_ready_reasons: [...r.notReadyReasons],
  };
}
