// Judge0 CE 1.13.1, pure: language 89 (a multi-file program) mapped to our multi-file language, and
// the information routes' shapes (config_info from a plan, workers from the fleet's state, statistics).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { zipSync } from "fflate";
import { fromBase64, toBase64 } from "../../proto/base64.ts";
import { acceptedLanguages } from "../../edge/src/compat/judge0/languages.ts";
import { judge0ToNative, parseJudge0Submission } from "../../edge/src/compat/judge0/to-native.ts";
import { configInfo, emptyStatistics, judge0Workers } from "../../edge/src/compat/judge0/service-info.ts";
import type { FleetOverview, NodeView } from "../../edge/src/contracts/fleet.ts";
import { DEFAULT_CAPS } from "../../edge/src/plans/plan-caps.ts";
import type { HttpError } from "../../edge/src/lib/http.ts";
import { RUNTIMES, rt, status } from "./compat-fixtures.ts";

const WITH_BASH = [...RUNTIMES, rt("multi-file", "5.2.15", { default: true, compiled: true })];
const zip = (files: Record<string, string>) => toBase64(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)]))));
const text = (b64: unknown) => new TextDecoder().decode(fromBase64(String(b64)) ?? new Uint8Array());
const project = (extra: Record<string, unknown>, base64 = false) => judge0ToNative(parseJudge0Submission({ language_id: 89, ...extra }), WITH_BASH, base64).body;
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    assert.ok(status(e, 422), String(e));
    return (e as HttpError).body;
  }
  throw new Error("not refused");
};

describe("language 89, a multi-file program", () => {
  it("is listed as Judge0 names it, with id 89, when a node offers the multi-file language", () => {
    const listed = acceptedLanguages(WITH_BASH).find((l) => l.id === 89);
    assert.equal(listed?.name, "Multi-file program");
    assert.equal(listed?.runtime.language, "multi-file");
    assert.equal(acceptedLanguages(RUNTIMES).find((l) => l.id === 89), undefined);
  });

  it("the zip's run script is the code, the other files (compile among them) go beside it; the request travels in base64", () => {
    const body = project({ additional_files: zip({ run: "./a.out\n", compile: "gcc main.c\n", "main.c": "int main(){}" }), stdin: "in", expected_output: "out" });
    assert.equal(body.language, "multi-file");
    assert.equal(body.encoding, "base64");
    assert.equal(text(body.code), "./a.out\n");
    assert.equal(text(body.stdin), "in");
    assert.equal(text(body.expected_output), "out");
    const files = body.files as { path: string; content: string }[];
    assert.deepEqual(files.map((f) => f.path).sort(), ["compile", "main.c"]);
    assert.equal(text(files.find((f) => f.path === "compile")?.content), "gcc main.c\n");
  });

  it("with base64_encoded=true stdin stays as sent; an empty source_code (what the judge0 SDK sends) is blank", () => {
    const body = project({ source_code: "", additional_files: zip({ run: "cat\n" }), stdin: toBase64(new TextEncoder().encode("x")) }, true);
    assert.equal(text(body.stdin), "x");
    assert.equal(body.files, undefined);
  });

  it("refused by name: source_code given, no additional_files, no run script", () => {
    assert.deepEqual(refusal(() => project({ source_code: "echo", additional_files: zip({ run: "x" }) })).source_code, ["must be blank"]);
    assert.deepEqual(refusal(() => project({})).additional_files, ["can't be blank"]);
    assert.match(String(refusal(() => project({ additional_files: zip({ compile: "true" }) })).additional_files), /run/);
  });
});

