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
import { judge0Submission, parseBase64Flag, parseFields } from "../../edge/src/compat/judge0/from-native.ts";
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

describe("Judge0 ids, table by table", () => {
  // Each Judge0 CE id and the language and version it names.
  const TABLE: [number, string, string, string][] = [
    [71, "python", "3.8.1", "Python (3.8.1)"], [92, "python", "3.11.2", "Python (3.11.2)"], [100, "python", "3.12.5", "Python (3.12.5)"], [109, "python", "3.13.2", "Python (3.13.2)"],
    [50, "c", "9.2.0", "C (GCC 9.2.0)"], [48, "c", "7.4.0", "C (GCC 7.4.0)"], [49, "c", "8.3.0", "C (GCC 8.3.0)"], [103, "c", "14.1.0", "C (GCC 14.1.0)"],
    [54, "cpp", "9.2.0", "C++ (GCC 9.2.0)"], [52, "cpp", "7.4.0", "C++ (GCC 7.4.0)"], [53, "cpp", "8.3.0", "C++ (GCC 8.3.0)"], [105, "cpp", "14.1.0", "C++ (GCC 14.1.0)"],
    [62, "java", "13.0.1", "Java (JDK 13.0.1)"], [91, "java", "17.0.6", "Java (JDK 17.0.6)"],
    [63, "javascript", "12.14.0", "JavaScript (Node.js 12.14.0)"], [93, "javascript", "18.15.0", "JavaScript (Node.js 18.15.0)"],
    [97, "javascript", "20.17.0", "JavaScript (Node.js 20.17.0)"], [102, "javascript", "22.08.0", "JavaScript (Node.js 22.08.0)"],
    [74, "typescript", "3.7.4", "TypeScript (3.7.4)"], [94, "typescript", "5.0.3", "TypeScript (5.0.3)"], [101, "typescript", "5.6.2", "TypeScript (5.6.2)"],
    [60, "go", "1.13.5", "Go (1.13.5)"], [95, "go", "1.18.5", "Go (1.18.5)"], [106, "go", "1.22.0", "Go (1.22.0)"], [107, "go", "1.23.5", "Go (1.23.5)"],
    [73, "rust", "1.40.0", "Rust (1.40.0)"], [108, "rust", "1.85.0", "Rust (1.85.0)"],
  ];

  it("a runtime of exactly Judge0's version keeps Judge0's id and is named the Judge0 way", () => {
    const runtimes = TABLE.map(([, language, version]) => rt(language, version));
    const listed = judge0Languages(runtimes);
    assert.deepEqual(listed.map((l) => [l.id, l.name]), TABLE.map(([id, , , name]) => [id, name]));
    for (const [id, language, version] of TABLE) assert.deepEqual(runtimeForId(id, runtimes), rt(language, version), String(id));
  });

  it("an id of a version we lack: the same major version if we have one, else the language's default", () => {
    const ours = [rt("python", "3.9.0"), rt("python", "2.7.18", { default: true }), rt("java", "21.0.1", { default: true }), rt("java", "17.0.17")];
    assert.equal(runtimeForId(71, ours)?.version, "3.9.0", "Python 3.8 asked: a Python 3");
    assert.equal(runtimeForId(91, ours)?.version, "17.0.17", "Java 17 asked: our 17");
    assert.equal(runtimeForId(62, ours)?.version, "21.0.1", "Java 13 asked, no 13: the default");
    assert.equal(runtimeForId(62, [rt("java", "21.0.1"), rt("java", "25.0.1")])?.version, "21.0.1", "no default marked: the first");
    assert.equal(runtimeForId(73, ours), null, "a language we do not run");
  });

  it("ids are distinct: a second runtime of a matched major takes the next Judge0 id of that major, then ids of ours", () => {
    const twins = [rt("go", "1.23.5", { default: true }), rt("go", "1.23.9"), rt("c", "99.0", { default: true }), rt("cpp", "99.0"), rt("ada", "1.0")];
    const ids = judge0Languages(twins).map((l) => l.id);
    assert.deepEqual(ids, [107, 60, 50, OWN_IDS_FROM, OWN_IDS_FROM + 1]);
    assert.equal(judge0Languages(twins)[4]!.name, "ada (1.0)");
    assert.equal(majorMinor("v1"), null);
    assert.equal(majorMinor("17"), "17.0");
  });
});

