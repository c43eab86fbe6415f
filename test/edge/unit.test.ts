// Unit tests of the edge's pure helpers (no Worker needed).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ExecuteResponse, OutputIntegrity, Verdict } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecutionResult } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { FLAG_TRAILERS, FrameParser, FrameTooLargeError, MAX_FRAME_BYTES, decodeGrpcMessage, encodeFrame, parseTrailers } from "../../proto/grpc-web/codec.ts";
import { HttpError, readJsonObject } from "../../edge/src/lib/http.ts";
import { constantTimeEqual, randomBase62, sha256Hex } from "../../edge/src/lib/keys.ts";
import { KEY_PATTERN, generateApiKey } from "../../edge/src/keys/api-key.ts";
import { canonicalLanguage, orderLanguages } from "../../proto/languages.ts";
import { slidingWindow } from "../../edge/src/lib/ratelimit.ts";
import { completedRecord, errorRecord, newRecord } from "../../edge/src/submission/record.ts";
import { checkWebhookUrl } from "../../edge/src/webhooks/endpoint-url.ts";
import { classify } from "../../edge/src/webhooks/attempt-policy.ts";
import { generateSecret, secretKey, sign } from "../../edge/src/webhooks/signing.ts";
import { Webhook } from "standardwebhooks";
import { MAX_CODE_BYTES, MAX_STDIN_BYTES } from "../../proto/limits.ts";
import { parseSubmit, parseWait } from "../../edge/src/submit/validate.ts";

describe("slidingWindow", () => {
  it("allows up to the limit, then refuses with a whole-second Retry-After", () => {
    let ts: number[] = [];
    for (let i = 0; i < 60; i++) {
      const d = slidingWindow(ts, 1_000 + i * 10, 60, 60_000);
      assert.equal(d.allowed, true);
      assert.equal(d.remaining, 59 - i);
      ts = d.kept;
    }
    const refused = slidingWindow(ts, 1_600, 60, 60_000);
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    // The oldest (t=1000) leaves the window at 61000: 59.4 s later, rounded up.
    assert.equal(refused.retryAfterSecs, 60);
    assert.equal(slidingWindow(ts, 61_001, 60, 60_000).allowed, true);
  });
  it("forgets requests older than the window", () => {
    const d = slidingWindow([0, 1, 2], 60_003, 3, 60_000);
    assert.equal(d.allowed, true);
    assert.deepEqual(d.kept, [60_003]);
  });
  it("never returns Retry-After 0 when refusing", () => {
    const d = slidingWindow([59_999], 119_998, 1, 60_000);
    assert.equal(d.allowed, false);
    assert.equal(d.retryAfterSecs, 1);
  });
});

