// A submission's decisions, pure (edge/src/submission/run-steps.ts, terminal-steps.ts): what its
// wake-up, a failed Execute stream, a lost node or a requeue lead to, and what is left once it is
// terminal. Submission carries them out; the integration suites (resilience, deadlines, poison,
// outage, webhooks) run them for real.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ExecutionResult, GetResultResponse, RunState } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { GrpcError } from "../../proto/grpc-web/client.ts";
import { Status } from "../../proto/grpc-web/status.ts";
import { REQUEST_TOO_LARGE } from "../../proto/limits.ts";
import {
  MAX_ATTEMPTS, lossStep, overdue, queuedStep, requeuedStep, requeueTooLate, resultStep, streamStep, unansweredStep, watchInterval,
} from "../../edge/src/submission/run-steps.ts";
import { afterHandOvers, releases } from "../../edge/src/submission/terminal-steps.ts";
import { TESTS_RUN_SLACK_MS, testsRunMs } from "../../edge/src/submission/run-deadline.ts";
import type { Run } from "../../edge/src/submission/stored.ts";

const NOW = 1_000_000;
const limits = { queueTimeoutMs: 300_000, maxRunMs: 180_000, watchdogMs: 10_000, watchdogFailures: 3 };
const node = { id: "node_b", url: "http://127.0.0.1:2", token: "t" };
const run = (over: Partial<Run> = {}): Run => ({ node_id: "node_a", node_url: "http://127.0.0.1:1", dispatched_ms: NOW - 1000, failures: 0, last_error: null, ...over });
const answer = (state: RunState, over: Partial<GetResultResponse> = {}) => GetResultResponse.fromPartial({ state, ...over });
const transport = new GrpcError(-1, "connection refused");

describe("the deadline of a run that has not ended", () => {
  it("counts the run's budget from its start, once started", () => {
    assert.equal(overdue(NOW - 10 * 60_000, NOW - 180_000, NOW, limits), null, "exactly MAX_RUN_MS is not over");
    assert.equal(overdue(NOW - 10 * 60_000, NOW - 180_001, NOW, limits), "the run did not end within 180 s of its start; it was cancelled");
  });
  it("counts the queue's budget from acceptance until it starts (an unreadable start too)", () => {
    assert.equal(overdue(NOW - 300_000, null, NOW, limits), null);
    assert.equal(overdue(NOW - 300_001, null, NOW, limits), "the run did not start within 300 s; it was cancelled");
    assert.equal(overdue(NOW - 300_001, Number.NaN, NOW, limits), "the run did not start within 300 s; it was cancelled");
  });
});

describe("a queued submission's wake-up", () => {
  it("starts the run its scheduler assigned (a lost dispatch)", () => {
    assert.deepEqual(queuedStep({ state: "assigned", node }, NOW, NOW, limits.queueTimeoutMs, false), { kind: "start", node });
  });
  it("waits while queued within its budget, then expires", () => {
    const queued = { state: "queued", position: 1 } as const;
    assert.deepEqual(queuedStep(queued, NOW - 300_000, NOW, limits.queueTimeoutMs, false), { kind: "wait" });
    assert.deepEqual(queuedStep(queued, NOW - 300_001, NOW, limits.queueTimeoutMs, false), { kind: "expire", why: "no fleet node became available within 300 s" });
  });
  it("fails when its scheduler forgot it, unless a run was recorded meanwhile", () => {
    assert.deepEqual(queuedStep({ state: "unknown" }, NOW, NOW, limits.queueTimeoutMs, false), { kind: "fail", why: "the submission was lost from the fleet queue" });
    assert.deepEqual(queuedStep({ state: "unknown" }, NOW, NOW, limits.queueTimeoutMs, true), { kind: "wait" });
  });
});

