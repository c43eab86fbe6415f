// A live session's two protocols, pure (edge/src/session/native.ts, piston.ts): what a client's
// frame parses to, and what each reply sends and how it closes, against docs/live-sessions.md.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { ResultRecord } from "../../proto/record.ts";
import type { ClientAction, Refusal, RefusalKind } from "../../edge/src/session/dialect.ts";
import { NATIVE_CLOSE, native } from "../../edge/src/session/native.ts";
import { piston } from "../../edge/src/session/piston.ts";
import { SESSION_ERRORS } from "../../edge/src/openapi/session-messages.ts";
import { assertSchema } from "./openapi-check.ts";

const DOC = readFileSync(new URL("../../docs/live-sessions.md", import.meta.url), "utf8");

/** The `| Code | Why |` table that follows `heading` in the doc: code → why. */
function closeTable(heading: string): Map<number, string> {
  const section = DOC.slice(DOC.indexOf(heading));
  assert.ok(DOC.includes(heading), `the doc has ${heading}`);
  const table = section.slice(section.indexOf("| Code | Why |"));
  const rows = new Map<number, string>();
  for (const line of table.split("\n").slice(2)) {
    const cells = /^\| (\d+) \| (.+) \|$/.exec(line);
    if (!cells) break;
    rows.set(Number(cells[1]), cells[2]!);
  }
  return rows;
}

const frame = (m: unknown) => JSON.stringify(m);
const bytes = (a: ClientAction | Refusal) => ("kind" in a && a.kind === "stdin" ? [...a.data] : a);
const sent = (messages: string[]) => messages.map((m) => JSON.parse(m) as Record<string, unknown>);
const refusal = (refused: RefusalKind, message = "why"): Refusal => ({ refused, message });

const EVIDENCE: ResultRecord["evidence"] = {
  verdict_cause: "normal_exit", verdict_actor: "runtime", isolation_mode: "namespaces+cgroup",
  controls_applied: ["cgroup_memory", "cgroup_pids", "seccomp"], controls_missing: [],
  cgroup: {
    memory_limit_bytes: 268435456, memory_peak_bytes: 9175040, oom_events: 0, oom_kill_events: 0, cpu_usage_usec: 41200, process_count: 1, process_limit: 64,
  },
  timing: { cpu_ms: 41, cpu_time_ms: 41, wall_ms: 5120, cpu_wall_ratio: 0.008, divergence: "io_bound" },
  process_lifecycle: { reap_status: "reaped", descendant_containment: "contained", zombie_count: 0 },
  judge_actions: [], collection_errors: [],
};

/** A live python run that read its client's input for five seconds and exited 0. */
const record = (over: Partial<ResultRecord> = {}, evidence: Partial<ResultRecord["evidence"]> = {}): ResultRecord => ({
  id: "0f8e2a41-5c3b-4d7e-9a10-6b2c4d8e1f00", language: "python", job_status: "completed", schema_version: "1.0",
  verdict: "AC", exit_code: 0, signal: null, stdout: "hello, ada\n", stderr: "", output_integrity: "complete", error_message: null,
  cpu_time_secs: 0.0412, wall_time_secs: 5.12, memory_peak_bytes: 9175040, evidence: { ...EVIDENCE, ...evidence },
  created_at: "2026-11-27T04:00:00.000Z", started_at: "2026-11-27T04:00:00.200Z", completed_at: "2026-11-27T04:00:05.400Z", ...over,
});

