// The 1.1 request fields' pure parts: parseSubmit's checks and what it hands on, the RunOptions →
// ExecuteRequest mapping, and the 1.1 record (completedRecord with a format).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OutputIntegrity, Verdict } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecutionResult } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { HttpError } from "../../edge/src/lib/http.ts";
import { DEFAULT_CAPS } from "../../edge/src/plans/plan-caps.ts";
import { completedRecord, newRecord } from "../../edge/src/submission/record.ts";
import { parseSubmit } from "../../edge/src/submit/validate.ts";
import { COMPARE_MODES } from "../../proto/submission-rules.ts";
import { runRequestFields } from "../../edge/src/submission/run-request.ts";

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");

function refusal(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof HttpError, String(e));
    assert.equal(e.status, 400);
    return e.body;
  }
  assert.fail("not refused");
}

describe("parseSubmit with the 1.1 fields", () => {
  it("an old-style request has no options and no format (record 1.0)", () => {
    assert.deepEqual(parseSubmit({ language: "py", code: "x", stdin: "y" }), { language: "py", canonical: "python", code: "x", stdin: "y" });
  });

  it("base64 decodes code and keeps stdin as bytes; sizes count decoded bytes", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const s = parseSubmit({ language: "py", code: b64("print(1)"), stdin: b64(all), encoding: "base64" });
    assert.equal(s.code, "print(1)");
    assert.equal(s.stdin, "", "bytes that are not UTF-8 travel only as bytes");
    assert.equal(s.options?.stdin_b64, b64(all));
    assert.equal(s.options?.binary_output, true);
    assert.deepEqual(s.format, { encoding: "base64", named_version: false, tests: false });
    // 256 KiB decoded is allowed although its base64 is larger.
    assert.doesNotThrow(() => parseSubmit({ language: "py", code: b64("x"), stdin: b64(new Uint8Array(256 * 1024)), encoding: "base64" }));
    assert.match(String(refusal(() => parseSubmit({ language: "py", code: b64("x"), stdin: b64(new Uint8Array(256 * 1024 + 1)), encoding: "base64" })).error), /stdin too large: 262145 bytes/);
  });

  it("limits: in bytes for the node; the plan's cap where it is narrower than the node's default; above the cap refused", () => {
    const s = parseSubmit({ language: "py", code: "x", limits: { memory_mb: 100, output_kb: 8 } });
    assert.deepEqual(s.options?.limits, { wall_time_ms: 0, cpu_time_ms: 0, memory_bytes: 100 * 1024 * 1024, processes: 0, output_bytes: 8192 });
    const narrow = { ...DEFAULT_CAPS, name: "n", max_processes: 4 };
    const plain = parseSubmit({ language: "py", code: "x" }, narrow);
    assert.equal(plain.options?.limits?.processes, 4, "a narrow plan binds even requests that name no limit");
    assert.equal(plain.format, undefined, "but the record stays 1.0");
    assert.deepEqual(refusal(() => parseSubmit({ language: "py", code: "x", limits: { processes: 5 } }, narrow)), {
      error: "limits.processes above the plan's cap", message: "limits.processes is 5; the plan 'n' allows at most 4",
    });
  });

  it("compile limits: within the plan's compile caps (default: the node's compile limits), narrower ones sent; above a cap refused", () => {
    assert.equal(parseSubmit({ language: "c", code: "x" }).options, undefined, "the default plan sends none: the node's own apply");
    assert.deepEqual(parseSubmit({ language: "c", code: "x", compile_limits: { wall_time_ms: 30_000, cpu_time_ms: 60_000, memory_mb: 1024 } }).options?.compile_limits,
      { wall_time_ms: 30_000, cpu_time_ms: 60_000, memory_bytes: 1024 * 1024 * 1024 });
    assert.deepEqual(refusal(() => parseSubmit({ language: "c", code: "x", compile_limits: { memory_mb: 1025 } })), {
      error: "compile_limits.memory_mb above the plan's cap", message: "compile_limits.memory_mb is 1025; the plan 'default' allows at most 1024",
    });
    const narrow = { ...DEFAULT_CAPS, name: "n", compile_wall_time_ms: 5000, compile_memory_mb: 256 };
    const plain = parseSubmit({ language: "c", code: "x" }, narrow);
    assert.deepEqual(plain.options?.compile_limits, { wall_time_ms: 5000, cpu_time_ms: 0, memory_bytes: 256 * 1024 * 1024 }, "a narrow plan binds requests that name none");
    assert.equal(plain.format, undefined, "the record stays 1.0");
    assert.deepEqual(parseSubmit({ language: "c", code: "x", compile_limits: { memory_mb: 100 } }, narrow).options?.compile_limits,
      { wall_time_ms: 5000, cpu_time_ms: 0, memory_bytes: 100 * 1024 * 1024 });
    assert.deepEqual(refusal(() => parseSubmit({ language: "c", code: "x", compile_limits: { wall_time_ms: 5001 } }, narrow)), {
      error: "compile_limits.wall_time_ms above the plan's cap", message: "compile_limits.wall_time_ms is 5001; the plan 'n' allows at most 5000",
    });
  });

  it("tests and checks: default names, 'lines' and 1e-6 by default, expected outputs as bytes", () => {
    const s = parseSubmit({ language: "py", code: "x", tests: [{ stdin: "1" }, { name: "two", expected_output: "2" }], stop_on_first_failure: true });
    assert.deepEqual(s.options?.tests, [{ name: "test-1", stdin_b64: b64("1"), expected_b64: undefined }, { name: "two", stdin_b64: "", expected_b64: b64("2") }]);
    assert.deepEqual(s.options?.check, { compare: "lines", float_epsilon: 1e-6, expected_b64: undefined });
    assert.equal(s.options?.stop_on_first_failure, true);
    assert.deepEqual(s.format, { encoding: "utf8", named_version: false, tests: true });
    const f = parseSubmit({ language: "py", code: "x", expected_output: "3.0", compare: "float", float_epsilon: 0.01 });
    assert.deepEqual(f.options?.check, { compare: "float", float_epsilon: 0.01, expected_b64: b64("3.0") });
  });

  it("every compare rule is accepted; float_epsilon with the three float rules only", () => {
    for (const compare of COMPARE_MODES) assert.equal(parseSubmit({ language: "py", code: "x", expected_output: "1", compare }).options?.check?.compare, compare);
    for (const compare of ["float_abs", "float_rel"]) {
      assert.equal(parseSubmit({ language: "py", code: "x", expected_output: "1", compare, float_epsilon: 0.5 }).options?.check?.float_epsilon, 0.5);
    }
    for (const compare of ["exact", "lines", "tokens", "identical", "unordered", "tokens_ci"]) {
      assert.deepEqual(refusal(() => parseSubmit({ language: "py", code: "x", expected_output: "1", compare, float_epsilon: 0.5 })), {
        error: "invalid float_epsilon", message: "float_epsilon applies only to compare 'float', 'float_abs', 'float_rel'",
      });
    }
  });

  it("files: relative paths, content as bytes from utf8 or base64; Java's main source follows its public class", () => {
    const s = parseSubmit({ language: "py", code: "x", files: [{ path: "lib/u.py", content: "é" }, { path: "d.bin", content: b64(Uint8Array.of(0, 255)), encoding: "base64" }] });
    assert.deepEqual(s.options?.files, [{ path: "lib/u.py", content_b64: b64("é") }, { path: "d.bin", content_b64: b64(Uint8Array.of(0, 255)) }]);
    assert.equal(refusal(() => parseSubmit({ language: "java", code: "public class Hello { }", files: [{ path: "Hello.java", content: "" }] })).error, "invalid files[0].path");
    assert.doesNotThrow(() => parseSubmit({ language: "java", code: "public class Hello { }", files: [{ path: "Util.java", content: "" }] }));
  });
});