describe("gRPC-Web frames", () => {
  it("round-trips data and trailers split at every byte boundary", () => {
    const msg = ExecuteResponse.encode({ started: { startedAt: new Date(1_700_000_000_123) } }).finish();
    const trailers = new TextEncoder().encode("grpc-status: 0\r\ngrpc-message: all%20good\r\n");
    const wire = new Uint8Array([...encodeFrame(msg), ...encodeFrame(trailers, FLAG_TRAILERS)]);
    for (let cut = 0; cut <= wire.length; cut++) {
      const p = new FrameParser();
      const frames = [...p.push(wire.slice(0, cut)), ...p.push(wire.slice(cut))];
      assert.equal(frames.length, 2);
      assert.equal(frames[0]?.trailers, false);
      assert.equal(ExecuteResponse.decode(frames[0]!.payload).started?.startedAt?.getTime(), 1_700_000_000_123);
      const t = parseTrailers(frames[1]!.payload);
      assert.equal(t["grpc-status"], "0");
      assert.equal(decodeGrpcMessage(t["grpc-message"]), "all good");
      assert.equal(p.pending, 0);
    }
  });
  it("reports a truncated frame as pending bytes", () => {
    const p = new FrameParser();
    assert.deepEqual(p.push(encodeFrame(new Uint8Array(10)).slice(0, 8)), []);
    assert.equal(p.pending, 8);
  });
  it("rejects absurd frame lengths", () => {
    assert.throws(() => new FrameParser().push(new Uint8Array([0, 0xff, 0xff, 0xff, 0xff])), FrameTooLargeError);
  });
  it("takes a frame at the cap in one-byte, odd and 64 KiB chunks, and many frames per chunk (linear: chunks are joined once)", () => {
    const payload = new Uint8Array(MAX_FRAME_BYTES);
    for (let i = 0; i < payload.length; i += 4093) payload[i] = i % 251;
    const wire = encodeFrame(payload);
    for (const size of [65_536, 4_093, 1]) {
      if (size === 1) {
        // one byte at a time over the header and the first KiB, then the rest at once
        const p = new FrameParser();
        for (let i = 0; i < 1029; i++) assert.deepEqual(p.push(wire.subarray(i, i + 1)), []);
        const [frame] = p.push(wire.subarray(1029));
        assert.deepEqual(frame?.payload, payload);
        continue;
      }
      const p = new FrameParser();
      const frames = [];
      for (let at = 0; at < wire.length; at += size) frames.push(...p.push(wire.subarray(at, at + size)));
      assert.equal(frames.length, 1);
      assert.deepEqual(frames[0]!.payload, payload);
      assert.equal(p.pending, 0);
    }
    const small = new Uint8Array(Array.from({ length: 100 }, (_, i) => [...encodeFrame(new Uint8Array([i]))]).flat());
    assert.deepEqual(new FrameParser().push(small).map((f) => f.payload[0]), Array.from({ length: 100 }, (_, i) => i));
  });
});

describe("result record mapping", () => {
  const result: ExecutionResult = { outputTally: undefined,
    submissionId: "x", language: "python", verdict: Verdict.VERDICT_TLE, exitCode: undefined, signal: 9, stdout: "a", stderr: "",
    outputIntegrity: OutputIntegrity.OUTPUT_INTEGRITY_CRASH_MID_WRITE, errorMessage: undefined, cpuTimeSecs: 0.5, wallTimeSecs: 10.01,
    memoryPeakBytes: 1234, tests: [], version: "",
    evidence: {
      verdictCause: "wall_timeout", verdictActor: "supervisor", isolationMode: "strict", controlsApplied: ["pid_namespace"],
      controlsMissing: [], cgroup: { memoryLimitBytes: 1, memoryPeakBytes: 2, oomEvents: 0, oomKillEvents: 0, cpuUsageUsec: 5, processCount: 1, processLimit: 64 },
      timing: { cpuMs: 500, wallMs: 10010, cpuWallRatio: 0.05, divergence: "io_bound" }, mismatch: undefined, limits: undefined, checker: undefined, interactor: undefined,
      processLifecycle: { reapStatus: "clean", descendantContainment: "ok", zombieCount: 0 },
      judgeActions: ["sigkill_on_wall_timeout"], collectionErrors: [],
    },
    startedAt: new Date("2026-01-01T00:00:00.000Z"), completedAt: new Date("2026-01-01T00:00:10.010Z"), compileCacheHit: false,
  };
  it("maps every field to the documented snake_case record", () => {
    const base = newRecord("id-1", "python", Date.parse("2025-12-31T23:59:59.999Z"));
    assert.equal(base.created_at, "2025-12-31T23:59:59.999Z");
    const r = completedRecord(base, result, 0);
    assert.equal(r.job_status, "completed");
    assert.equal(r.schema_version, "1.0");
    assert.equal(r.verdict, "TLE");
    assert.equal(r.exit_code, null);
    assert.equal(r.signal, 9);
    assert.equal(r.output_integrity, "crash_mid_write");
    assert.equal(r.error_message, null);
    assert.equal(r.started_at, "2026-01-01T00:00:00.000Z");
    assert.equal(r.completed_at, "2026-01-01T00:00:10.010Z");
    assert.deepEqual(r.evidence?.judge_actions, ["sigkill_on_wall_timeout"]);
    assert.equal(r.evidence?.cgroup.process_limit, 64);
    assert.equal(r.evidence?.timing.divergence, "io_bound");
    assert.equal(r.evidence?.timing.cpu_time_ms, 500, "the run's CPU time beside its wall time");
    assert.equal(r.evidence?.process_lifecycle.reap_status, "clean");
    assert.deepEqual(Object.keys(r).sort(), [
      "completed_at", "cpu_time_secs", "created_at", "error_message", "evidence", "exit_code", "id", "job_status", "language",
      "memory_peak_bytes", "output_integrity", "schema_version", "signal", "started_at", "stderr", "stdout", "verdict", "wall_time_secs",
    ]);
  });
  it("reports an unknown verdict as IE instead of guessing", () => {
    const r = completedRecord(newRecord("i", "c", 0), { ...result, verdict: Verdict.VERDICT_UNSPECIFIED }, 0);
    assert.equal(r.verdict, "IE");
    assert.match(r.error_message ?? "", /unknown verdict/);
  });
  it("error records null the outcome and say what failed", () => {
    const r = errorRecord(newRecord("i", "c", 0), "node died", 5);
    assert.equal(r.job_status, "error");
    assert.equal(r.verdict, null);
    assert.equal(r.stdout, null);
    assert.equal(r.error_message, "node died");
    assert.equal(r.completed_at, "1970-01-01T00:00:00.005Z");
  });
});

