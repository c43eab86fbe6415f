// Judge0 CE 1.13.1's information routes in Judge0's shapes (docs/migrating.md): /config_info holds
// our real limits in Judge0's field names and units, /workers one entry per runtime from the
// fleet's state; /about, /version, /isolate, /license, /system_info and /statistics are fixed
// or empty where a route has no meaning here. Pure; unit tested.
import type { FleetOverview, NodeView } from "../../contracts/fleet.ts";
import type { Plan } from "../../plans/plan-caps.ts";
import { MAX_FILES_TOTAL_BYTES } from "../../../../proto/submission-rules.ts";

/** The Judge0 API version answered (the judge0 SDK picks its language table by it). */
export const JUDGE0_VERSION = "1.13.1";

/** /about: strings, as clients type them; the homepage is our API reference, the source its OpenAPI document. */
export function about(origin: string): Record<string, string> {
  return {
    version: JUDGE0_VERSION,
    homepage: `${origin}/docs`,
    source_code: `${origin}/api/openapi.json`,
    maintainer: "codecell (Judge0 CE 1.13.1's API on codecell's own sandbox; see docs/migrating.md)",
  };
}

export const ISOLATE_TEXT = "codecell sandbox (namespaces, cgroups, seccomp, rlimits); isolate is not used\n";

export const LICENSE_TEXT = "This endpoint serves Judge0 CE 1.13.1's API; the service behind it is codecell, not Judge0, and publishes no license text here.\n";

/** A node's file-size cap (KB): what `max_file_size` may ask at most (KB, as Judge0 counts). */
const NODE_FILE_SIZE_KB = 16 * 1024;
/** The fixed stack limit (64 MiB) in KB. */
const STACK_KB = 64 * 1024;
/** Judge0 runs a submission at most this many times. */
const JUDGE0_MAX_RUNS = 20;

export interface ServiceSettings {
  queueCapacity: number;
  callbackAttempts: number;
  callbackTimeoutMs: number;
}

/**
 * Judge0's configuration for a key under `plan`: every field Judge0 CE 1.13.1 answers. A request
 * without limits gets the plan's caps, so each default equals its maximum.
 */
export function configInfo(plan: Plan, s: ServiceSettings): Record<string, unknown> {
  const cpu = plan.max_cpu_time_ms / 1000;
  const wall = plan.max_wall_time_ms / 1000;
  const memory = plan.max_memory_mb * 1024;
  return {
    maintenance_mode: false,
    enable_wait_result: true,
    enable_compiler_options: true,
    allowed_languages_for_compile_options: [],
    enable_command_line_arguments: true,
    enable_submission_delete: false,
    enable_callbacks: true,
    callbacks_max_tries: s.callbackAttempts,
    callbacks_timeout: s.callbackTimeoutMs / 1000,
    enable_additional_files: true,
    max_queue_size: s.queueCapacity,
    cpu_time_limit: cpu,
    max_cpu_time_limit: cpu,
    cpu_extra_time: 0,
    max_cpu_extra_time: 0,
    wall_time_limit: wall,
    max_wall_time_limit: wall,
    memory_limit: memory,
    max_memory_limit: memory,
    stack_limit: STACK_KB,
    max_stack_limit: STACK_KB,
    max_processes_and_or_threads: plan.max_processes,
    max_max_processes_and_or_threads: plan.max_processes,
    enable_per_process_and_thread_time_limit: false,
    allow_enable_per_process_and_thread_time_limit: false,
    enable_per_process_and_thread_memory_limit: false,
    allow_enable_per_process_and_thread_memory_limit: false,
    max_file_size: NODE_FILE_SIZE_KB,
    max_max_file_size: NODE_FILE_SIZE_KB,
    number_of_runs: 1,
    max_number_of_runs: Math.min(JUDGE0_MAX_RUNS, plan.max_tests),
    redirect_stderr_to_stdout: false,
    max_extract_size: MAX_FILES_TOTAL_BYTES / 1024,
    enable_batched_submissions: true,
    max_submission_batch_size: plan.max_batch,
    submission_cache_duration: 0,
    use_docs_as_homepage: false,
    allow_enable_network: false,
    enable_network: false,
  };
}

export interface Judge0Worker {
  queue: string;
  size: number;
  available: number;
  idle: number;
  working: number;
  paused: number;
  failed: number;
}

const offers = (node: NodeView, language: string, version: string) => node.languages.some((l) => l.name === language && l.version === version);

/**
 * One entry per runtime (`language@version`, the run key a submission is scheduled by). Run slots
 * are shared by every language of a node, and a pool has one queue for all of them, so a node's
 * slots count under each runtime it offers and `size` is the depth of the queues its runs join.
 */
export function judge0Workers(overview: Pick<FleetOverview, "status" | "nodes" | "pools">): Judge0Worker[] {
  return overview.status.runtimes.map(({ language, version }) => {
    const nodes = overview.nodes.filter((n) => offers(n, language, version));
    const serving = nodes.filter((n) => n.ready && !n.draining);
    const pools = new Set(nodes.map((n) => n.pool));
    return {
      queue: `${language}@${version}`,
      size: overview.pools.filter((p) => pools.has(p.pool)).reduce((sum, p) => sum + p.queue_depth, 0),
      available: serving.reduce((sum, n) => sum + n.slots, 0),
      idle: serving.reduce((sum, n) => sum + n.free_slots, 0),
      working: serving.reduce((sum, n) => sum + n.in_flight, 0),
      paused: nodes.filter((n) => !n.ready || n.draining).reduce((sum, n) => sum + n.slots, 0),
      failed: 0,
    };
  });
}

/** Judge0's /statistics shape with nothing counted: submissions belong to accounts, not to one instance. */
export function emptyStatistics(now: Date): Record<string, unknown> {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const lastDays: Record<string, number> = {};
  for (let back = 1; back <= 30; back++) lastDays[new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10)] = 0;
  return {
    created_at: now.toISOString(),
    cached_until: now.toISOString(),
    submissions: { total: 0, today: 0, last_30_days: lastDays },
    languages: [],
    statuses: [],
    database: { size_pretty: "0 bytes", size_in_bytes: 0 },
  };
}
