// Response bodies of the public API as zod schemas, beside the request schemas of submit/validate.ts:
// the OpenAPI document (openapi/document.ts) is generated from both. Types are checked against
// proto/record.ts and proto/runtimes.ts below, so a record field added there without a schema here
// fails the typecheck.
import { z } from "zod";
import { OUTPUT_INTEGRITY, VERDICTS } from "../../../proto/record.ts";
import type { ResultRecord, TestRecord } from "../../../proto/record.ts";
import type { RuntimeView } from "../contracts/fleet.ts";

/** Components of the document: every schema registered here becomes `#/components/schemas/<id>`. */
export const components = z.registry<{ id: string; description?: string }>();

function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  components.add(schema, { id, description });
  return schema;
}

const int = () => z.number().int();
const nullable = <T extends z.ZodType>(s: T) => s.nullable();
const uuid = () => z.string().meta({ format: "uuid" });
const isoTime = () => z.string().meta({ format: "date-time" });

export const verdict = named("Verdict", z.enum(VERDICTS),
  "IE internal error, MLE memory, PLE processes, FSE file size, TLE time, SIG signal, RE runtime error or non-zero exit (also a compile error), WA wrong " +
    "answer, AC accepted; strongest first");
export const jobStatus = named("JobStatus", z.enum(["pending", "running", "completed", "error"]));
export const outputIntegrity = named("OutputIntegrity", z.enum(OUTPUT_INTEGRITY));
export const encoding = named("Encoding", z.enum(["utf8", "base64"]));

export const appliedLimits = named("AppliedLimits", z.object({
  wall_time_ms: int(), cpu_time_ms: int(), memory_bytes: int(), processes: int(), output_bytes: int(),
}), "The limits the run was held to");

export const outputMismatch = named("OutputMismatch", z.object({
  line: int(), column: nullable(int()), token: nullable(int()), expected: z.string(), actual: z.string(), message: z.string(),
}), "Where the output first differs from the expected output (WA)");

export const checkerEvidence = named("CheckerEvidence", z.object({
  exit_code: nullable(int()), cause: z.string(), message: z.string(), points: nullable(z.number()),
}), "What the custom checker said about the run: its exit code, how its run ended, the first 4 KiB of its stderr, the points of exit code 7");

export const evidence = named("Evidence", z.object({
  verdict_cause: z.string(),
  verdict_actor: z.string().meta({ description: "runtime, kernel, supervisor, judge, checker or interactor (a custom checker's or an interactor's " +
    "verdict, or its own failure)" }),
  isolation_mode: z.string(),
  controls_applied: z.array(z.string()),
  controls_missing: z.array(z.string()),
  cgroup: z.object({
    memory_limit_bytes: int(), memory_peak_bytes: int(), oom_events: int(), oom_kill_events: int(),
    cpu_usage_usec: int(), process_count: int(), process_limit: int(),
  }),
  timing: z.object({ cpu_ms: z.number(), cpu_time_ms: z.number(), wall_ms: z.number(), cpu_wall_ratio: z.number(), divergence: z.string() }),
  process_lifecycle: z.object({ reap_status: z.string(), descendant_containment: z.string(), zombie_count: int() }),
  judge_actions: z.array(z.string()),
  collection_errors: z.array(z.string()),
  limits: appliedLimits.optional(),
  mismatch: outputMismatch.optional(),
  checker: checkerEvidence.optional(),
  interactor: checkerEvidence.optional().meta({ description: "What the interactor said about the run (requests with an interactor): its exit code, how its " +
    "run ended, the first 4 KiB of its stderr" }),
}), "Why the verdict is what it is: the cgroup's counters, timing, the controls applied");

export const testRecord = named("TestRecord", z.object({
  name: z.string(),
  verdict,
  stdout: z.string(),
  stderr: z.string(),
  exit_code: nullable(int()),
  signal: nullable(int()),
  time_ms: z.number(),
  memory_bytes: int(),
  output_integrity: outputIntegrity,
  evidence,
  score: z.number().optional().meta({ description: "Scored requests (a test with points): the points this test earned" }),
}), "One test case's outcome");

const streamUse = z.object({ kept_bytes: int(), dropped_bytes: int() });
const outputBudget = named("OutputBudget", z.object({
  budget_bytes: int().meta({ description: "The submission's output budget: bytes of output kept for every test and both streams together" }),
  stdout: streamUse, stderr: streamUse,
}), "Output bytes a record kept and dropped past its output budget, per stream (over every test)");

