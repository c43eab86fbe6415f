// The compatibility layers' pure mappings (Judge0 CE, Piston v2), both directions.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { zipSync } from "fflate";
import { fromBase64, toBase64 } from "../../proto/base64.ts";
import type { ResultRecord } from "../../proto/record.ts";
import type { Runtime } from "../../proto/runtimes.ts";
import { compatKey } from "../../edge/src/compat/credentials.ts";
import { OWN_IDS_FROM, judge0Languages, majorMinor, runtimeForId } from "../../edge/src/compat/judge0/languages.ts";
import { judge0Status } from "../../edge/src/compat/judge0/statuses.ts";
import { judge0ToNative, parseJudge0Submission, splitArguments } from "../../edge/src/compat/judge0/to-native.ts";
import { judge0Submission, parseFields } from "../../edge/src/compat/judge0/from-native.ts";
import { parsePistonExecute, pistonRuntime, pistonToNative } from "../../edge/src/compat/piston/to-native.ts";
import { pistonResult, pistonRuntimes } from "../../edge/src/compat/piston/from-native.ts";
import { HttpError } from "../../edge/src/lib/http.ts";

const rt = (language: string, version: string, extra: Partial<Runtime> = {}): Runtime => ({
  language, version, aliases: [], default: false, compiled: ["c", "cpp", "java", "go", "rust"].includes(language), libraries: [], ...extra,
});
const RUNTIMES: Runtime[] = [
  rt("python", "3.11.2", { default: true }), rt("c", "12.2.0", { default: true }), rt("cpp", "12.2.0", { default: true }),
  rt("java", "17.0.17", { default: true }), rt("java", "25.0.1"), rt("javascript", "24.11.0", { default: true }), rt("javascript", "22.21.0"),
  rt("go", "1.19.8", { default: true }), rt("go", "1.23.4"),
];

const record = (over: Partial<ResultRecord> = {}): ResultRecord => ({
  id: "5b0c7a3e-0000-4000-8000-000000000001", language: "python", job_status: "completed", schema_version: "1.0",
  verdict: "AC", exit_code: 0, signal: null, stdout: "hi\n", stderr: "", output_integrity: "complete", error_message: null,
  cpu_time_secs: 0.0123, wall_time_secs: 0.02, memory_peak_bytes: 4096 * 1024,
  evidence: { verdict_cause: "normal_exit" } as ResultRecord["evidence"],
  created_at: "2026-11-24T00:00:00.000Z", started_at: null, completed_at: "2026-11-24T00:00:01.000Z", ...over,
});

const status = (e: unknown, code: number) => e instanceof HttpError && e.status === code;

describe("Judge0 language ids", () => {
  it("keeps Judge0's id for the same language and version, the classic id for a default, own ids for the rest", () => {
    const ids = new Map(judge0Languages(RUNTIMES).map((l) => [`${l.runtime.language} ${l.runtime.version}`, l.id]));
    assert.equal(ids.get("python 3.11.2"), 92);
    assert.equal(ids.get("java 17.0.17"), 91);
    assert.equal(ids.get("go 1.23.4"), 107);
    assert.equal(ids.get("go 1.19.8"), 60);
    assert.equal(ids.get("c 12.2.0"), 50);
    assert.ok(ids.get("java 25.0.1")! >= OWN_IDS_FROM);
    assert.equal(new Set(ids.values()).size, RUNTIMES.length, "ids are unique");
    assert.equal(majorMinor("22.08.0"), "22.8");
  });
  it("an id of Judge0 CE we do not list runs the language's default; an unknown id is null", () => {
    assert.equal(runtimeForId(71, RUNTIMES)?.version, "3.11.2");
    assert.equal(runtimeForId(102, RUNTIMES)?.version, "22.21.0", "Node 22 asked, Node 22 given");
    assert.equal(runtimeForId(95, RUNTIMES)?.version, "1.19.8");
    assert.equal(runtimeForId(9999, RUNTIMES), null);
  });
});

