// What a submission that is not terminal does next, decided from what it learnt (the scheduler's
// poll or requeue, the node's GetResult or its silence, a failed Execute stream), its stored run
// and the clock. Pure, unit tested; submission.ts carries the step out (watchdog.ts and
// requeue.ts ask).
import type { ExecutionResult, GetResultResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { RunState } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { GrpcError } from "../../../proto/grpc-web/client.ts";
import { Status } from "../../../proto/grpc-web/status.ts";
import type { EnqueueResult, NodeTarget, PollResult } from "../contracts/scheduler.ts";
import { runErrorKind, undeliverable } from "./run-errors.ts";
import type { Run } from "./stored.ts";

/** Dispatches of one submission at most: a node lost mid-run is replaced once. */
export const MAX_ATTEMPTS = 2;

/** The limits a step is decided by (env.ts's Config). */
export interface RunLimits {
  queueTimeoutMs: number;
  maxRunMs: number;
  watchdogMs: number;
  watchdogFailures: number;
}

/** What to do; `update`, when set, is written to the stored run first. */
export type Step = (
  /** Nothing now; the next wake-up `at`, when set. */
  | { kind: "wait"; at?: number }
  | { kind: "start"; node: NodeTarget }
  | { kind: "fail"; why: string }
  /** Its node is gone: the run goes elsewhere (lossStep). */
  | { kind: "lost"; run: Run; why: string }
  /** Node `nodeId` turned it back before it started: back to the queue. */
  | { kind: "requeue"; nodeId: string; reason: string }
  | { kind: "complete"; result: ExecutionResult }
  | { kind: "running"; startedAt: Date | undefined }
  /** Out of queue time: taken off the scheduler's queue, and failed if it was still there. */
  | { kind: "expire"; why: string }
) & { update?: Partial<Run> };

const secs = (ms: number) => Math.round(ms / 1000);
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Why the run is past its deadline, or null. The run's own budget (MAX_RUN_MS) counts from its
 * start at the node (`startedMs`, null before); before it started, it is waiting (the edge's
 * queue, then the node's own) and the queue's budget (QUEUE_TIMEOUT_MS, from acceptance) applies.
 */
export function overdue(createdMs: number, startedMs: number | null, now: number, limits: RunLimits): string | null {
  if (startedMs !== null && Number.isFinite(startedMs)) {
    return now - startedMs > limits.maxRunMs ? `the run did not end within ${secs(limits.maxRunMs)} s of its start; it was cancelled` : null;
  }
  return now - createdMs > limits.queueTimeoutMs ? `the run did not start within ${secs(limits.queueTimeoutMs)} s; it was cancelled` : null;
}

/** A queued submission, after its scheduler's answer: a lost dispatch is picked up, a queue budget runs out. `hasRun`: a run was recorded meanwhile. */
export function queuedStep(poll: PollResult, createdMs: number, now: number, queueTimeoutMs: number, hasRun: boolean): Step {
  if (poll.state === "assigned") return { kind: "start", node: poll.node };
  if (poll.state === "queued") {
    return now - createdMs > queueTimeoutMs ? { kind: "expire", why: `no fleet node became available within ${secs(queueTimeoutMs)} s` } : { kind: "wait" };
  }
  return hasRun ? { kind: "wait" } : { kind: "fail", why: "the submission was lost from the fleet queue" };
}

/** The node answered GetResult. `streaming`: an Execute stream is open right now. */
export function resultStep(res: GetResultResponse, run: Run, streaming: boolean, now: number, watchdogMs: number): Step {
  const update = { failures: 0, last_error: null };
  if (res.state === RunState.RUN_STATE_COMPLETED && res.result) return { kind: "complete", result: res.result, update };
  if (res.state === RunState.RUN_STATE_RUNNING) return { kind: "running", startedAt: res.startedAt, update };
  if (res.state !== RunState.RUN_STATE_QUEUED && (!streaming || now - run.dispatched_ms > 2 * watchdogMs)) {
    // UNKNOWN: the node never got the call or forgot it (restart): its run is gone with it.
    return { kind: "lost", run, why: `fleet node ${run.node_id} has no record of the submission (it restarted or lost it)`, update };
  }
  return { kind: "wait", update };
}

/** GetResult failed with `e`. */
export function unansweredStep(e: unknown, run: Run, watchdogFailures: number): Step {
  if (e instanceof GrpcError && e.tooLarge) return { kind: "fail", why: undeliverable(run.node_id, e) };
  // The node answered with an error status: it is alive and has the run, so it is not lost and
  // the run is not dispatched again (UNAVAILABLE alone may be a node shutting down).
  if (e instanceof GrpcError && !e.transport && e.code !== Status.UNAVAILABLE) {
    return { kind: "fail", why: `fleet node ${run.node_id} could not report the run's outcome (${e.statusName}: ${e.message}); it is not dispatched again` };
  }
  const update = { failures: run.failures + 1, last_error: message(e) };
  if (update.failures < watchdogFailures) return { kind: "wait", update };
  return { kind: "lost", run, why: `lost contact with fleet node ${run.node_id} during the run (${message(e)})`, update };
}

/**
 * Its node is lost (dead, cut off, restarted) after `attempts` dispatches: dispatched again (the
 * attempt to record), or failed once MAX_ATTEMPTS nodes lost it. A live session's program is never
 * run again: its state and its client's input stayed with the node.
 */
export function lossStep(attempts: number, why: string, live = false): { kind: "again"; attempts: number } | { kind: "fail"; why: string } {
  if (live) return { kind: "fail", why: `${why}; a live session is not run again elsewhere` };
  if (attempts < MAX_ATTEMPTS) return { kind: "again", attempts: attempts + 1 };
  return { kind: "fail", why: `${why}; fleet nodes lost this submission's run ${attempts} times, so it is not dispatched again` };
}

/** Why a run turned back by node `nodeId` may not go back to the queue (out of queue time), or null. */
export function requeueTooLate(createdMs: number, now: number, queueTimeoutMs: number, nodeId: string, reason: string): string | null {
  if (now - createdMs <= queueTimeoutMs) return null;
  return `no fleet node could take the run within ${secs(queueTimeoutMs)} s; the last one, ${nodeId}: ${reason}`;
}

/** The scheduler's answer to a requeue: dispatched at once, or queued (the wake-up comes back soon). */
export function requeuedStep(r: EnqueueResult, now: number, watchdogMs: number): Step {
  return r.kind === "dispatched" ? { kind: "start", node: r.node } : { kind: "wait", at: now + Math.min(watchdogMs, 1_000) };
}

/** The Execute stream to node `nodeId` failed with `err`; `pending`: the node never said the run started. */
export function streamStep(err: GrpcError, pending: boolean, nodeId: string, now: number): Step {
  if (err.tooLarge) return { kind: "fail", why: undeliverable(nodeId, err) };
  const kind = runErrorKind(err, pending);
  if (kind === "elsewhere") return { kind: "requeue", nodeId, reason: `${err.statusName}: ${err.message}` };
  if (kind === "refused") return { kind: "fail", why: `fleet node ${nodeId} refused the run (${err.statusName}): ${err.message}` };
  // Broken: the run may be going on; the watchdog asks the node (GetResult) right away.
  return { kind: "wait", at: now + 50, update: { last_error: err.message } };
}

/** How soon the wake-up comes back to an unfinished run: without a live stream we learn the outcome only by polling, so sooner. */
export function watchInterval(watchdogMs: number, streaming: boolean): number {
  return streaming ? watchdogMs : Math.min(watchdogMs, 1_000);
}
