// Response bodies of the admin API (routes/admin*.ts) as zod schemas, registered as components of
// the document. admin-drift.ts checks their types against what the handlers build from, so a field
// added there without a schema here fails the typecheck.
import { z } from "zod";
import { jobStatus, runtime } from "./schemas.ts";
import { components } from "./schemas.ts";

function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  components.add(schema, { id, description });
  return schema;
}

const int = () => z.number().int();
const isoTime = () => z.string().meta({ format: "date-time" });
const nullableTime = () => isoTime().nullable();

export const project = named("Project", z.object({
  id: z.string(), name: z.string(), account_id: z.string(), created_at: isoTime(),
}), "A project: API keys and webhook endpoints belong to one");

const keyFields = {
  key_id: z.string(), name: z.string(), project_id: z.string(), account_id: z.string(), tier: z.string(),
  plan: z.string().meta({ description: 'The key\'s plan ("default" when none was named)' }),
  fingerprint: z.string().meta({ description: "Identifies the key's value without revealing it" }),
  created_at: isoTime(),
};
export const apiKey = named("ApiKey", z.object(keyFields), "An API key without its secret value");
export const createdKey = named("CreatedKey", z.object({ ...keyFields, key: z.string().meta({ description: "The plain key: shown here only" }) }),
  "A new (or imported) key with its value, shown once");
export const rotatedKey = named("RotatedKey", z.object({
  ...keyFields, key: z.string().meta({ description: "The new plain value: shown here only" }), rotated_at: isoTime(), previous_fingerprint: z.string(),
}), "The key with its new value; the old value is refused from now on");
export const deletedKey = named("DeletedKey", z.object({
  deleted: z.literal(true), revoked: z.literal(true), key_id: z.string(),
  cancelled_submissions: int().meta({ description: "Submissions of the key in flight that were ended" }),
}));

const usageFields = {
  ...keyFields,
  requests_last_minute: int(), rate_limit_per_min: int(), in_flight: int(), max_in_flight: int(),
  live_sessions: int().meta({ description: "Of the submissions in flight, live sessions (docs/live-sessions.md)" }),
  rejected_429: int().meta({ description: "rejected_rate_limit + rejected_concurrency" }), rejected_rate_limit: int(), rejected_concurrency: int(),
  totals: z.object({ requests: int(), submissions: int(), completed: int(), errors: int(), rejected_queue_full: int(), rejected_language: int() }),
  counters: z.record(z.string(), int()).meta({ description: "Every counter of the key, by name" }),
};
export const keyUsage = named("KeyUsage", z.object(usageFields), "A key's use against its plan");
export const keyUsageDetail = named("KeyUsageDetail", z.object({ ...usageFields, revoked: z.boolean() }), "A key's use against its plan, " +
  "and whether it is revoked");

export const cancelledSubmission = named("CancelledSubmission", z.object({ id: z.string().meta({ format: "uuid" }), cancelled: z.literal(true) }));
export const submissionEnded = named("SubmissionEnded", z.object({
  error: z.literal("the submission has already ended"), id: z.string().meta({ format: "uuid" }), job_status: jobStatus,
}));

export const deleted = named("Deleted", z.object({ deleted: z.literal(true), id: z.string() }));

export const throttled = named("OperatorThrottled", z.object({
  error: z.literal("too many failed attempts"), message: z.string(), retry_after_secs: int(),
}), "Too many wrong operator tokens, from this address or from all addresses together (only wrong tokens get it; the right one passes)");

export const plan = named("Plan", z.object({
  name: z.string(), rate_per_minute: int(), max_in_flight: int(), max_wall_time_ms: int(), max_cpu_time_ms: int(),
  max_memory_mb: int(), max_processes: int(), max_output_kb: int(), max_tests: int(), max_batch: int(),
  checker_wall_time_ms: int().optional().meta({ description: "A custom checker's wall limit; absent: 5000" }),
  checker_cpu_time_ms: int().optional().meta({ description: "A custom checker's CPU limit; absent: 5000" }),
  checker_memory_mb: int().optional().meta({ description: "A custom checker's memory limit; absent: 256" }),
  compile_wall_time_ms: int().optional().meta({ description: "The highest compile_limits.wall_time_ms a request may ask for; absent: 30000 (the node's)" }),
  compile_cpu_time_ms: int().optional().meta({ description: "The highest compile_limits.cpu_time_ms; absent: 60000 (the node's)" }),
  compile_memory_mb: int().optional().meta({ description: "The highest compile_limits.memory_mb; absent: 1024 (the node's)" }),
  tests_wall_budget_ms: int().optional().meta({ description: "Wall time a submission's tests may use in all, counted as they run; absent: 120000" }),
  session_max_secs: int().optional().meta({ description: "A live session's longest life (its program's wall limit); absent: 300" }),
  session_idle_secs: int().optional().meta({ description: "A live session ends after this long with nothing from its client or its program; absent: 60" }),
  session_stdin_kb: int().optional().meta({ description: "Stdin a live session may send in all (KiB); absent: 16384" }),
  max_sessions: int().optional().meta({ description: "Live-session WebSockets a key holds open at once, before start and reconnects included; past it an " +
    "upgrade gets 429; absent: 10" }),
  output_budget_kb: int().optional().meta({ description: "A submission's output budget, every test and both streams together (KiB); " +
    "absent: 2048, at most 8192" }),
  shard_storage_mb: int().optional().meta({ description: "What one account may store in one submission shard (MiB); past it new " +
    "submissions get 429; absent: 256" }),
}), "The rate, in-flight cap and request caps a key is held to, the run limits of a submission's custom checker, its output budget and " +
  "its account's storage quota");