describe("Judge0 statuses", () => {
  const cases: [Partial<ResultRecord>, number][] = [
    [{ job_status: "pending", verdict: null }, 1], [{ job_status: "running", verdict: null }, 2], [{}, 3],
    [{ verdict: "WA" }, 4], [{ verdict: "TLE" }, 5],
    [{ verdict: "RE", evidence: { verdict_cause: "compile_error" } as ResultRecord["evidence"] }, 6],
    [{ verdict: "RE", signal: 11, exit_code: null, evidence: { verdict_cause: "segmentation_fault" } as ResultRecord["evidence"] }, 7],
    [{ verdict: "FSE", signal: 25 }, 8], [{ verdict: "RE", signal: 8 }, 9], [{ verdict: "RE", signal: 6 }, 10],
    [{ verdict: "RE", exit_code: 3, evidence: { verdict_cause: "nonzero_exit" } as ResultRecord["evidence"] }, 11],
    [{ verdict: "MLE" }, 12], [{ verdict: "SIG", signal: 15 }, 12], [{ verdict: "IE" }, 13], [{ job_status: "error", verdict: null }, 13],
  ];
  for (const [over, id] of cases) {
    it(`${over.job_status ?? "completed"} ${over.verdict ?? ""} ${over.signal ?? ""} → ${id}`, () => assert.equal(judge0Status(record(over)).id, id));
  }
});