describe("native protocol: parse", () => {
  it("start: the submit body without its type; a second start is refused", () => {
    const body = { language: "python", code: "print(input())", stdin: "ada\n" };
    assert.deepEqual(native.parse(frame({ type: "start", ...body }), false), { kind: "start", body });
    assert.deepEqual(native.parse(frame({ type: "start", ...body }), true), { refused: "started_twice", message: "the session has started already" });
  });
  it("stdin: `data` as UTF-8, `data_b64` as bytes; bad base64 or neither is invalid", () => {
    assert.deepEqual(bytes(native.parse(frame({ type: "stdin", data: "é\n" }), true)), [0xc3, 0xa9, 0x0a]);
    assert.deepEqual(bytes(native.parse(frame({ type: "stdin", data_b64: "AAEC/w==" }), true)), [0, 1, 2, 255]);
    assert.deepEqual(bytes(native.parse(frame({ type: "stdin", data: "" }), true)), []);
    for (const bad of [{ data_b64: "not base64!" }, { data_b64: "AAE" }, { data_b64: 7 }, {}, { data: 1 }]) {
      assert.equal((native.parse(frame({ type: "stdin", ...bad }), true) as Refusal).refused, "invalid", JSON.stringify(bad));
    }
  });
  it("end, and the three signals; any other signal is bad_signal", () => {
    assert.deepEqual(native.parse(frame({ type: "end" }), true), { kind: "end" });
    for (const signal of ["SIGINT", "SIGTERM", "SIGKILL"]) assert.deepEqual(native.parse(frame({ type: "signal", signal }), true), { kind: "signal", signal });
    for (const signal of ["SIGHUP", "sigint", 2, undefined]) {
      assert.equal((native.parse(frame({ type: "signal", signal }), true) as Refusal).refused, "bad_signal", String(signal));
    }
  });
  it("before start: stdin, end and signal are not_started; an unknown type is invalid", () => {
    for (const type of ["stdin", "end", "signal"]) {
      const refused = { refused: "not_started", message: "the first message must be `start`" };
      assert.deepEqual(native.parse(frame({ type, data: "x", signal: "SIGINT" }), false), refused);
    }
    for (const m of [{ type: "init" }, { type: "hello" }, { data: "x" }, { type: 1 }]) {
      assert.equal((native.parse(frame(m), false) as Refusal).refused, "invalid", JSON.stringify(m));
    }
  });
  it("after start: an unknown type is invalid", () => {
    assert.equal((native.parse(frame({ type: "data", stream: "stdin", data: "x" }), true) as Refusal).refused, "invalid");
  });
  it("not JSON, not an object, or a binary frame: invalid", () => {
    for (const raw of ["{", "", "[1,2]", "null", "42", '"start"']) {
      for (const started of [false, true]) assert.equal((native.parse(raw, started) as Refusal).refused, "invalid", raw);
    }
    const binary = new TextEncoder().encode(frame({ type: "start" })).buffer as ArrayBuffer;
    assert.deepEqual(native.parse(binary, false), { refused: "invalid", message: "messages are JSON text frames" });
  });
});