export const resultRecord = named("ResultRecord", z.object({
  id: uuid(),
  language: z.string(),
  job_status: jobStatus,
  schema_version: z.string().meta({ description: '"1.0", or "1.1" when the request used a field added later' }),
  created_at: isoTime(),
  started_at: nullable(isoTime()),
  completed_at: nullable(isoTime()),
  verdict: nullable(verdict),
  exit_code: nullable(int()),
  signal: nullable(int()),
  stdout: nullable(z.string()),
  stderr: nullable(z.string()),
  output_integrity: nullable(outputIntegrity),
  error_message: nullable(z.string()),
  cpu_time_secs: nullable(z.number()),
  wall_time_secs: nullable(z.number()),
  memory_peak_bytes: nullable(int()),
  evidence: nullable(evidence),
  attempts: int().optional().meta({ description: "Dispatches made, when more than one was needed" }),
  encoding: encoding.optional().meta({ description: "Encoding of stdout/stderr here and in tests (present when the request asked for base64)" }),
  version: z.string().optional().meta({ description: "Toolchain version that ran the program" }),
  tests: z.array(testRecord).optional().meta({ description: "Per-test outcomes; the verdict is the first failing test's, else AC" }),
  score: z.number().optional().meta({ description: "Scored requests (a test with points): the points the tests earned" }),
  max_score: z.number().optional().meta({ description: "Scored requests: the sum of every test's points, run or not" }),
  output_budget: outputBudget.optional().meta({ description: "Records of schema 1.1: the output kept and dropped against the submission's output budget" }),
}), "The record of one submission; execution fields are null until it is completed");

export const errorBody = named("Error", z.object({
  error: z.string().meta({ description: "What went wrong, naming the field" }),
  message: z.string().optional(),
  available: z.array(z.string()).optional().meta({ description: "What is available: the languages (unsupported language) or the versions of the " +
    "language (unknown version)" }),
  retry_after: int().optional().meta({ description: "Seconds to wait (429)" }),
  queue_depth: int().optional().meta({ description: "Pending submissions (503 queue full)" }),
}), "Every error answer: {error, message?}");

export const accepted = named("Accepted", z.object({
  id: uuid(),
  job_status: z.literal("pending"),
  queue_depth: int().optional().meta({ description: "Pending submissions ahead (absent on an idempotent replay whose record is not readable yet)" }),
}), "A submission accepted for asynchronous execution: poll GET /api/result/{id}");

export const syncTimeout = named("SyncTimeout", z.object({
  error: z.literal("timeout"), message: z.string(), id: uuid(), job_status: z.enum(["pending", "running"]),
}), "?wait=true: the run did not finish within the hold; it carries on, poll GET /api/result/{id}");

export const health = named("Health", z.object({
  status: z.enum(["ok", "degraded"]), enforcement_mode: z.string(), workers: int(), queue_depth: int(),
}));

export const ready = named("Ready", z.object({
  ready: z.literal(true), enforcement_mode: z.string(), ready_nodes: int(), workers: int(), queue_depth: int(),
}));

export const notReady = named("NotReady", z.object({
  error: z.literal("not ready"), ready: z.literal(false), reasons: z.array(z.string()),
}));

export const languages = named("Languages", z.array(z.string()), "Canonical names of the languages the ready nodes run");

export const runtime = named("Runtime", z.object({
  language: z.string(),
  version: z.string().meta({ description: 'The version a request names, e.g. "1.23.4"' }),
  aliases: z.array(z.string()),
  default: z.boolean(),
  compiled: z.boolean(),
  libraries: z.array(z.string()),
  isolation: named("RuntimeIsolation", z.object({
    controls: z.array(z.string()).meta({ description: "Isolation controls every ready node offering this runtime enforces (a run is refused " +
      "unless each is applied); sorted" }),
    seccomp_policies: z.array(z.string()).meta({ description: 'Seccomp policy versions among those nodes, e.g. "allow-list/1"' }),
    cgroup_versions: z.array(z.string()).meta({ description: "cgroup versions among those nodes (v1, v2)" }),
    cpu_modes: z.array(z.string()).meta({ description: "How those nodes give CPUs to run slots (dedicated, shared)" }),
  }), "What a client can count on whichever node runs it: the intersection of the nodes' controls, and every policy among them"),
}));

export const runtimes = named("Runtimes", z.array(runtime));

export const acceptedOrRecord = named("AcceptedOrRecord", z.union([accepted, resultRecord]),
  "Accepted, or the existing record when the Idempotency-Key was seen before");

export const openApiDocument = z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) });

export const batchItem = named("BatchItem", z.union([
  z.object({ id: uuid(), job_status: z.literal("pending") }),
  errorBody,
]));
export const batchAccepted = named("BatchAccepted", z.object({ submissions: z.array(batchItem) }),
  "One entry per submission, in request order");
export const results = named("Results", z.object({
  results: z.array(z.union([resultRecord, z.object({ id: z.string(), error: z.literal("submission not found") })])),
}));

/** The webhook body: the record, or a signed test event. */
export const webhookPayload = named("WebhookPayload", resultRecord.extend({
  test: z.literal(true).optional().meta({ description: "Present on a test delivery (POST …/webhooks/{id}/test)" }),
}));

// Drift checks against the shared types (compile time only).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameRecord: Same<z.infer<typeof resultRecord>, ResultRecord> = true;
const sameTest: Same<z.infer<typeof testRecord>, TestRecord> = true;
const sameRuntime: Same<z.infer<typeof runtime>, RuntimeView> = true;
void [sameRecord, sameTest, sameRuntime];
