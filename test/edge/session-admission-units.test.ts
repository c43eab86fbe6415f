// A live session's admission, pure: its submission made live (submit/live-input.ts), its caps
// (plans/plan-caps.ts), a refused submit as the session's refusal (session/start.ts), and a lost
// node (submission/run-steps.ts), against docs/live-sessions.md.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { HttpError } from "../../edge/src/lib/http.ts";
import { DEFAULT_CAPS, SESSION_DEFAULTS, sessionCaps, type Plan } from "../../edge/src/plans/plan-caps.ts";
import { asLiveSession } from "../../edge/src/submit/live-input.ts";
import type { Refusal } from "../../edge/src/session/dialect.ts";
import { NATIVE_CLOSE } from "../../edge/src/session/native.ts";
import { lossStep } from "../../edge/src/submission/run-steps.ts";
import type { SubmitInput } from "../../edge/src/submit/validate.ts";

// Loaded by paths the root typecheck does not follow: their imports need the Workers types, which
// the edge's own project (tsc -p edge) has and this one does not (as in hand-over-units.test.ts).
const START = "../../edge/src/session/start.ts";
const API_CONTEXT = "../../edge/src/submit/api-context.ts";
const { refusalOf } = (await import(START)) as { refusalOf: (e: HttpError) => Refusal };
const { REVOKED, quotaExceeded } = (await import(API_CONTEXT)) as {
  REVOKED: { error: string; message: string };
  quotaExceeded: (retryAfter: number, reason: string, rate: null) => HttpError;
};

const CAPS = sessionCaps(DEFAULT_CAPS);
const admission = { session: "7c1d0e9a4b2f", caps: CAPS };
const limits = { wall_time_ms: 5000, cpu_time_ms: 2000, memory_bytes: 128 << 20, processes: 16, output_bytes: 64 << 10 };

/** A checked `start` body: python reading its input, with stdin and the extras a session keeps. */
const input = (options: SubmitInput["options"] = {}): SubmitInput => ({
  language: "python", canonical: "python", code: "while True:\n    print(input()[::-1])\n", stdin: "first line\n",
  options: { stdin_b64: "Zmlyc3QgbGluZQo=", limits, args: ["-v"], merge_stderr: true, ...options },
});

/** The 400 asLiveSession throws for `options`, with its message. */
function refused(options: SubmitInput["options"]): string {
  try {
    asLiveSession(input(options), admission);
  } catch (e) {
    assert.ok(e instanceof HttpError, String(e));
    assert.equal(e.status, 400);
    assert.equal(e.body.error, "invalid request");
    return String(e.body.message);
  }
  assert.fail(`${JSON.stringify(options)} was not refused`);
}

describe("a submission made a live session's", () => {
  const checker = { language: "cpp", code: "int main(){}", limits: { wall_time_ms: 5000, cpu_time_ms: 5000, memory_bytes: 256 << 20 } };
  const tests = [{ name: "1", stdin_b64: "MQo=", expected_b64: "MQo=" }];
  const check = { compare: "tokens", float_epsilon: 0, expected_b64: "MQo=" };

  it("refuses tests, expected_output, a checker and an interactor, naming them", () => {
    assert.match(refused({ tests }), /: not with tests$/);
    assert.match(refused({ check }), /: not with expected_output$/);
    assert.match(refused({ checker }), /: not with checker$/);
    assert.match(refused({ interactor: checker }), /: not with interactor$/);
    const message = "a live session runs one program fed by its client: not with tests, expected_output, checker, interactor";
    assert.equal(refused({ tests, check, checker, interactor: checker }), message);
  });
  it("takes an empty list of tests", () => {
    assert.doesNotThrow(() => asLiveSession(input({ tests: [] }), admission));
  });
  it("runs live for the session's maximum duration, its other limits kept", () => {
    const live = asLiveSession(input(), admission);
    assert.deepEqual(live.options?.live, { session: "7c1d0e9a4b2f", max_ms: 300_000 });
    assert.deepEqual(live.options?.limits, { ...limits, wall_time_ms: 300_000 });
  });
  it("sets the wall limit when the input had no limits", () => {
    const bare = { ...input(), options: undefined };
    const live = asLiveSession(bare, { ...admission, caps: { ...CAPS, max_duration_ms: 45_000 } });
    assert.equal(live.options?.limits?.wall_time_ms, 45_000);
    assert.deepEqual(live.options?.live, { session: "7c1d0e9a4b2f", max_ms: 45_000 });
  });
  it("drops the initial stdin (the session sends it live) and keeps everything else", () => {
    const before = input();
    const live = asLiveSession(before, admission);
    assert.equal(live.stdin, "");
    assert.equal(live.options && "stdin_b64" in live.options, false);
    const kept = [live.code, live.language, live.canonical, live.options?.args, live.options?.merge_stderr];
    assert.deepEqual(kept, [before.code, "python", "python", ["-v"], true]);
    assert.deepEqual(before, input(), "the input is left as it was");
  });
});