describe("native protocol: replies", () => {
  const doc = closeTable("### Close codes");
  // Each kind, by a phrase of its row's "Why" in the doc.
  const WHY: Record<RefusalKind, string | null> = {
    invalid: "not JSON", not_started: "unknown", bad_stream: "bad fields", bad_signal: "bad fields",
    revoked: "revoked", start_timeout: "No `start` within 10 s",
    started_twice: "second `start`", idle: "idle timeout", window: "past the window", stdin_cap: "byte cap", flood: "Too many messages",
    rate_limited: "rate or concurrency", unavailable: "queue is full", too_long: "maximum duration",
    internal: null,
  };

  it("the doc's close-code table is there", () => {
    assert.equal(doc.get(1000), "The run ended; the `result` was sent.");
    assert.ok(doc.size >= 12, `rows: ${[...doc.keys()].join(", ")}`);
  });
  for (const kind of Object.keys(WHY) as RefusalKind[]) {
    const phrase = WHY[kind];
    if (phrase === null) continue;
    it(`${kind} closes with the doc's code for "${phrase}"`, () => {
      const rows = [...doc].filter(([, why]) => why.includes(phrase));
      assert.equal(rows.length, 1, `one row of the doc says "${phrase}"`);
      assert.equal(NATIVE_CLOSE[kind], rows[0]![0]);
      const reply = native.refusal(refusal(kind, "because"));
      assert.deepEqual(reply.close, { code: rows[0]![0], reason: kind });
      assert.deepEqual(sent(reply.messages), [{ type: "error", error: kind, message: "because" }]);
    });
  }
  it("every code of the doc's table but 1000 is one a refusal closes with", () => {
    const used = new Set(Object.values(NATIVE_CLOSE));
    for (const code of doc.keys()) if (code !== 1000) assert.ok(used.has(code), `${code} is closed with`);
  });
  it("internal closes with 1011, a code the doc's table names", () => {
    assert.equal(NATIVE_CLOSE.internal, 1011);
    assert.ok(doc.has(1011));
  });
  it("a refusal's details ride in its error message (4429's retry_after)", () => {
    const reply = native.refusal({ refused: "rate_limited", message: "60 requests per minute", details: { retry_after: 7, status: 429 } });
    assert.deepEqual(sent(reply.messages), [{ type: "error", error: "rate_limited", message: "60 requests per minute", retry_after: 7, status: 429 }]);
    assert.equal(reply.close?.code, 4429);
  });
  it("result: the record, then close 1000", () => {
    const rec = record();
    const reply = native.result(rec, "run");
    assert.deepEqual(sent(reply.messages), [{ type: "result", record: rec }]);
    assert.equal(reply.close?.code, 1000);
  });
  it("taken → stdin_ack; stage, output, accepted, attached keep the session open", () => {
    assert.deepEqual(native.taken(4096), { messages: [frame({ type: "stdin_ack", taken: 4096 })] });
    assert.deepEqual(native.stage("run", "compile"), { messages: [frame({ type: "stage", stage: "run" })] });
    assert.deepEqual(native.output("stderr", "oops\n"), { messages: [frame({ type: "stderr", data: "oops\n" })] });
    const limits = { max_duration_ms: 300_000, idle_timeout_ms: 60_000, stdin_bytes: 16 << 20, output_bytes: 1 << 20 };
    const accepted = native.accepted({ id: "s1", session_id: "k1", window: 1 << 20, limits, runtime: { language: "python", version: "3.11.2" } });
    assert.deepEqual(sent(accepted.messages), [{ type: "accepted", id: "s1", session_id: "k1", window: 1 << 20, limits }]);
    assert.equal(accepted.close, undefined);
    assert.deepEqual(sent(native.attached({ id: "s1", session_id: "k1", taken: 12 }).messages), [{ type: "attached", id: "s1", session_id: "k1", taken: 12 }]);
  });
});

describe("native protocol: the messages are the document's (SessionClientMessage, SessionServerMessage)", () => {
  const ID = "0f8e2a41-5c3b-4d7e-9a10-6b2c4d8e1f00";
  const SESSION = "7c1d0e9a-4b2f-4e11-8a3d-2f6b9c0d1e22";
  const limits = { max_duration_ms: 300_000, idle_timeout_ms: 60_000, stdin_bytes: 16 << 20, output_bytes: 1 << 20 };

  it("every reply the server makes is a SessionServerMessage", () => {
    const replies = [
      native.accepted({ id: ID, session_id: SESSION, window: 1 << 20, limits }),
      native.attached({ id: ID, session_id: SESSION, taken: 12 }),
      native.stage("compile", null), native.stage("run", "compile"),
      native.output("stdout", "hello\n"), native.output("stderr", "oops\n"),
      native.taken(4096),
      native.result(record(), "run"),
      native.refusal({ refused: "rate_limited", message: "60 requests per minute", details: { retry_after: 7, status: 429, reason: "quota exceeded" } }),
      native.refusal({ refused: "invalid", message: "unsupported language", details: { available: ["python"], status: 400 } }),
      ...SESSION_ERRORS.map((kind) => native.refusal(refusal(kind))),
    ];
    for (const reply of replies) for (const m of sent(reply.messages)) assertSchema("SessionServerMessage", m);
  });

  it("the schema can fail: a message the server never sends is refused", () => {
    for (const m of [{ type: "stage", stage: "judge" }, { type: "stdout" }, { type: "error", error: "exploded", message: "x" }, { type: "accepted", id: ID }]) {
      assert.throws(() => assertSchema("SessionServerMessage", m), JSON.stringify(m));
    }
  });

  it("what the schema lets a client send, the server takes; what it refuses, the server refuses", () => {
    const valid = [
      { type: "start", language: "python", code: "print(input())", stdin: "ada" },
      { type: "stdin", data: "é" }, { type: "stdin", data_b64: "AAEC/w==" }, { type: "end" },
      { type: "signal", signal: "SIGINT" }, { type: "signal", signal: "SIGTERM" }, { type: "signal", signal: "SIGKILL" },
    ];
    for (const m of valid) {
      assertSchema("SessionClientMessage", m);
      assert.ok(!("refused" in native.parse(frame(m), m.type !== "start")), JSON.stringify(m));
    }
    const invalid = [{ type: "stdin", data: 1 }, { type: "stdin" }, { type: "signal", signal: "SIGHUP" }, { type: "hello" }];
    for (const m of invalid) {
      assert.throws(() => assertSchema("SessionClientMessage", m), JSON.stringify(m));
      assert.ok("refused" in native.parse(frame(m), true), JSON.stringify(m));
    }
  });
});