describe("a dispatched submission's wake-up, from its node's answer", () => {
  const reset = { failures: 0, last_error: null };
  it("completes with the node's result, or marks it running; either resets the failure count", () => {
    const result = ExecutionResult.fromPartial({ exitCode: 0 });
    assert.deepEqual(resultStep(answer(RunState.RUN_STATE_COMPLETED, { result }), run(), true, NOW, limits.watchdogMs), { kind: "complete", result, update: reset });
    const startedAt = new Date(NOW - 500);
    assert.deepEqual(resultStep(answer(RunState.RUN_STATE_RUNNING, { startedAt }), run(), true, NOW, limits.watchdogMs), { kind: "running", startedAt, update: reset });
  });
  it("waits while the run is queued at the node", () => {
    assert.deepEqual(resultStep(answer(RunState.RUN_STATE_QUEUED), run({ dispatched_ms: 0 }), false, NOW, limits.watchdogMs), { kind: "wait", update: reset });
  });
  it("takes a node that does not know the run for lost, unless a stream opened within two watchdog periods", () => {
    const lost = { kind: "lost", run: run(), why: "fleet node node_a has no record of the submission (it restarted or lost it)", update: reset };
    assert.deepEqual(resultStep(answer(RunState.RUN_STATE_UNKNOWN), run(), false, NOW, limits.watchdogMs), lost);
    assert.deepEqual(resultStep(answer(RunState.RUN_STATE_UNKNOWN), run(), true, NOW, limits.watchdogMs), { kind: "wait", update: reset });
    const old = run({ dispatched_ms: NOW - 20_001 });
    assert.deepEqual(resultStep(answer(RunState.RUN_STATE_UNKNOWN), old, true, NOW, limits.watchdogMs), { ...lost, run: old });
  });
});

describe("a dispatched submission's wake-up, without an answer", () => {
  it("counts failures to reach the node, and gives the node up for lost at WATCHDOG_FAILURES", () => {
    assert.deepEqual(unansweredStep(transport, run({ failures: 1 }), 3), { kind: "wait", update: { failures: 2, last_error: "connection refused" } });
    assert.deepEqual(unansweredStep(new Error("timeout"), run({ failures: 2 }), 3), {
      kind: "lost", run: run({ failures: 2 }), why: "lost contact with fleet node node_a during the run (timeout)", update: { failures: 3, last_error: "timeout" },
    });
  });
  it("counts UNAVAILABLE as no answer (a node shutting down)", () => {
    assert.equal(unansweredStep(new GrpcError(Status.UNAVAILABLE, "draining"), run(), 3).kind, "wait");
  });
  it("fails, not dispatched again, when the node answered with another error or a result too large", () => {
    const step = unansweredStep(new GrpcError(Status.INTERNAL, "boom"), run(), 3);
    assert.deepEqual(step, { kind: "fail", why: "fleet node node_a could not report the run's outcome (INTERNAL: boom); it is not dispatched again" });
    const tooLarge = unansweredStep(new GrpcError(Status.RESOURCE_EXHAUSTED, "frame over 16 MiB", true), run(), 3);
    assert.equal(tooLarge.kind, "fail");
    assert.match(tooLarge.kind === "fail" ? tooLarge.why : "", /fleet node node_a answered with a result too large to deliver/);
  });
});

describe("a node lost, a run requeued", () => {
  it("dispatches again until MAX_ATTEMPTS nodes lost it", () => {
    assert.equal(MAX_ATTEMPTS, 2);
    assert.deepEqual(lossStep(1, "gone"), { kind: "again", attempts: 2 });
    assert.deepEqual(lossStep(2, "gone"), { kind: "fail", why: "gone; fleet nodes lost this submission's run 2 times, so it is not dispatched again" });
  });
  it("goes back to the queue only within the queue's budget", () => {
    assert.equal(requeueTooLate(NOW - 300_000, NOW, limits.queueTimeoutMs, "node_a", "UNAVAILABLE: draining"), null);
    assert.equal(requeueTooLate(NOW - 300_001, NOW, limits.queueTimeoutMs, "node_a", "UNAVAILABLE: draining"),
      "no fleet node could take the run within 300 s; the last one, node_a: UNAVAILABLE: draining");
  });
  it("starts on the node the scheduler dispatched it to, or comes back within a second", () => {
    assert.deepEqual(requeuedStep({ kind: "dispatched", node, queue_depth: 0 }, NOW, limits.watchdogMs), { kind: "start", node });
    assert.deepEqual(requeuedStep({ kind: "queued", queue_depth: 1, position: 1 }, NOW, limits.watchdogMs), { kind: "wait", at: NOW + 1000 });
    assert.deepEqual(requeuedStep({ kind: "queued", queue_depth: 1, position: 1 }, NOW, 200), { kind: "wait", at: NOW + 200 });
  });
  it("polls every second without a live stream, every WATCHDOG_MS with one", () => {
    assert.equal(watchInterval(10_000, true), 10_000);
    assert.equal(watchInterval(10_000, false), 1000);
    assert.equal(watchInterval(500, false), 500);
  });
});

