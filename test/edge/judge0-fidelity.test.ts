// Judge0 and Piston fidelity, pure: every language_id a submission may name is listed, answered
// by GET /judge0/languages/{id} and echoed as sent; a build that made no program
// (no_executable) is Judge0's Compilation Error and Piston's failed compile stage, saying why.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fromBase64, toBase64 } from "../../proto/base64.ts";
import type { ResultRecord } from "../../proto/record.ts";
import type { Runtime } from "../../proto/runtimes.ts";
import { acceptedLanguages, judge0Languages, listedId, runtimeForId } from "../../edge/src/compat/judge0/languages.ts";
import { judge0Status } from "../../edge/src/compat/judge0/statuses.ts";
import { judge0Submission, parseFields } from "../../edge/src/compat/judge0/from-native.ts";
import { pistonResult } from "../../edge/src/compat/piston/from-native.ts";

const rt = (language: string, version: string, extra: Partial<Runtime> = {}): Runtime => ({
  language, version, aliases: [], default: false, compiled: ["c", "cpp", "java", "go", "rust"].includes(language), libraries: [], ...extra,
});
const RUNTIMES: Runtime[] = [
  rt("python", "3.11.2", { default: true }), rt("c", "12.2.0", { default: true }), rt("java", "17.0.17", { default: true }),
  rt("go", "1.19.8", { default: true }), rt("go", "1.23.4"), rt("rust", "1.85.0", { default: true }),
];
const record = (over: Partial<ResultRecord> = {}): ResultRecord => ({
  id: "5b0c7a3e-0000-4000-8000-000000000001", language: "python", job_status: "completed", schema_version: "1.1",
  verdict: "AC", exit_code: 0, signal: null, stdout: "hi\n", stderr: "", output_integrity: "complete", error_message: null,
  cpu_time_secs: 0.01, wall_time_secs: 0.02, memory_peak_bytes: 4096 * 1024, evidence: { verdict_cause: "normal_exit" } as ResultRecord["evidence"],
  created_at: "2026-11-24T00:00:00.000Z", started_at: null, completed_at: "2026-11-24T00:00:01.000Z", ...over,
});
const GO_HINT = "the build produced no executable: is the package `main`, with a `func main()`?";
const noExecutable = (over: Partial<ResultRecord> = {}) => record({
  language: "go", verdict: "RE", exit_code: 0, stdout: "", stderr: "", error_message: GO_HINT,
  evidence: { verdict_cause: "no_executable", verdict_actor: "runtime" } as ResultRecord["evidence"], ...over,
});

describe("every accepted language_id", () => {
  const accepted = acceptedLanguages(RUNTIMES);

  it("is listed: the runtimes' own ids first, as before, then the ids another version stands in for, by id", () => {
    const listed = judge0Languages(RUNTIMES);
    assert.deepEqual(accepted.slice(0, listed.length), listed);
    const standIns = accepted.slice(listed.length).map((l) => l.id);
    assert.deepEqual(standIns, [...standIns].sort((a, b) => a - b));
    assert.ok(standIns.includes(71) && standIns.includes(62) && standIns.includes(95), JSON.stringify(standIns));
    assert.equal(new Set(accepted.map((l) => l.id)).size, accepted.length, "no id twice");
  });

  it("each names the runtime that runs it, the one runtimeForId picks; a stand-in also what it stands in for", () => {
    for (const l of accepted) assert.equal(runtimeForId(l.id, RUNTIMES), l.runtime, `id ${l.id}`);
    const python38 = accepted.find((l) => l.id === 71)!;
    assert.deepEqual([python38.name, python38.runtime.version, python38.standIn], ["Python (3.11.2), standing in for Python (3.8)", "3.11.2", true]);
    assert.equal(accepted.find((l) => l.id === 92)!.standIn, undefined);
  });

  it("an id of a language we do not run, or not Judge0's, is not accepted", () => {
    for (const id of [51 /* C# */, 4242]) {
      assert.equal(runtimeForId(id, RUNTIMES), null);
      assert.equal(accepted.find((l) => l.id === id), undefined);
    }
  });

  it("listedId: the id of the runtime that runs it", () => {
    assert.equal(listedId(71, RUNTIMES), 92);
    assert.equal(listedId(92, RUNTIMES), 92);
    assert.equal(listedId(95, RUNTIMES), 60, "Go 1.18 runs on the default Go (1.19)");
    assert.equal(listedId(4242, RUNTIMES), undefined);
  });

  it("a record answers the id it was sent with; without one, its runtime's listed id", () => {
    const fields = parseFields("language_id");
    assert.equal(judge0Submission(record(), RUNTIMES, fields, false, 71).language_id, 71);
    assert.equal(judge0Submission(record(), RUNTIMES, fields, false).language_id, 92);
    assert.deepEqual(Object.keys(judge0Submission(record(), RUNTIMES, parseFields(null), false, 71)), parseFields(null), "only the fields asked");
  });
});

