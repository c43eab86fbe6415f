// Piston v2 compatibility, pure: requests, stages and runtimes, field by field.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fromBase64, toBase64 } from "../../proto/base64.ts";
import type { ResultRecord } from "../../proto/record.ts";
import type { Runtime } from "../../proto/runtimes.ts";
import { parsePistonExecute, pistonRuntime, pistonToNative } from "../../edge/src/compat/piston/to-native.ts";
import { pistonResult, pistonRuntimes } from "../../edge/src/compat/piston/from-native.ts";
import { HttpError } from "../../edge/src/lib/http.ts";
import { RUNTIMES, record, rt, status } from "./compat-fixtures.ts";

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

  it("runtimes: Piston's names, aliases, and runtime node only for JavaScript and TypeScript; a language Piston cannot name (multi-file) is not listed", () => {
    const list = pistonRuntimes([
      rt("python", "3.11.2"), rt("javascript", "24.1.0"), rt("typescript", "24.1.0"), rt("go", "1.23.5"), rt("zig", "0.1"), rt("multi-file", "5.2.15"),
    ]);
    assert.deepEqual(list, [
      { language: "python", version: "3.11.2", aliases: ["py", "py3", "python3"] },
      { language: "javascript", version: "24.1.0", aliases: ["js", "node", "node-js", "node-javascript"], runtime: "node" },
      { language: "typescript", version: "24.1.0", aliases: ["ts", "node-ts", "tsc"], runtime: "node" },
      { language: "go", version: "1.23.5", aliases: ["golang"] },
    ]);
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