describe("a live session's caps", () => {
  const doc = readFileSync(new URL("../../docs/live-sessions.md", import.meta.url), "utf8");
  const documented = (cap: string) => Number(new RegExp(`^\\| \`${cap}\` \\| (\\d+) \\|`, "m").exec(doc)?.[1]);

  it("default to the doc's: 300 s, 60 s idle, 16 MiB of stdin, the plan's output limit", () => {
    assert.deepEqual(CAPS, { max_duration_ms: 300_000, idle_timeout_ms: 60_000, stdin_bytes: 16 << 20, output_bytes: 1024 * 1024 });
    assert.deepEqual([documented("session_max_secs"), documented("session_idle_secs"), documented("session_stdin_kb"), documented("max_output_kb")],
      [SESSION_DEFAULTS.max_secs, SESSION_DEFAULTS.idle_secs, SESSION_DEFAULTS.stdin_kb, DEFAULT_CAPS.max_output_kb]);
  });
  it("are a plan's own when it names them", () => {
    const plan: Plan = { ...DEFAULT_CAPS, name: "classroom", max_output_kb: 256, session_max_secs: 120, session_idle_secs: 900, session_stdin_kb: 64 };
    assert.deepEqual(sessionCaps(plan), { max_duration_ms: 120_000, idle_timeout_ms: 900_000, stdin_bytes: 65_536, output_bytes: 262_144 });
    assert.deepEqual(sessionCaps({ ...DEFAULT_CAPS, session_idle_secs: 5 }), { ...CAPS, idle_timeout_ms: 5000 });
  });
});

describe("a refused start as the session's refusal", () => {
  it("400: invalid, with the body's message; its error as the reason", () => {
    const e = new HttpError(400, { error: "invalid request", message: "code: Required" });
    assert.deepEqual(refusalOf(e), { refused: "invalid", message: "code: Required", details: { status: 400, reason: "invalid request" } });
  });
  it("401: revoked", () => {
    assert.equal(refusalOf(new HttpError(401, REVOKED)).refused, "revoked");
    assert.equal(refusalOf(new HttpError(401, REVOKED)).message, REVOKED.message);
  });
  it("429: rate_limited, with retry_after (so native's 4429 error carries it)", () => {
    const r = refusalOf(quotaExceeded(7, "60 requests per minute", null));
    assert.equal(r.refused, "rate_limited");
    assert.equal(r.message, "60 requests per minute");
    assert.equal(r.details?.retry_after, 7);
    assert.equal(NATIVE_CLOSE[r.refused], 4429);
  });
  it("503: unavailable, its fields kept", () => {
    const r = refusalOf(new HttpError(503, { error: "queue full", message: "the execution queue is full (500 pending); retry later", queue_depth: 500 }));
    const details = { queue_depth: 500, status: 503, reason: "queue full" };
    assert.deepEqual(r, { refused: "unavailable", message: "the execution queue is full (500 pending); retry later", details });
  });
  it("500 and other 5xx: internal; other 4xx: invalid", () => {
    assert.equal(refusalOf(new HttpError(500, { error: "internal error" })).refused, "internal");
    assert.equal(refusalOf(new HttpError(502, { message: "bad gateway" })).refused, "internal");
    assert.equal(refusalOf(new HttpError(413, { error: "too large", message: "code is 70000 bytes" })).refused, "invalid");
  });
  it("a body without a message says its error, else that the session was refused", () => {
    assert.equal(refusalOf(new HttpError(500, { error: "internal error" })).message, "internal error");
    assert.equal(refusalOf(new HttpError(500, {})).message, "the session was refused");
    assert.equal("reason" in refusalOf(new HttpError(500, {})).details!, false);
  });
});

describe("a live session's lost node", () => {
  it("fails the run at once: a live session is not run again elsewhere", () => {
    for (const attempts of [1, 2]) {
      assert.deepEqual(lossStep(attempts, "lost contact with fleet node node_a", true), {
        kind: "fail", why: "lost contact with fleet node node_a; a live session is not run again elsewhere",
      });
    }
  });
  it("any other run goes elsewhere once, as before", () => {
    assert.deepEqual(lossStep(1, "gone", false), { kind: "again", attempts: 2 });
    assert.deepEqual(lossStep(1, "gone"), { kind: "again", attempts: 2 });
    assert.deepEqual(lossStep(2, "gone"), { kind: "fail", why: "gone; fleet nodes lost this submission's run 2 times, so it is not dispatched again" });
  });
});