export const node = named("Node", z.object({
  id: z.string(), name: z.string(), url: z.string(), pool: z.string(), node_id: z.string().nullable(), version: z.string().nullable(),
  reachable: z.boolean(), ready: z.boolean(), draining: z.boolean(), enforcement_mode: z.string(),
  slots: int().meta({ description: "Run slots the edge fills: the reported ones, at most max_slots" }),
  in_flight: int(), free_slots: int(),
  waiting: int().meta({ description: "Runs dispatched beyond its run slots, waiting in its own queue" }),
  languages: z.array(z.object({ name: z.string(), version: z.string() })),
  not_ready_reasons: z.array(z.string()), last_ok_at: nullableTime(), last_error: z.string().nullable(), registered_at: isoTime(),
  kind: z.string().meta({ description: "registered (by an operator, health by NodeInfo polls) or enrolled (heartbeats)" }),
  state: z.string().meta({ description: "revoked, pending, healthy, unhealthy, draining, drained or not_ready" }),
  last_heartbeat_at: nullableTime(), reported_slots: int(), max_slots: int().nullable().meta({ description: "The enrollment token's cap; null: none" }),
  approval: z.string().nullable().meta({ description: '"pending": waits for an operator\'s approval' }), revoked_at: nullableTime(),
}), "A fleet node as the registry sees it");

export const drainResult = named("DrainResult", z.object({ node, in_flight_at_drain: int().nullable(), rpc_error: z.string().nullable() }));

const tokenFields = {
  id: z.string(), name: z.string(), created_at: isoTime(), expires_at: nullableTime(), uses: int(), last_used_at: nullableTime(),
  max_uses: int().nullable().meta({ description: "Node addresses it may enroll; null: no limit (a token made before tokens had one)" }),
  max_slots: int(), require_approval: z.boolean(),
};
export const enrollmentToken = named("EnrollmentToken", z.object(tokenFields), "An enrollment token without its value");
export const createdEnrollmentToken = named("CreatedEnrollmentToken", z.object({
  ...tokenFields, token: z.string().meta({ description: "The plain token: shown here only" }),
}));

const pool = z.object({ pool: z.string(), nodes: int(), ready_nodes: int(), workers: int(), queue_depth: int() });
export const fleetStatus = named("FleetStatus", z.object({
  ready_nodes: int(), workers: int(), queue_depth: int(), enforcement_mode: z.string(), languages: z.array(z.string()),
  runtimes: z.array(runtime), reasons: z.array(z.string()), pools: z.array(pool),
}), "The fleet at a glance: ready nodes, run slots, queue, runtimes, and the same per pool");

const endpointFields = {
  id: z.string(), project_id: z.string(), url: z.string(), active: z.boolean(), description: z.string(), created_at: isoTime(), updated_at: isoTime(),
  secrets: z.array(z.object({ created_at: isoTime(), expires_at: nullableTime() })).meta({ description: "The secrets that sign " +
    "deliveries (never their values)" }),
};
export const webhookEndpoint = named("WebhookEndpoint", z.object(endpointFields), "A project's webhook endpoint, without its secrets");
export const createdWebhookEndpoint = named("CreatedWebhookEndpoint", z.object({
  ...endpointFields, secret: z.string().meta({ description: "The signing secret: shown here only" }),
}));
export const rotatedWebhookEndpoint = named("RotatedWebhookEndpoint", z.object({
  ...endpointFields, secret: z.string().meta({ description: "The new signing secret: shown here only" }),
  previous_secrets_expire_at: nullableTime().meta({ description: "Until when the previous secrets still sign; null: they stopped at once" }),
}));
export const webhookTest = named("WebhookTest", z.object({
  endpoint_id: z.string(), webhook_id: z.string(), delivered: z.boolean(), status: int().nullable(), latency_ms: int(), error: z.string().nullable(),
}), "The outcome of one signed test delivery");
export const deliveryLog = named("DeliveryLog", z.object({
  submission_id: z.string(), project_id: z.string(), created_at: isoTime(),
  endpoints: z.array(z.object({
    endpoint_id: z.string(), state: z.enum(["pending", "delivered", "failed"]), attempts: int(), next_attempt_at: nullableTime(),
    log: z.array(z.object({
      endpoint_id: z.string(), attempt: int(), started_at: isoTime(), status: int().nullable(), latency_ms: int(),
      outcome: z.enum(["delivered", "retry", "failed", "interrupted"]), error: z.string().nullable(),
    })),
  })),
}), "Every delivery attempt of one submission, per endpoint");

/** The lists the admin API answers with. */
export const projects = named("Projects", z.array(project));
export const apiKeys = named("ApiKeys", z.array(apiKey));
export const keyUsages = named("KeyUsages", z.array(keyUsage));
export const plans = named("Plans", z.array(plan));
export const nodes = named("Nodes", z.array(node));
export const enrollmentTokens = named("EnrollmentTokens", z.array(enrollmentToken));
export const webhookEndpoints = named("WebhookEndpoints", z.array(webhookEndpoint));

export const metricsText = z.string().meta({ description: "Prometheus text exposition format 0.0.4" });