describe("Piston stages and runtimes, field by field", () => {
  const c = rt("c", "12.2.0", { compiled: true });
  const py = rt("python", "3.11.2");

  it("a run stage carries everything Piston reports, times in ms and memory in bytes", () => {
    const r = pistonResult(record({ verdict: "RE", exit_code: 2, stdout: "o", stderr: "e", error_message: "runtime error: exit code 2", cpu_time_secs: 0.0124, wall_time_secs: 0.5006 }), py);
    assert.deepEqual(r, {
      language: "python", version: "3.11.2",
      run: { stdout: "o", stderr: "e", output: "oe", code: 2, signal: null, message: "runtime error: exit code 2", status: "RE", cpu_time: 12, wall_time: 501, memory: 4096 * 1024 },
    });
    const ok = pistonResult(record({ error_message: "ignored" }), py).run as Record<string, unknown>;
    assert.equal(ok.message, null);
    assert.equal(ok.status, null);
    const unknown = pistonResult(record({ cpu_time_secs: null, wall_time_secs: null, memory_peak_bytes: null }), py).run as Record<string, unknown>;
    assert.deepEqual([unknown.cpu_time, unknown.wall_time, unknown.memory], [null, null, null]);
  });

  it("statuses: XX for errors and IE, OL for truncated output, SG for signals and memory kills, RE for exit codes, none for AC and WA", () => {
    const st = (over: Partial<ResultRecord>) => (pistonResult(record(over), py).run as { status: string | null }).status;
    assert.equal(st({ job_status: "error", verdict: null, exit_code: null }), "XX");
    assert.equal(st({ verdict: "IE", exit_code: null }), "XX");
    assert.equal(st({ output_integrity: "truncated_by_judge_limit" }), "OL");
    assert.equal(st({ verdict: "MLE", signal: 9, exit_code: null }), "SG");
    assert.equal(st({ verdict: "PLE", signal: null, exit_code: null }), "SG");
    assert.equal(st({ verdict: "RE", exit_code: 1 }), "RE");
    assert.equal(st({ verdict: "AC" }), null);
    assert.equal(st({ verdict: "WA", exit_code: 0 }), null);
    assert.equal((pistonResult(record({ verdict: "SIG", signal: 64, exit_code: null }), py).run as { signal: string }).signal, "SIG64");
    assert.equal((pistonResult(record({ verdict: "SIG", signal: 15, exit_code: null }), py).run as { signal: string }).signal, "SIGTERM");
  });

  it("a base64 record is decoded to text; a compile error's stage has the compiler's exit code or 1, and SG when killed", () => {
    const b = pistonResult(record({ encoding: "base64", stdout: toBase64(new TextEncoder().encode("héllo")), stderr: null }), py).run as { stdout: string; stderr: string };
    assert.deepEqual([b.stdout, b.stderr], ["héllo", ""]);
    const ce = (over: Partial<ResultRecord>) => pistonResult(record({ verdict: "RE", stdout: "", stderr: "bad", evidence: { verdict_cause: "compile_error" } as ResultRecord["evidence"], ...over }), c).compile as { code: number; status: string; stdout: string; output: string };
    assert.deepEqual([ce({ exit_code: 4 }).code, ce({ exit_code: 4 }).status], [4, "RE"]);
    assert.equal(ce({ exit_code: null }).code, 1);
    assert.equal(ce({ exit_code: null, signal: 9 }).status, "SG");
    assert.deepEqual([ce({ exit_code: 1 }).stdout, ce({ exit_code: 1 }).output], ["", "bad"]);
    const compiled = pistonResult(record(), c).compile as Record<string, unknown>;
    assert.deepEqual(compiled, { stdout: "", stderr: "", output: "", code: 0, signal: null, message: null, status: null, cpu_time: null, wall_time: null, memory: null });
  });

  it("runtimes: Piston's names, aliases, and runtime node only for JavaScript and TypeScript", () => {
    const list = pistonRuntimes([rt("python", "3.11.2"), rt("javascript", "24.1.0"), rt("typescript", "24.1.0"), rt("go", "1.23.5"), rt("zig", "0.1")]);
    assert.deepEqual(list, [
      { language: "python", version: "3.11.2", aliases: ["py", "py3", "python3"] },
      { language: "javascript", version: "24.1.0", aliases: ["js", "node", "node-js", "node-javascript"], runtime: "node" },
      { language: "typescript", version: "24.1.0", aliases: ["ts", "node-ts", "tsc"], runtime: "node" },
      { language: "go", version: "1.23.5", aliases: ["golang"] },
      { language: "zig", version: "0.1", aliases: [] },
    ]);
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
    assert.deepEqual(err(() => parseJudge0Submission({ language_id: 71 })).body.source_code, ["can't be blank"]);
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

describe("compatibility credentials, edge cases", () => {
  it("trimmed; scheme names in any case; Basic with a password still names the key; empty values are no key", () => {
    const h = (init: Record<string, string>) => new Headers(init);
    assert.equal(compatKey(h({ "x-api-key": "  k1 " })), "k1");
    assert.equal(compatKey(h({ authorization: "  bearer   k3 " })), "k3");
    assert.equal(compatKey(h({ authorization: `BASIC ${btoa("k4:secret")}` })), "k4");
    assert.equal(compatKey(h({ authorization: `Basic ${btoa(":pw")}` })), null);
    assert.equal(compatKey(h({ authorization: "Bearer" })), null);
    assert.equal(compatKey(h({ authorization: "Token k5" })), null);
    assert.equal(compatKey(h({ authorization: `Basic ${btoa("sk%5Fx:")}` })), "sk_x");
  });
});

describe("Piston requests, field by field", () => {
  const ALL: Runtime[] = ["python", "c", "cpp", "java", "javascript", "typescript", "go", "rust"].map((l) => rt(l, "1.2.3", { aliases: ["1.2"] }));
  const go2 = [rt("go", "1.19.8"), rt("go", "1.23.5", { aliases: ["1.23"] }), rt("go", "weird")];

  it("every Piston name and alias of our languages; nothing else", () => {
    const names: [string, string][] = [
      ["python", "python"], ["py", "python"], ["py3", "python"], ["python3", "python"], ["c", "c"], ["gcc", "c"], ["c++", "cpp"], ["cpp", "cpp"], ["g++", "cpp"],
      ["java", "java"], ["javascript", "javascript"], ["js", "javascript"], ["node", "javascript"], ["node-js", "javascript"], ["node-javascript", "javascript"],
      ["typescript", "typescript"], ["ts", "typescript"], ["node-ts", "typescript"], ["tsc", "typescript"], ["go", "go"], ["golang", "go"], ["rust", "rust"], ["rs", "rust"],
    ];
    for (const [name, language] of names) assert.equal(pistonRuntime(name, "*", ALL)?.language, language, name);
    for (const name of ["Python", "constructor", "__proto__", ""]) assert.equal(pistonRuntime(name, "*", ALL), null, name);
    assert.deepEqual(pistonRuntimes(ALL).map((r) => r.language), ["python", "c", "c++", "java", "javascript", "typescript", "go", "rust"]);
  });

  it("versions: exact or alias first, then the highest semver match; not a range → null", () => {
    assert.equal(pistonRuntime("go", "1.23", go2)?.version, "1.23.5");
    assert.equal(pistonRuntime("go", "weird", go2)?.version, "weird");
    assert.equal(pistonRuntime("go", "^1.19.0", go2)?.version, "1.23.5");
    assert.equal(pistonRuntime("go", "~1.19.0", go2)?.version, "1.19.8");
    assert.equal(pistonRuntime("go", "2.x", go2), null);
    assert.equal(pistonRuntime("go", "not a range", go2), null);
  });

  it("parse errors: Piston's {message}, naming the field; unknown fields listed", () => {
    const msg = (input: unknown) => {
      try {
        parsePistonExecute(input);
      } catch (e) {
        assert.ok(e instanceof HttpError && e.status === 400);
        assert.equal(e.body.error, e.body.message);
        return e.body.message as string;
      }
      throw new Error("parsed");
    };
    assert.equal(msg({ version: "*", files: [{ content: "" }] }), "language is required (string)");
    assert.equal(msg({ language: "c", version: "*", files: [{ content: "" }], x: 1, y: 2 }), "unsupported field(s): x, y");
    assert.match(msg({ language: "c", version: "*", files: [{ content: "" }], args: "a" }), /^args: /);
    assert.match(msg({ language: "c", version: "*", files: [{ content: 5 }] }), /^files\.0\.content: /);
    assert.match(msg([]), /^request: /);
    assert.equal(parsePistonExecute({ language: "c", version: "*", files: [{ content: "", encoding: "hex" }] }).files[0]!.encoding, "hex");
  });

  it("the body: entry as base64 text, stdin as base64 (empty by default), other files named or numbered, args only when given", () => {
    const py = pistonRuntime("python", "*", ALL)!;
    const body = pistonToNative(parsePistonExecute({ language: "python", version: "*", files: [{ content: "cHJpbnQ=", encoding: "base64" }, { content: "616263", encoding: "hex" }, { name: "n.txt", content: "é" }], args: [] }), py);
    assert.deepEqual(body, {
      language: "python", version: "1.2.3", encoding: "base64", code: "cHJpbnQ=", stdin: "",
      files: [{ path: "file1", content: toBase64(new TextEncoder().encode("abc")), encoding: "base64" }, { path: "n.txt", content: toBase64(new TextEncoder().encode("é")), encoding: "base64" }],
    });
    assert.equal(pistonToNative(parsePistonExecute({ language: "python", version: "*", files: [{ content: "" }], stdin: "in" }), py).stdin, toBase64(new TextEncoder().encode("in")));
    assert.throws(() => pistonToNative(parsePistonExecute({ language: "python", version: "*", files: [{ content: "@@", encoding: "base64" }] }), py), (e: unknown) => status(e, 400) && /files\[0\]\.content is not valid base64/.test(String((e as HttpError).body.message)));
    assert.throws(() => pistonToNative(parsePistonExecute({ language: "python", version: "*", files: [{ content: "" }, { content: "abc", encoding: "hex" }] }), py), (e: unknown) => status(e, 400) && /files\[1\]\.content is not valid hex/.test(String((e as HttpError).body.message)));
  });

  it("each limit alone: run and compile, ms rounded, bytes to MiB rounded up; 0 and -1 mean the default", () => {
    const py = pistonRuntime("python", "*", ALL)!;
    const lim = (extra: Record<string, number>) => {
      const b = pistonToNative(parsePistonExecute({ language: "python", version: "*", files: [{ content: "" }], ...extra }), py);
      return [b.limits, b.compile_limits];
    };
    assert.deepEqual(lim({ run_timeout: 1500.4 }), [{ wall_time_ms: 1500 }, undefined]);
    assert.deepEqual(lim({ run_cpu_time: 700.6 }), [{ cpu_time_ms: 701 }, undefined]);
    assert.deepEqual(lim({ run_memory_limit: 1 }), [{ memory_mb: 1 }, undefined]);
    assert.deepEqual(lim({ run_memory_limit: 3 * 1024 * 1024 + 1 }), [{ memory_mb: 4 }, undefined]);
    assert.deepEqual(lim({ compile_timeout: 9000 }), [undefined, { wall_time_ms: 9000 }]);
    assert.deepEqual(lim({ compile_cpu_time: 8000 }), [undefined, { cpu_time_ms: 8000 }]);
    assert.deepEqual(lim({ compile_memory_limit: 1 }), [undefined, { memory_mb: 1 }]);
    assert.deepEqual(lim({ run_timeout: 0, run_cpu_time: -1, run_memory_limit: -1, compile_timeout: 0, compile_cpu_time: -1, compile_memory_limit: -1 }), [undefined, undefined]);
  });
});