describe("Piston protocol: parse and refusals", () => {
  const doc = closeTable("## Piston-compatible");
  const closes = (a: ClientAction | Refusal) => piston.refusal(a as Refusal);

  it("init: the execute body, marked Piston's; a second init closes 4000 Already Initialized", () => {
    const body = { language: "python", version: "3.11", files: [{ content: "print(input())" }] };
    assert.deepEqual(piston.parse(frame({ type: "init", ...body }), false), { kind: "start", body, piston: true });
    const again = piston.parse(frame({ type: "init", ...body }), true);
    assert.deepEqual(closes(again), { messages: [], close: { code: 4000, reason: "Already Initialized" } });
  });
  it("data and signal before init close 4003", () => {
    for (const m of [{ type: "data", stream: "stdin", data: "x" }, { type: "signal", signal: "SIGINT" }]) {
      assert.deepEqual(closes(piston.parse(frame(m), false)).close, { code: 4003, reason: "Not yet initialized" });
    }
  });
  it("data: stdin as UTF-8; another stream closes 4004; data that is no string is an error (4002)", () => {
    assert.deepEqual(bytes(piston.parse(frame({ type: "data", stream: "stdin", data: "ü" }), true)), [0xc3, 0xbc]);
    assert.deepEqual(closes(piston.parse(frame({ type: "data", stream: "stdout", data: "x" }), true)).close, { code: 4004, reason: "Can only write to stdin" });
    const bad = closes(piston.parse(frame({ type: "data", stream: "stdin", data: [1] }), true));
    assert.deepEqual(bad, { messages: [frame({ type: "error", message: "data must be a string" })], close: { code: 4002, reason: "Notified Error" } });
  });
  it("signal: the three are passed on; any other closes 4005", () => {
    assert.deepEqual(piston.parse(frame({ type: "signal", signal: "SIGTERM" }), true), { kind: "signal", signal: "SIGTERM" });
    assert.deepEqual(closes(piston.parse(frame({ type: "signal", signal: "SIGUSR1" }), true)).close, { code: 4005, reason: "Invalid signal" });
  });
  it("not JSON: an error message, then 4002", () => {
    for (const raw of ["{oops", new TextEncoder().encode("{}").buffer as ArrayBuffer]) {
      const reply = closes(piston.parse(raw, true));
      assert.equal(sent(reply.messages)[0]!.type, "error");
      assert.equal(typeof sent(reply.messages)[0]!.message, "string");
      assert.deepEqual(reply.close, { code: 4002, reason: "Notified Error" });
    }
  });
  it("an unknown type is ignored, before init and after", () => {
    for (const started of [false, true]) assert.deepEqual(piston.parse(frame({ type: "ping" }), started), { kind: "none" });
  });
  it("every kind closes with a code of the doc's Piston table", () => {
    for (const kind of Object.keys(NATIVE_CLOSE) as RefusalKind[]) {
      const code = piston.refusal(refusal(kind)).close!.code;
      assert.ok(doc.has(code), `${kind} closes with ${code}`);
    }
    assert.deepEqual(piston.refusal(refusal("start_timeout")).close, { code: 4001, reason: "Initialization Timeout" });
    assert.deepEqual(sent(piston.refusal(refusal("idle", "idle for 60 s")).messages), [{ type: "error", message: "idle for 60 s" }]);
  });
});