describe("keys", () => {
  it("generates sk_live_ + 32 base62 and hashes with SHA-256", async () => {
    const k = generateApiKey();
    assert.match(k, KEY_PATTERN);
    assert.notEqual(k, generateApiKey());
    assert.equal(await sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert.equal(randomBase62(100).length, 100);
  });
  it("compares in constant time, including different lengths", () => {
    assert.equal(constantTimeEqual("abc", "abc"), true);
    assert.equal(constantTimeEqual("abc", "abd"), false);
    assert.equal(constantTimeEqual("abc", "abcd"), false);
    assert.equal(constantTimeEqual("", ""), true);
  });
});

describe("languages", () => {
  it("maps every alias of docs/api.md to its canonical name", () => {
    const expect: Record<string, string> = {
      python: "python", py: "python", c: "c", cpp: "cpp", "c++": "cpp", cxx: "cpp", cc: "cpp", java: "java",
      javascript: "javascript", js: "javascript", typescript: "typescript", ts: "typescript", go: "go", rust: "rust", rs: "rust",
    };
    for (const [alias, canonical] of Object.entries(expect)) assert.equal(canonicalLanguage(alias), canonical);
    assert.equal(canonicalLanguage("cobol"), null);
    assert.equal(canonicalLanguage("toString"), null);
    assert.deepEqual(orderLanguages(["c", "rust", "python"]), ["python", "c", "rust"]);
  });
});

describe("validation", () => {
  const bad = (fn: () => unknown, status: number, re: RegExp) => {
    try {
      fn();
      assert.fail("expected an HttpError");
    } catch (e) {
      assert.ok(e instanceof HttpError);
      assert.equal(e.status, status);
      assert.match(JSON.stringify(e.body), re);
    }
  };
  it("accepts a minimal submission and defaults stdin", () => {
    assert.deepEqual(parseSubmit({ language: "py", code: "print(1)" }), { language: "py", canonical: "python", code: "print(1)", stdin: "" });
  });
  it("refuses empty code, oversize code/stdin, webhooks, unknown fields, wrong types", () => {
    bad(() => parseSubmit({ language: "py", code: "" }), 400, /code must not be empty/);
    bad(() => parseSubmit({ language: "py", code: "x".repeat(MAX_CODE_BYTES + 1) }), 400, /code too large/);
    bad(() => parseSubmit({ language: "py", code: "é".repeat(MAX_CODE_BYTES / 2 + 1) }), 400, /code too large/);
    bad(() => parseSubmit({ language: "py", code: "x", stdin: "x".repeat(MAX_STDIN_BYTES + 1) }), 400, /stdin too large/);
    bad(() => parseSubmit({ language: "py", code: "x", webhook_url: "https://a" }), 400, /webhook_url/);
    bad(() => parseSubmit({ language: "py", code: "x", webhook_secret: "s" }), 400, /webhook_secret/);
    bad(() => parseSubmit({ language: "py", code: "x", extra: 1 }), 400, /unknown field/);
    bad(() => parseSubmit({ language: 1, code: "x" }), 400, /language must be a string/);
    bad(() => parseSubmit({ code: "x" }), 400, /language is required/);
  });
  it("parses wait strictly", () => {
    assert.equal(parseWait(new URL("https://x/api/submit")), false);
    assert.equal(parseWait(new URL("https://x/api/submit?wait=true")), true);
    assert.equal(parseWait(new URL("https://x/api/submit?wait=false")), false);
    bad(() => parseWait(new URL("https://x/api/submit?wait=1")), 400, /wait/);
    bad(() => parseWait(new URL("https://x/api/submit?wait=true&wait=true")), 400, /wait/);
  });
  it("reads JSON bodies: content type, UTF-8, syntax, shape, size", async () => {
    const req = (body: string | Uint8Array, ct = "application/json") => new Request("https://x/", { method: "POST", body, headers: { "content-type": ct } });
    assert.deepEqual(await readJsonObject(req('{"a":1}'), 100), { a: 1 });
    await assert.rejects(readJsonObject(req("{}", "text/plain"), 100), (e: HttpError) => e.status === 415);
    await assert.rejects(readJsonObject(req(new Uint8Array([0x7b, 0xff, 0x7d])), 100), (e: HttpError) => e.status === 400 && /UTF-8/.test(String(e.body.message)));
    await assert.rejects(readJsonObject(req("{"), 100), (e: HttpError) => e.status === 400);
    await assert.rejects(readJsonObject(req("[]"), 100), (e: HttpError) => e.status === 400);
    await assert.rejects(readJsonObject(req("x".repeat(101)), 100), (e: HttpError) => e.status === 413);
  });
});

describe("webhooks", () => {
  it("signs like Standard Webhooks (verified by the reference library)", async () => {
    const secret = generateSecret();
    assert.ok(secretKey(secret));
    const body = JSON.stringify({ id: "abc", job_status: "completed" });
    const ts = Math.floor(Date.now() / 1000);
    const signature = await sign(secret, "msg_1", ts, body);
    assert.match(signature, /^v1,[A-Za-z0-9+/]+=*$/);
    const wh = new Webhook(secret);
    assert.deepEqual(wh.verify(body, { "webhook-id": "msg_1", "webhook-timestamp": String(ts), "webhook-signature": signature }), JSON.parse(body));
    assert.throws(() => wh.verify(body + " ", { "webhook-id": "msg_1", "webhook-timestamp": String(ts), "webhook-signature": signature }));
  });
  it("rejects malformed secrets", () => {
    assert.equal(secretKey("whsec_" + btoa("short")), null);
    assert.equal(secretKey("nope"), null);
  });
  it("enforces https and blocks private, link-local and loopback targets", () => {
    for (const u of ["https://hooks.example.com/x", "https://93.184.216.34/", "https://[2606:4700::1]/"]) assert.equal(checkWebhookUrl(u).ok, true, u);
    for (const u of [
      "http://hooks.example.com/", "ftp://x/", "https://10.1.2.3/", "https://172.16.0.1/", "https://172.31.255.255/",
      "https://192.168.1.1/", "https://169.254.169.254/latest", "https://127.0.0.1/", "https://localhost/", "https://[::1]/",
      "https://[fd00::1]/", "https://[::ffff:10.0.0.1]/", "https://user:pw@example.com/", "not a url",
    ]) assert.equal(checkWebhookUrl(u).ok, false, u);
    assert.equal(checkWebhookUrl("https://172.32.0.1/").ok, true);
    assert.equal(checkWebhookUrl("http://127.0.0.1:9999/h", ["127.0.0.1:9999"]).ok, true);
    assert.equal(checkWebhookUrl("http://127.0.0.1:9998/h", ["127.0.0.1:9999"]).ok, false);
  });
  it("retries 5xx and network errors up to 3 attempts, never 4xx", () => {
    assert.equal(classify(200, 1), "delivered");
    assert.equal(classify(503, 1), "retry");
    assert.equal(classify(null, 2), "retry");
    assert.equal(classify(500, 3), "failed");
    assert.equal(classify(404, 1), "failed");
  });
});
