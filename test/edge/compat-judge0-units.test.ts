// Judge0 CE compatibility, pure: a request mapped to ours, our record mapped to Judge0's, field by field.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { zipSync } from "fflate";
import { fromBase64, toBase64 } from "../../proto/base64.ts";
import type { ResultRecord } from "../../proto/record.ts";
import type { Runtime } from "../../proto/runtimes.ts";
import { judge0Status } from "../../edge/src/compat/judge0/statuses.ts";
import { judge0ToNative, parseJudge0Submission, splitArguments } from "../../edge/src/compat/judge0/to-native.ts";
import { judge0Submission, parseBase64Flag, parseFields } from "../../edge/src/compat/judge0/from-native.ts";
import { HttpError } from "../../edge/src/lib/http.ts";
import { RUNTIMES, record, rt, status } from "./compat-fixtures.ts";

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
    assert.throws(() => judge0ToNative(parseJudge0Submission({ language_id: 71 }), RUNTIMES, false), (e: unknown) => status(e, 422) && Object.hasOwn((e as HttpError).body, "source_code"));
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

describe("Judge0 mappings, field by field", () => {
  const map = (s: Record<string, unknown>, base64 = false) => judge0ToNative(parseJudge0Submission({ source_code: "x", language_id: 71, ...s }), RUNTIMES, base64);
  const err = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof HttpError, String(e));
      return { status: e.status, body: e.body };
    }
    throw new Error("no error");
  };

  it("a plain submission is just language, version and code; nothing else appears", () => {
    assert.deepEqual(map({}), { body: { language: "python", version: "3.11.2", code: "x" }, callbackUrl: null, runs: 1 });
    assert.deepEqual(map({ callback_url: "https://h/x" }).callbackUrl, "https://h/x");
  });

  it("each limit alone, rounded the Judge0 way and never below 1", () => {
    assert.deepEqual(map({ cpu_time_limit: 0.0001 }).body.limits, { cpu_time_ms: 1 });
    assert.deepEqual(map({ wall_time_limit: 2.5 }).body.limits, { wall_time_ms: 2500 });
    assert.deepEqual(map({ memory_limit: 1025 }).body.limits, { memory_mb: 2 });
    assert.deepEqual(map({ max_file_size: 0 }).body.limits, { file_size_kb: 1 });
    assert.deepEqual(map({ max_processes_and_or_threads: 3.6 }).body.limits, { processes: 4 });
  });

  it("stdin and expected_output, single run and runs; compiler options split on whitespace; base64 canonicalised", () => {
    assert.deepEqual(map({ stdin: "in", expected_output: "out" }).body, { language: "python", version: "3.11.2", code: "x", stdin: "in", expected_output: "out", compare: "lines" });
    assert.deepEqual(map({ stdin: "in", number_of_runs: 2 }).body.tests, [{ name: "run-1", stdin: "in" }, { name: "run-2", stdin: "in" }]);
    assert.deepEqual(map({ compiler_options: "  -O2   -DX=1 " }).body.compiler_options, ["-O2", "-DX=1"]);
    assert.equal(map({ source_code: "eA=\n=" }, true).body.code, "eA==");
    assert.equal(map({ source_code: "eA==", stdin: "eQ==", expected_output: "eg==" }, true).body.expected_output, "eg==");
    assert.equal(map({ source_code: "eA==", stdin: "eQ==" }, true).body.stdin, "eQ==");
    assert.equal(map({ stdin: "eQ==" }, false).body.stdin, "eQ==");
    assert.equal(map({}, false).body.encoding, undefined);
  });

  it("errors name the field, Judge0's way ({field: [message]}), with our sentence in `error`", () => {
    assert.deepEqual(err(() => map({ stack_limit: 1 })), {
      status: 422, body: { stack_limit: ["the stack limit is fixed (64 MiB) and cannot be set per submission"], error: "stack_limit: the stack limit is fixed (64 MiB) and cannot be set per submission", message: "see docs/migrating.md for what maps" },
    });
    for (const f of ["enable_network", "enable_per_process_and_thread_time_limit", "enable_per_process_and_thread_memory_limit"]) {
      assert.ok(Object.hasOwn(err(() => map({ [f]: true })).body, f), f);
      assert.doesNotThrow(() => map({ [f]: false }));
    }
    assert.deepEqual(err(() => map({ language_id: 4242 })).body.language_id, ["language with id 4242 doesn't exist"]);
    assert.deepEqual(err(() => map({ source_code: null })).body.source_code, ["can't be blank"]);
    assert.match(String(err(() => parseJudge0Submission({ source_code: 1, language_id: 71 })).body.error), /^source_code: /);
    assert.doesNotMatch(String(err(() => parseJudge0Submission({ source_code: 1, language_id: 71 })).body.error), /blank/);
    assert.deepEqual(err(() => parseJudge0Submission({ source_code: "x", language_id: 71, a: 1, b: 2 })).body, {
      error: "unsupported field(s): a, b", message: "these fields are not part of Judge0 CE 1.13's submission; see docs/migrating.md",
    });
    assert.deepEqual(err(() => map({ source_code: "eA==", stdin: "@@" }, true)).body.stdin, ["is not valid base64"]);
    assert.deepEqual(err(() => map({ additional_files: "@@" })).body.additional_files, ["is not valid base64"]);
    assert.match(String(err(() => map({ additional_files: toBase64(new Uint8Array(1024 * 1024 + 1)) })).body.error), /larger than 1048576 bytes/);
    assert.match(String(err(() => splitArguments("a > b")).body.error), /no shell operators/);
    assert.throws(() => parseJudge0Submission({ source_code: "x", language_id: 71, callback_url: "h".repeat(2049) }));
  });

  it("a zip of exactly the size and file caps is accepted; one byte or one file more is not", () => {
    const files = (n: number, size: number) => toBase64(zipSync(Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, new Uint8Array(size)]))));
    assert.equal((map({ additional_files: files(32, 1) }).body.files as unknown[]).length, 32);
    assert.equal((map({ additional_files: files(1, 1024 * 1024) }).body.files as unknown[]).length, 1);
    assert.equal(err(() => map({ additional_files: files(1, 1024 * 1024 + 1) })).status, 422);
    assert.equal((map({ additional_files: toBase64(zipSync({ "d/": new Uint8Array(), ...Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`d/f${i}`, new Uint8Array(1)])) })) }).body.files as unknown[]).length, 32);
  });
});