describe("a failed Execute stream", () => {
  it("requeues a run the node turned back before it started", () => {
    assert.deepEqual(streamStep(new GrpcError(Status.UNAVAILABLE, "draining"), true, "node_a", NOW), { kind: "requeue", nodeId: "node_a", reason: "UNAVAILABLE: draining" });
  });
  it("fails a run the node refuses for good, or one that may have started", () => {
    assert.deepEqual(streamStep(new GrpcError(Status.UNAUTHENTICATED, "bad token"), true, "node_a", NOW), { kind: "fail", why: "fleet node node_a refused the run (UNAUTHENTICATED): bad token" });
    assert.equal(streamStep(new GrpcError(Status.RESOURCE_EXHAUSTED, `${REQUEST_TOO_LARGE}: 9 MiB`), true, "node_a", NOW).kind, "fail");
    assert.equal(streamStep(new GrpcError(Status.RESOURCE_EXHAUSTED, "x", true), true, "node_a", NOW).kind, "fail");
  });
  it("asks the node at once when the stream broke (the run may be going on)", () => {
    assert.deepEqual(streamStep(transport, true, "node_a", NOW), { kind: "wait", at: NOW + 50, update: { last_error: "connection refused" } });
    assert.deepEqual(streamStep(new GrpcError(Status.UNAVAILABLE, "draining"), false, "node_a", NOW).kind, "wait", "not pending: it may have started");
  });
});

describe("once terminal", () => {
  it("releases the run slot and the concurrency unit", () => {
    assert.deepEqual(releases({ run_slot: true, concurrency_unit: false }), { runSlot: true, unit: false });
    assert.deepEqual(releases({}), { runSlot: false, unit: false });
  });
  it("clears the marks of hand-overs done, and comes back at the end of retention", () => {
    const marks = { release: { run_slot: true }, hooks: { ended_ms: NOW }, expire: NOW + 7 * 86_400_000 };
    assert.deepEqual(afterHandOvers(marks, new Set(["release", "hooks"]), NOW, 10_000), { clear: ["release", "hooks"], next: { kind: "wake", at: marks.expire } });
  });
  it("comes back sooner while a hand-over is still to do", () => {
    const marks = { release: { run_slot: true }, hooks: { ended_ms: NOW }, expire: NOW + 7 * 86_400_000 };
    assert.deepEqual(afterHandOvers(marks, new Set(["hooks"]), NOW, 10_000), { clear: ["hooks"], next: { kind: "wake", at: NOW + 10_000 } });
    assert.deepEqual(afterHandOvers({ ...marks, expire: NOW + 5 }, new Set(), NOW, 10_000), { clear: [], next: { kind: "wake", at: NOW + 5 } });
  });
  it("clears no mark already gone, and wipes at the end of retention (or when none is stored)", () => {
    assert.deepEqual(afterHandOvers({ expire: NOW + 1 }, new Set(["release", "hooks"]), NOW, 10_000), { clear: [], next: { kind: "wake", at: NOW + 1 } });
    assert.deepEqual(afterHandOvers({ release: { run_slot: true }, expire: NOW }, new Set(), NOW, 10_000), { clear: [], next: { kind: "wipe" } });
    assert.deepEqual(afterHandOvers({}, new Set(), NOW, 10_000).next, { kind: "wipe" });
  });
});

describe("testsRunMs: the least time a run with tests is allowed from its start", () => {
  it("0 without tests; else both compiles, the tests' budget, one more test and the slack", () => {
    assert.equal(testsRunMs(undefined), 0);
    assert.equal(testsRunMs({ tests: [] }), 0);
    const test = { name: "t", stdin_b64: "" };
    assert.equal(testsRunMs({ tests: [test] }), 30_000 + 120_000 + 10_000 + TESTS_RUN_SLACK_MS);
    assert.equal(testsRunMs({ tests: [test], tests_wall_budget_ms: 1_000, limits: { wall_time_ms: 2_000, cpu_time_ms: 0, memory_bytes: 0, processes: 0, output_bytes: 0 } }), 30_000 + 1_000 + 2_000 + TESTS_RUN_SLACK_MS);
    const checker = { language: "python", code: "", limits: { wall_time_ms: 5_000, cpu_time_ms: 5_000, memory_bytes: 0 } };
    assert.equal(testsRunMs({ tests: [test], checker }), 30_000 + 30_000 + 5_000 + 120_000 + 10_000 + TESTS_RUN_SLACK_MS);
  });
});