describe("config_info: our limits in Judge0's names and units", () => {
  it("every field Judge0 CE 1.13.1 answers, typed as it types them; the plan's caps in seconds and KB", () => {
    const info = configInfo({ ...DEFAULT_CAPS, max_cpu_time_ms: 2500, max_batch: 7 }, { queueCapacity: 100, callbackAttempts: 3, callbackTimeoutMs: 10_000 });
    const booleans = ["maintenance_mode", "enable_wait_result", "enable_compiler_options", "enable_command_line_arguments", "enable_submission_delete",
      "enable_callbacks", "enable_additional_files", "enable_per_process_and_thread_time_limit", "allow_enable_per_process_and_thread_time_limit",
      "enable_per_process_and_thread_memory_limit", "allow_enable_per_process_and_thread_memory_limit", "redirect_stderr_to_stdout",
      "enable_batched_submissions", "use_docs_as_homepage", "allow_enable_network", "enable_network"];
    const numbers = ["callbacks_max_tries", "callbacks_timeout", "max_queue_size", "cpu_time_limit", "max_cpu_time_limit", "cpu_extra_time",
      "max_cpu_extra_time", "wall_time_limit", "max_wall_time_limit", "memory_limit", "max_memory_limit", "stack_limit", "max_stack_limit",
      "max_processes_and_or_threads", "max_max_processes_and_or_threads", "max_file_size", "max_max_file_size", "number_of_runs",
      "max_number_of_runs", "max_extract_size", "max_submission_batch_size", "submission_cache_duration"];
    assert.deepEqual(Object.keys(info).sort(), [...booleans, ...numbers, "allowed_languages_for_compile_options"].sort());
    for (const b of booleans) assert.equal(typeof info[b], "boolean", b);
    for (const n of numbers) assert.equal(typeof info[n], "number", n);
    assert.equal(info.cpu_time_limit, 2.5);
    assert.equal(info.memory_limit, 256 * 1024);
    assert.equal(info.max_submission_batch_size, 7);
    assert.equal(info.enable_network, false);
    assert.equal(info.callbacks_timeout, 10);
  });
});

const node = (over: Partial<NodeView>): NodeView => ({
  id: "n", name: "n", url: "https://n", pool: "default", node_id: "n", version: "1", reachable: true, ready: true, draining: false,
  enforcement_mode: "strict", slots: 4, in_flight: 1, free_slots: 3, waiting: 0, languages: [], not_ready_reasons: [], last_ok_at: null,
  last_error: null, registered_at: "2026-01-01T00:00:00.000Z", kind: "registered", state: "healthy", ...over,
} as NodeView);

describe("workers: one entry per runtime from the fleet's state", () => {
  it("slots of ready nodes are available, free ones idle, taken ones working, a draining or not-ready node's paused; size is its pool's queue", () => {
    const overview = {
      status: { runtimes: [{ language: "python", version: "3.11.2" }, { language: "go", version: "1.23.4" }] },
      nodes: [
        node({ id: "a", languages: [{ name: "python", version: "3.11.2" }, { name: "go", version: "1.23.4" }] }),
        node({ id: "b", pool: "eu", slots: 2, in_flight: 0, free_slots: 2, languages: [{ name: "python", version: "3.11.2" }] }),
        node({ id: "c", draining: true, slots: 8, languages: [{ name: "go", version: "1.23.4" }] }),
      ],
      pools: [{ pool: "default", nodes: 2, ready_nodes: 2, workers: 12, queue_depth: 5 }, { pool: "eu", nodes: 1, ready_nodes: 1, workers: 2, queue_depth: 1 }],
    } as unknown as FleetOverview;
    assert.deepEqual(judge0Workers(overview), [
      { queue: "python@3.11.2", size: 6, available: 6, idle: 5, working: 1, paused: 0, failed: 0 },
      { queue: "go@1.23.4", size: 5, available: 4, idle: 3, working: 1, paused: 8, failed: 0 },
    ]);
  });
});

describe("statistics", () => {
  it("Judge0's shape with nothing counted; the last 30 days before today, newest first", () => {
    const stats = emptyStatistics(new Date("2026-12-02T12:00:00Z")) as { submissions: { total: number; last_30_days: Record<string, number> } };
    assert.equal(stats.submissions.total, 0);
    const days = Object.keys(stats.submissions.last_30_days);
    assert.equal(days.length, 30);
    assert.equal(days[0], "2026-12-01");
    assert.equal(days[29], "2026-11-02");
  });
});