describe("Judge0 records, field by field", () => {
  it("fields: default set, *, a list (spaces allowed), unknown names refused", () => {
    assert.deepEqual(parseFields(""), parseFields(null));
    assert.deepEqual(parseFields("  "), parseFields(null));
    assert.equal(parseFields(" * ").length, 16);
    assert.deepEqual(parseFields(" stdout , token,"), ["stdout", "token"]);
    const e = (() => { try { parseFields("stdout,nope,bad"); } catch (x) { return x as HttpError; } })()!;
    assert.deepEqual(e.body, { error: "unsupported field(s) in fields: nope, bad", message: `available: ${parseFields("*").join(", ")}` });
    assert.equal(parseBase64Flag("true"), true);
    for (const v of [null, "false", "1", "TRUE"]) assert.equal(parseBase64Flag(v), false);
  });

  it("every field of a finished record", () => {
    const rec = record({ verdict: "RE", exit_code: 3, error_message: "runtime error: exit code 3", tests: [{}, {}] as ResultRecord["tests"],
      cpu_time_secs: 0.02, wall_time_secs: 0.05, memory_peak_bytes: 1536, evidence: { verdict_cause: "nonzero_exit" } as ResultRecord["evidence"] });
    assert.deepEqual(judge0Submission(rec, RUNTIMES, parseFields("*"), false), {
      token: rec.id, status: { id: 11, description: "Runtime Error (NZEC)" }, status_id: 11, stdout: "hi\n", stderr: "", compile_output: null,
      message: "runtime error: exit code 3", exit_code: 3, exit_signal: null, time: "0.010", wall_time: "0.025", memory: 2,
      created_at: rec.created_at, finished_at: rec.completed_at, language_id: 92, number_of_runs: 2,
    });
    const pending = record({ job_status: "pending", verdict: null, stdout: null, stderr: null, cpu_time_secs: null, wall_time_secs: null, memory_peak_bytes: null, exit_code: null, completed_at: null, error_message: null });
    const p = judge0Submission(pending, RUNTIMES, parseFields("*"), true);
    assert.deepEqual([p.status_id, p.stdout, p.time, p.wall_time, p.memory, p.message], [1, null, null, null, null, null]);
    assert.equal(judge0Submission(record({ message: undefined, error_message: "boom", verdict: "IE" } as Partial<ResultRecord>), RUNTIMES, parseFields("message"), true).message, toBase64(new TextEncoder().encode("boom")));
    assert.equal(judge0Submission(record({ version: "1.23.4", language: "go" }), [...RUNTIMES, rt("go", "1.23.4")], parseFields("language_id"), false).language_id, 107);
    assert.equal(judge0Submission(record({ language: "cobol" }), RUNTIMES, parseFields("language_id"), false).language_id, null);
    assert.equal(judge0Submission(record({ stdout: "\u00e9" }), RUNTIMES, parseFields("stdout"), true).stdout, toBase64(new TextEncoder().encode("\u00e9")));
  });

  it("statuses beyond the common ones", () => {
    assert.equal(judge0Status(record({ verdict: "RE", signal: 9, evidence: { verdict_cause: "signal" } as ResultRecord["evidence"] })).id, 12);
    assert.equal(judge0Status(record({ verdict: "RE", signal: null, evidence: { verdict_cause: "exec_format" } as ResultRecord["evidence"] })).id, 12);
    assert.equal(judge0Status(record({ verdict: "SIG", signal: 6 })).id, 10);
    assert.equal(judge0Status(record({ verdict: "SIG", signal: null })).id, 12);
    assert.equal(judge0Status(record({ verdict: "PLE" })).id, 12);
    assert.equal(judge0Status(record({ verdict: "FSE", signal: null })).id, 8);
    assert.equal(judge0Status(record({ verdict: "AC", evidence: { verdict_cause: "compile_error" } as ResultRecord["evidence"] })).id, 3);
    assert.equal(judge0Status(record({ verdict: "RE", evidence: null })).id, 12);
  });
});
