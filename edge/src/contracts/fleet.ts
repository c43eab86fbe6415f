// FleetDO's RPC surface: the node registry (one object, "fleet"). It owns every node's address,
// credential, health and pool, the enrollment tokens and the heartbeats, and pushes each node's
// schedulable state to the scheduler of its pool.
import type {
  EnrollResponse, HeartbeatResponse, LeaveResponse,
} from "../../../proto/gen/codecell/fleet/v1/enrollment.ts";
import type { NodeTarget, RecentRun } from "./scheduler.ts";
import type { Runtime } from "../../../proto/runtimes.ts";

/** What a client can count on for a runtime, whichever node runs it (registry/runtime-isolation.ts). */
export interface RuntimeIsolation {
  controls: string[];
  seccomp_policies: string[];
  cgroup_versions: string[];
  cpu_modes: string[];
}

export type RuntimeView = Runtime & { isolation: RuntimeIsolation };

export interface NodeView {
  id: string;
  name: string;
  url: string;
  pool: string;
  node_id: string | null;
  version: string | null;
  reachable: boolean;
  ready: boolean;
  draining: boolean;
  enforcement_mode: string;
  /** Run slots (API field name kept). */
  slots: number;
  /** Runs on its run slots. */
  in_flight: number;
  free_slots: number;
  /** Runs dispatched beyond its run slots, waiting in its own queue (SchedulableNode.waiting_room). */
  waiting: number;
  languages: { name: string; version: string }[];
  not_ready_reasons: string[];
  last_ok_at: string | null;
  last_error: string | null;
  registered_at: string;
  /** "registered" (operator, health by NodeInfo polls) or "enrolled" (heartbeats). */
  kind: string;
  /** revoked | pending | healthy | unhealthy | draining | drained | not_ready */
  state: string;
  last_heartbeat_at: string | null;
  /** The run slots the node reports; `slots` is this, at most `max_slots` (its enrollment token's cap; null: none). */
  reported_slots: number;
  max_slots: number | null;
  /** "pending": enrolled with a token that requires approval, no work until an operator approves it. */
  approval: string | null;
  /** When an operator revoked its credential (it must enroll again with a new token). */
  revoked_at: string | null;
}

export interface FleetStatus {
  ready_nodes: number;
  workers: number;
  queue_depth: number;
  enforcement_mode: string;
  languages: string[];
  /** Every (language, version) a ready node offers, with their isolation (GET /api/runtimes, `version` checks). */
  runtimes: RuntimeView[];
  reasons: string[];
}

export interface PoolView {
  pool: string;
  nodes: number;
  ready_nodes: number;
  workers: number;
  queue_depth: number;
}

/** Nodes, status and pools at once, plus recent runs: what the dashboard draws. */
export interface FleetOverview {
  status: FleetStatus;
  nodes: NodeView[];
  pools: PoolView[];
  recent: RecentRun[];
}

export interface EnrollmentTokenView {
  id: string;
  name: string;
  created_at: string;
  expires_at: string | null;
  uses: number;
  last_used_at: string | null;
  /** Node addresses it may enroll; null: no limit (a token made before tokens had one). */
  max_uses: number | null;
  max_slots: number;
  require_approval: boolean;
}

/** What an operator asks of a new enrollment token (POST /admin/enrollment-tokens). */
export interface EnrollmentTokenRequest {
  name: string;
  /** 0: never expires. */
  ttlSecs: number;
  /** Node addresses it may enroll (default 1). */
  maxUses: number;
  maxSlots: number;
  requireApproval: boolean;
}

export type Refused = { ok: false; status: number; error: string };

export interface DrainResult {
  node: NodeView;
  in_flight_at_drain: number | null;
  rpc_error: string | null;
}

export interface FleetRegistryRpc {
  register(input: { url: string; token: string; name?: string; pool?: string }): Promise<{ ok: true; node: NodeView } | { ok: false; error: string }>;
  list(): Promise<NodeView[]>;
  remove(id: string): Promise<boolean>;
  /** The credential for a node, for a SubmissionDO recovering a run. Never leaves the edge. */
  target(nodeId: string): NodeTarget | null;
  status(): Promise<FleetStatus>;
  overview(): Promise<FleetOverview>;
  drain(id: string): Promise<DrainResult | null>;
  /** A pending node (token with require_approval) joins rotation; null: no such node. */
  approve(id: string): Promise<NodeView | null>;
  /** The node's credential stops working, it leaves rotation, its runs go elsewhere; null: no such node. */
  revoke(id: string): Promise<NodeView | null>;
  /** A node refused a run before it started: it counts as not ready until its next NodeInfo says otherwise. */
  nodeRefused(nodeId: string, reason: string): Promise<void>;
  createEnrollmentToken(terms: EnrollmentTokenRequest): Promise<EnrollmentTokenView & { token: string }>;
  listEnrollmentTokens(): EnrollmentTokenView[];
  revokeEnrollmentToken(id: string): boolean;
  /** Bodies are enrollment.proto messages, decoded only once the bearer credential checked out. */
  enroll(enrollmentToken: string, body: Uint8Array): Promise<{ ok: true; response: EnrollResponse } | Refused>;
  heartbeat(secret: string, body: Uint8Array): Promise<{ ok: true; response: HeartbeatResponse } | Refused>;
  leave(secret: string, body: Uint8Array): Promise<{ ok: true; response: LeaveResponse } | Refused>;
  /** The dashboard watches until `untilMs`: report node changes to it (and tell the schedulers). */
  watch(untilMs: number): void;
}