describe("RunOptions → ExecuteRequest", () => {
  it("no options: only output streaming is asked for", () => {
    assert.deepEqual(runRequestFields(undefined), { streamOutput: true });
  });

  it("every field mapped, bytes decoded", () => {
    const s = parseSubmit({
      language: "c", code: b64("int main(){}"), encoding: "base64", stdin: b64(Uint8Array.of(1, 2)), version: "12",
      limits: { wall_time_ms: 2000, cpu_time_ms: 1000, memory_mb: 64, processes: 8, output_kb: 16 },
      files: [{ path: "a.h", content: "#define A 1" }], args: ["-v"], compiler_options: ["-O2"],
      tests: [{ stdin: b64("in"), expected_output: b64("out") }], merge_stderr: true,
      compile_limits: { wall_time_ms: 5000, memory_mb: 512 },
    });
    assert.equal(s.code, "int main(){}");
    const req = runRequestFields(s.options);
    assert.deepEqual(req, {
      streamOutput: true,
      stdinBytes: Uint8Array.of(1, 2),
      limits: { wallTimeMs: 2000, cpuTimeMs: 1000, memoryBytes: 64 * 1024 * 1024, processes: 8, outputBytes: 16 * 1024, fileSizeBytes: 0 },
      files: [{ path: "a.h", content: new TextEncoder().encode("#define A 1") }],
      compileLimits: { wallTimeMs: 5000, cpuTimeMs: 0, memoryBytes: 512 * 1024 * 1024 },
      args: ["-v"], mergeStderr: true, compilerOptions: ["-O2"], version: "12",
      check: { compare: "lines", floatEpsilon: 1e-6, expectedOutput: undefined },
      tests: [{ name: "test-1", stdin: new TextEncoder().encode("in"), expectedOutput: new TextEncoder().encode("out") }],
      stopOnFirstFailure: false, binaryOutput: true,
    });
  });
});