describe("Judge0 request → native", () => {
  it("maps code, stdin, limits (seconds, KB) and arguments; base64 fields stay base64 (newlines allowed)", () => {
    const s = parseJudge0Submission({
      source_code: "cHJpbnQoMSk=\n", language_id: 71, stdin: "eA==", cpu_time_limit: 1.5, wall_time_limit: 3, memory_limit: 65536,
      max_processes_and_or_threads: 8, command_line_arguments: `a "b c" 'd'`, compiler_options: "", cpu_extra_time: 0.5,
    });
    const { body } = judge0ToNative(s, RUNTIMES, true);
    assert.deepEqual(body, {
      language: "python", version: "3.11.2", code: "cHJpbnQoMSk=", encoding: "base64", stdin: "eA==",
      limits: { cpu_time_ms: 1500, wall_time_ms: 3000, memory_mb: 64, processes: 8 }, args: ["a", "b c", "d"],
    });
  });
  it("redirect_stderr_to_stdout becomes merge_stderr", () => {
    assert.equal(judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 71, redirect_stderr_to_stdout: true }), RUNTIMES, false).body.merge_stderr, true);
    assert.equal(judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 71, redirect_stderr_to_stdout: false }), RUNTIMES, false).body.merge_stderr, undefined);
  });
  it("number_of_runs runs the program that many times as tests; expected_output compares by lines", () => {
    const { body, runs } = judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 71, stdin: "1", expected_output: "1", number_of_runs: 3 }), RUNTIMES, false);
    assert.equal(runs, 3);
    assert.equal((body.tests as unknown[]).length, 3);
    assert.equal(body.compare, "lines");
    assert.equal(body.stdin, undefined);
  });
  it("additional_files: a base64 zip becomes files beside the program", () => {
    const zip = toBase64(zipSync({ "util.h": new TextEncoder().encode("#define X 1\n"), "dir/": new Uint8Array(), "dir/a.txt": new Uint8Array([0, 255]) }));
    const { body } = judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 50, additional_files: zip }), RUNTIMES, false);
    const files = body.files as { path: string; content: string }[];
    assert.deepEqual(files.map((f) => f.path).sort(), ["dir/a.txt", "util.h"]);
    assert.deepEqual([...fromBase64(files.find((f) => f.path === "dir/a.txt")!.content)!], [0, 255]);
  });
  it("additional_files: a zip bomb is refused by its declared size before it is inflated; too many files too", () => {
    const bomb = toBase64(zipSync({ "zeros.bin": new Uint8Array(50 * 1024 * 1024) }, { level: 9 }));
    assert.ok(bomb.length < 100_000);
    assert.throws(() => judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 71, additional_files: bomb }), RUNTIMES, false),
      (e: unknown) => status(e, 422) && /once unpacked/.test(String((e as HttpError).body.error)));
    const many = toBase64(zipSync(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}.txt`, new Uint8Array([1])]))));
    assert.throws(() => judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 71, additional_files: many }), RUNTIMES, false),
      (e: unknown) => status(e, 422) && /more than 32 files/.test(String((e as HttpError).body.error)));
    assert.throws(() => judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 71, additional_files: toBase64(new Uint8Array([80, 75, 3, 4, 0])) }), RUNTIMES, false),
      (e: unknown) => status(e, 422) && /not a valid zip/.test(String((e as HttpError).body.error)));
  });
  it("refuses what it cannot honour, by name, with 422", () => {
    for (const [field, value] of [["enable_network", true], ["stack_limit", 1000], ["enable_per_process_and_thread_time_limit", true]] as const) {
      assert.throws(() => judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 71, [field]: value }), RUNTIMES, false),
        (e: unknown) => status(e, 422) && Object.hasOwn((e as HttpError).body, field));
    }
    assert.throws(() => parseJudge0Submission({ source_code: "x", language_id: 71, webhook: 1 }), (e: unknown) => status(e, 422) && /webhook/.test(String((e as HttpError).body.error)));
    assert.throws(() => parseJudge0Submission({ language_id: 71 }), (e: unknown) => status(e, 422) && Object.hasOwn((e as HttpError).body, "source_code"));
    assert.throws(() => judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 4242 }), RUNTIMES, false), (e: unknown) => status(e, 422));
    assert.throws(() => judge0ToNative(parseJudge0Submission({ source_code: "!!", language_id: 71 }), RUNTIMES, true), (e: unknown) => status(e, 422));
    assert.throws(() => splitArguments("a | b"), (e: unknown) => status(e, 422));
    assert.deepEqual(splitArguments("$HOME x"), ["$HOME", "x"]);
  });
});

describe("native record → Judge0", () => {
  it("default fields, time in seconds as text, memory in KB", () => {
    assert.deepEqual(judge0Submission(record(), RUNTIMES, parseFields(null), false), {
      stdout: "hi\n", time: "0.012", memory: 4096, stderr: "", token: record().id, compile_output: null, message: null,
      status: { id: 3, description: "Accepted" },
    });
  });
  it("a compile error puts the diagnostics in compile_output; base64 both ways; fields=*", () => {
    const ce = record({ verdict: "RE", exit_code: 1, stdout: "", stderr: "main.c:1: error", error_message: "compilation failed",
      evidence: { verdict_cause: "compile_error" } as ResultRecord["evidence"] });
    const j = judge0Submission(ce, RUNTIMES, parseFields("*"), true);
    assert.equal(j.status_id, 6);
    assert.equal(new TextDecoder().decode(fromBase64(j.compile_output as string)!), "main.c:1: error");
    assert.equal(j.stdout, null);
    assert.equal(j.language_id, 92);
    const binary = record({ encoding: "base64", stdout: toBase64(new Uint8Array([0xff, 0xfe])) });
    assert.throws(() => judge0Submission(binary, RUNTIMES, parseFields("stdout"), false), (e: unknown) => status(e, 400));
    assert.deepEqual(judge0Submission(binary, RUNTIMES, parseFields("stdout"), true), { stdout: "//4=" });
    assert.throws(() => parseFields("stdout,source_code"), (e: unknown) => status(e, 400));
  });
});

describe("Piston", () => {
  it("versions: exact, semver range, * (the newest)", () => {
    assert.equal(pistonRuntime("go", "1.23.4", RUNTIMES)?.version, "1.23.4");
    assert.equal(pistonRuntime("golang", "1.19.x", RUNTIMES)?.version, "1.19.8");
    assert.equal(pistonRuntime("node", "*", RUNTIMES)?.version, "24.11.0");
    assert.equal(pistonRuntime("js", ">=22 <23", RUNTIMES)?.version, "22.21.0");
    assert.equal(pistonRuntime("python", "2.7", RUNTIMES), null);
    assert.equal(pistonRuntime("brainfuck", "*", RUNTIMES), null);
  });
  it("request: the first file is the entry, others go beside it; hex and base64; limits in ms and bytes", () => {
    const p = parsePistonExecute({
      language: "c", version: "*", files: [{ name: "main.c", content: "int main(){}" }, { name: "util.h", content: "2f2f", encoding: "hex" }],
      stdin: "in", args: ["1"], run_timeout: 3000, compile_timeout: 10000, run_memory_limit: -1, compile_memory_limit: 128 * 1024 * 1024,
    });
    const body = pistonToNative(p, pistonRuntime("c", "*", RUNTIMES)!);
    assert.equal(new TextDecoder().decode(fromBase64(body.code as string)!), "int main(){}");
    assert.deepEqual(body.files, [{ path: "util.h", content: toBase64(new TextEncoder().encode("//")), encoding: "base64" }]);
    assert.deepEqual(body.limits, { wall_time_ms: 3000 });
    assert.deepEqual(body.compile_limits, { wall_time_ms: 10000, memory_mb: 128 });
    assert.deepEqual(body.args, ["1"]);
    assert.throws(() => parsePistonExecute({ language: "c", version: "*", files: [] }), (e: unknown) => status(e, 400));
    assert.throws(() => parsePistonExecute({ language: "c", version: "*", files: [{ content: "" }], extra: 1 }), (e: unknown) => status(e, 400));
  });
  it("response: compile stage for compiled languages, no run stage after a compile error; statuses", () => {
    const c = pistonRuntime("c", "*", RUNTIMES)!;
    const ok = pistonResult(record({ language: "c" }), c);
    assert.deepEqual(Object.keys(ok), ["language", "version", "compile", "run"]);
    assert.equal((ok.run as { output: string }).output, "hi\n");
    const ce = pistonResult(record({ language: "c", verdict: "RE", exit_code: 1, stdout: "", stderr: "error: x",
      evidence: { verdict_cause: "compile_error" } as ResultRecord["evidence"] }), c);
    assert.equal(ce.run, undefined);
    assert.equal((ce.compile as { stderr: string; code: number }).stderr, "error: x");
    const py = pistonRuntime("python", "*", RUNTIMES)!;
    assert.equal(pistonResult(record(), py).compile, undefined);
    assert.equal((pistonResult(record({ verdict: "TLE", signal: 9, exit_code: null }), py).run as { status: string; signal: string }).status, "TO");
    assert.equal((pistonResult(record({ verdict: "RE", exit_code: 2 }), py).run as { status: string }).status, "RE");
    assert.equal((pistonResult(record({ verdict: "RE", signal: 11, exit_code: null }), py).run as { signal: string }).signal, "SIGSEGV");
    assert.deepEqual(pistonRuntimes([rt("cpp", "12.2.0")])[0], { language: "c++", version: "12.2.0", aliases: ["cpp", "g++"] });
  });
});

describe("compatibility credentials", () => {
  it("X-API-Key, X-Auth-Token, Bearer and Basic (key as user name)", () => {
    const h = (init: Record<string, string>) => new Headers(init);
    assert.equal(compatKey(h({ "x-api-key": "k1" })), "k1");
    assert.equal(compatKey(h({ "x-auth-token": "k2" })), "k2");
    assert.equal(compatKey(h({ authorization: "Bearer k3" })), "k3");
    assert.equal(compatKey(h({ authorization: `Basic ${btoa("k4:")}` })), "k4");
    assert.equal(compatKey(h({ authorization: "Basic !!" })), null);
    assert.equal(compatKey(h({})), null);
  });
});
