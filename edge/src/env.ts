// Bindings and configuration. Every tunable is a plain var so tests can shorten it with --var.
// Namespaces are typed by the objects' RPC contracts, never by their classes (no import circle).
import type { DashboardRpc } from "./contracts/dashboard.ts";
import type { DoorRpc } from "./contracts/door.ts";
import type { FleetRegistryRpc } from "./contracts/fleet.ts";
import type { KeyRpc } from "./contracts/key.ts";
import type { MetricsRpc } from "./contracts/metrics.ts";
import type { SchedulerRpc } from "./contracts/scheduler.ts";
import type { SessionRpc } from "./contracts/session.ts";
import type { SubmissionRpc } from "./contracts/submission.ts";
import type { WebhookDeliveryRpc } from "./contracts/webhook-delivery.ts";

/** What the runtime requires of a namespace's type parameter. */
type Branded<T> = T & Rpc.DurableObjectBranded;

export interface Env {
  KEYS: KVNamespace;
  /** Static assets (wrangler.toml [assets]): the /docs page's renderer. */
  ASSETS?: Fetcher;
  KEY_DO: DurableObjectNamespace<Branded<KeyRpc>>;
  SUBMISSION_DO: DurableObjectNamespace<Branded<SubmissionRpc>>;
  FLEET_DO: DurableObjectNamespace<Branded<FleetRegistryRpc>>;
  SCHEDULER_DO: DurableObjectNamespace<Branded<SchedulerRpc>>;
  DASHBOARD_DO: DurableObjectNamespace<Branded<DashboardRpc>>;
  WEBHOOK_DELIVERY_DO: DurableObjectNamespace<Branded<WebhookDeliveryRpc>>;
  METRICS_DO: DurableObjectNamespace<Branded<MetricsRpc>>;
  DOOR_DO: DurableObjectNamespace<Branded<DoorRpc>>;
  SESSION_DO: DurableObjectNamespace<Branded<SessionRpc>>;
  ENVIRONMENT?: string;
  OPERATOR_TOKEN?: string;
  /** Failed operator-token attempts allowed per client / from all clients per window (doors/guard.ts). */
  OPERATOR_FAILURES_PER_CLIENT?: string;
  OPERATOR_FAILURES_GLOBAL?: string;
  OPERATOR_FAILURE_WINDOW_SECS?: string;
  OPERATOR_FAILURE_DELAY_MS?: string;
  SYNC_HOLD_MS?: string;
  QUEUE_CAPACITY?: string;
  WATCHDOG_MS?: string;
  WATCHDOG_FAILURES?: string;
  RETENTION_DAYS?: string;
  RATE_LIMIT_PER_MIN?: string;
  MAX_IN_FLIGHT?: string;
  /** Shards new submissions are spread over (contracts/submission-id.ts). */
  SUBMISSION_SHARDS?: string;
  /** Runs per run slot that may wait in a node's own queue (SchedulableNode.waiting_room). */
  NODE_PREFETCH?: string;
  QUEUE_TIMEOUT_MS?: string;
  MAX_RUN_MS?: string;
  HEALTH_TTL_MS?: string;
  /** Development-only webhook allow-list; see webhookPolicy() in webhooks/endpoint-url.ts (refused elsewhere). */
  WEBHOOK_DEV_ALLOW?: string;
  /** Per-attempt webhook timeout in ms (default 10000). */
  WEBHOOK_TIMEOUT_MS?: string;
  NODE_HEARTBEAT_MS?: string;
  NODE_HEARTBEAT_MISSES?: string;
  /** Request location → first pool, e.g. "colo:FRA=eu,continent:NA=us" (scheduling/pool-routes.ts). */
  POOL_ROUTES?: string;
  /** Heartbeat comment interval of event streams in ms (default 15000). */
  SSE_HEARTBEAT_MS?: string;
}

export interface Config {
  development: boolean;
  syncHoldMs: number;
  queueCapacity: number;
  watchdogMs: number;
  watchdogFailures: number;
  retentionMs: number;
  rateLimit: number;
  rateWindowMs: number;
  maxInFlight: number;
  submissionShards: number;
  nodePrefetch: number;
  queueTimeoutMs: number;
  maxRunMs: number;
  healthTtlMs: number;
  /** Enrolled fleet nodes: heartbeat interval, and how many may be missed before a node is unhealthy. */
  heartbeatMs: number;
  heartbeatMisses: number;
}

function num(value: string | undefined, fallback: number, min = 0): number {
  const n = value === undefined || value === "" ? NaN : Number(value);
  return Number.isFinite(n) && n >= min ? n : fallback;
}

export function config(env: Env): Config {
  return {
    development: env.ENVIRONMENT === "development",
    syncHoldMs: num(env.SYNC_HOLD_MS, 30_000, 1),
    queueCapacity: num(env.QUEUE_CAPACITY, 100),
    watchdogMs: num(env.WATCHDOG_MS, 10_000, 100),
    watchdogFailures: num(env.WATCHDOG_FAILURES, 3, 1),
    retentionMs: num(env.RETENTION_DAYS, 7, 0) * 86_400_000,
    rateLimit: num(env.RATE_LIMIT_PER_MIN, 60, 1),
    rateWindowMs: 60_000,
    maxInFlight: num(env.MAX_IN_FLIGHT, 10, 1),
    submissionShards: Math.min(65_536, num(env.SUBMISSION_SHARDS, 16, 1)),
    nodePrefetch: Math.min(16, num(env.NODE_PREFETCH, 1, 0)),
    // Queue wait + compile (30 s) + run (10 s) stay far below these.
    queueTimeoutMs: num(env.QUEUE_TIMEOUT_MS, 300_000, 1),
    maxRunMs: num(env.MAX_RUN_MS, 180_000, 1),
    healthTtlMs: num(env.HEALTH_TTL_MS, 5_000, 0),
    heartbeatMs: num(env.NODE_HEARTBEAT_MS, 5_000, 100),
    heartbeatMisses: num(env.NODE_HEARTBEAT_MISSES, 3, 1),
  };
}