describe("the 1.1 record", () => {
  const evidence = {
    verdictCause: "normal_exit", verdictActor: "runtime", isolationMode: "strict", controlsApplied: [], controlsMissing: [], cgroup: undefined,
    timing: undefined, processLifecycle: undefined, judgeActions: [], collectionErrors: [], mismatch: undefined,
    limits: { wallTimeMs: 10_000, cpuTimeMs: 10_000, memoryBytes: 268435456, processes: 64, outputBytes: 1048576, fileSizeBytes: 0 }, checker: undefined, interactor: undefined,
  };
  const result: ExecutionResult = { outputTally: undefined,
    submissionId: "x", language: "python", verdict: Verdict.VERDICT_AC, exitCode: 0, signal: undefined, stdout: "", stderr: "",
    stdoutBytes: Uint8Array.of(0, 255), stderrBytes: new Uint8Array(0),
    outputIntegrity: OutputIntegrity.OUTPUT_INTEGRITY_COMPLETE, errorMessage: undefined, cpuTimeSecs: 0.1, wallTimeSecs: 0.2,
    memoryPeakBytes: 1, version: "3.11.2", evidence, startedAt: new Date(0), completedAt: new Date(1), compileCacheHit: false,
    tests: [{ name: "t", result: undefined }],
  };

  it("1.0 (no format): no evidence.limits even when the node sends them; no 1.1 field", () => {
    const r = completedRecord(newRecord("i", "python", 0), result, 0);
    assert.equal(r.schema_version, "1.0");
    assert.equal(r.evidence?.limits, undefined);
    assert.ok(!("limits" in (r.evidence ?? {})));
    for (const k of ["encoding", "version", "tests"]) assert.ok(!(k in r), k);
  });

  it("1.1: encoding, version, tests, evidence.limits", () => {
    const format = { encoding: "base64" as const, named_version: false, tests: true };
    const r = completedRecord(newRecord("i", "python", 0, format), result, 0, format);
    assert.equal(r.schema_version, "1.1");
    assert.equal(r.encoding, "base64");
    assert.equal(r.stdout, b64(Uint8Array.of(0, 255)));
    assert.equal(r.version, "3.11.2", "a record with tests names its version");
    assert.equal(r.tests?.length, 1);
    assert.equal(r.tests?.[0]?.name, "t");
    assert.equal(r.evidence?.limits?.memory_bytes, 268435456);
    const plain = completedRecord(newRecord("i", "python", 0, { encoding: "utf8", named_version: false, tests: false }), result, 0, { encoding: "utf8", named_version: false, tests: false });
    assert.ok(!("encoding" in plain) && !("version" in plain) && !("tests" in plain));
    assert.equal(plain.schema_version, "1.1");
  });
});