describe("a build that made no program", () => {
  it("is Judge0's status 6 Compilation Error with the reason in compile_output; no stdout, stderr or exit code", () => {
    const rec = noExecutable();
    assert.deepEqual(judge0Status(rec), { id: 6, description: "Compilation Error" });
    const j = judge0Submission(rec, RUNTIMES, parseFields("status_id,stdout,stderr,compile_output,exit_code,message"), false);
    assert.deepEqual(j, { status_id: 6, stdout: null, stderr: null, compile_output: `${GO_HINT}\n`, exit_code: null, message: GO_HINT });
  });

  it("the build's own diagnostics come first, then the reason on its own line, in either encoding", () => {
    const fields = parseFields("compile_output");
    assert.equal(judge0Submission(noExecutable({ stderr: "warning: x" }), RUNTIMES, fields, false).compile_output, `warning: x\n${GO_HINT}\n`);
    assert.equal(judge0Submission(noExecutable({ stderr: "warning: x\n" }), RUNTIMES, fields, false).compile_output, `warning: x\n${GO_HINT}\n`);
    const b64 = (s: string) => toBase64(new TextEncoder().encode(s));
    const asBase64 = judge0Submission(noExecutable({ encoding: "base64", stderr: b64("w") }), RUNTIMES, fields, true).compile_output as string;
    assert.equal(new TextDecoder().decode(fromBase64(asBase64)!), `w\n${GO_HINT}\n`);
    assert.equal(judge0Submission(noExecutable({ encoding: "base64", stderr: "" }), RUNTIMES, fields, false).compile_output, `${GO_HINT}\n`);
  });

  it("a compile error stays as it was: the diagnostics alone", () => {
    const rec = record({ language: "c", verdict: "RE", exit_code: 1, stderr: "main.c:1: error", error_message: "compilation failed", evidence: { verdict_cause: "compile_error" } as ResultRecord["evidence"] });
    assert.equal(judge0Submission(rec, RUNTIMES, parseFields("compile_output"), false).compile_output, "main.c:1: error");
    assert.deepEqual(pistonResult(rec, RUNTIMES[1]!).compile, {
      stdout: "", stderr: "main.c:1: error", output: "main.c:1: error", code: 1, signal: null, message: "compilation failed", status: "RE",
      cpu_time: 10, wall_time: 20, memory: 4096 * 1024,
    });
  });

  it("is Piston's failed compile stage: a non-zero code, the reason in stderr and output, and no run stage", () => {
    const out = pistonResult(noExecutable({ stderr: "note: y" }), RUNTIMES[3]!);
    assert.equal(out.run, undefined);
    const compile = out.compile as Record<string, unknown>;
    assert.deepEqual([compile.code, compile.stderr, compile.output, compile.stdout, compile.signal, compile.status], [1, `note: y\n${GO_HINT}\n`, `note: y\n${GO_HINT}\n`, "", null, "RE"]);
  });
});