describe("Piston protocol: stages and the result", () => {
  const exitOf = (messages: string[]) => sent(messages).filter((m) => m.type === "exit");

  it("a stage after compile ends the compile stage first", () => {
    const expected = [{ type: "exit", stage: "compile", code: 0, signal: null }, { type: "stage", stage: "run" }];
    assert.deepEqual(sent(piston.stage("run", "compile").messages), expected);
    assert.deepEqual(sent(piston.stage("run", null).messages), [{ type: "stage", stage: "run" }]);
    assert.deepEqual(sent(piston.stage("compile", null).messages), [{ type: "stage", stage: "compile" }]);
  });
  it("a normal run: the run stage's exit without its output, then 4999 Job Completed", () => {
    for (const last of ["run", null]) {
      const reply = piston.result(record(), last);
      assert.deepEqual(sent(reply.messages), [{
        type: "exit", stage: "run", code: 0, signal: null, message: null, status: null, cpu_time: 41, wall_time: 5120, memory: 9175040,
      }]);
      assert.deepEqual(reply.close, { code: 4999, reason: "Job Completed" });
    }
  });
  it("a killed run names its signal: 9 is SIGKILL", () => {
    const killed = record({ verdict: "SIG", exit_code: null, signal: 9, error_message: "killed by signal 9 (SIGKILL)" }, { verdict_cause: "signal" });
    const [exit] = exitOf(piston.result(killed, "run").messages);
    assert.equal(exit!.signal, "SIGKILL");
    assert.equal(exit!.code, null);
    assert.equal(exit!.status, "SG");
    assert.equal(exit!.message, "killed by signal 9 (SIGKILL)");
    const timedOut = record({ verdict: "TLE", exit_code: null, signal: 9 }, { verdict_cause: "wall_timeout" });
    const [timeout] = exitOf(piston.result(timedOut, "run").messages);
    assert.deepEqual([timeout!.signal, timeout!.status], ["SIGKILL", "TO"]);
  });
  it("a failed build: the compile stage's exit with a non-zero code, and no run stage", () => {
    const failed = record(
      { language: "c", verdict: "RE", exit_code: 1, stdout: "", stderr: "main.c:1:1: error: expected ';'\n", error_message: "compilation failed" },
      { verdict_cause: "compile_error", verdict_actor: "runtime" },
    );
    const reply = piston.result(failed, "compile");
    const messages = sent(reply.messages);
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.type, "exit");
    assert.equal(messages[0]!.stage, "compile");
    assert.equal(messages[0]!.code, 1);
    assert.equal(messages[0]!.status, "RE");
    assert.equal("stderr" in messages[0]! || "output" in messages[0]!, false, "the output went as data messages");
    assert.deepEqual(reply.close, { code: 4999, reason: "Job Completed" });
  });
  it("a build with no program exits its compile stage 1", () => {
    const fields = { language: "go", verdict: "RE", exit_code: 0, stdout: "", error_message: "package util is not a main package" } as const;
    const none = record(fields, { verdict_cause: "no_executable" });
    assert.deepEqual(exitOf(piston.result(none, "compile").messages).map((m) => [m.stage, m.code]), [["compile", 1]]);
  });
  it("a run that failed to run: an error message, then its exit", () => {
    const lost = record({ job_status: "error", verdict: "IE", exit_code: null, error_message: "fleet node lost; a live session is not run again elsewhere" });
    const messages = sent(piston.result(lost, "run").messages);
    assert.deepEqual(messages.map((m) => m.type), ["error", "exit"]);
    assert.equal(messages[0]!.message, "fleet node lost; a live session is not run again elsewhere");
    assert.equal(messages[1]!.status, "XX");
  });
});
