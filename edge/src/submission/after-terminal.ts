// Work left once a submission is terminal: release the run slot and the concurrency unit, hand the
// record to the webhook delivery object, delete everything at the end of retention. The terminal
// commit marks the first two as to do and sets a wake-up shortly after; done at once, they are
// only remembered in memory (no write on the hot path) and the wake-up clears the marks in one
// write (terminal-steps.ts). After an eviction the wake-up finds the marks and does the work
// again: both hand-overs are idempotent (a second release or hand-off of the same submission
// changes nothing), and the webhook mark holds the time the submission ended, which alone decides
// its targets. The two run side by side: the first webhook attempt does not wait for the
// scheduler or the key's object.
import type { Env } from "../env.ts";
import { handOffToWebhooks } from "../webhooks/hand-off.ts";
import { keyObject, scheduler } from "../stubs.ts";
import type { SubmissionStore } from "./store.ts";
import type { HooksPending, Meta, Pending } from "./stored.ts";
import { runSummary } from "./summary.ts";
import { afterHandOvers, releases, type HandOver, type TerminalStep } from "./terminal-steps.ts";

/** How long the hand-overs after a synchronous answer wait for the answer to leave. */
const HAND_OVER_DELAY_MS = 2;

/** The hand-overs not in `done` (done by this instance, lost with it), each added to it once done; nothing written. */
export async function handOver(env: Env, store: SubmissionStore, meta: Meta, done: Set<HandOver>): Promise<void> {
  await Promise.all([
    !done.has("release") && releaseAll(env, store, meta).then((ok) => ok && done.add("release")),
    !done.has("hooks") && handOffHooks(env, store, meta).then((ok) => ok && done.add("hooks")),
  ]);
}

/**
 * The hand-overs right after the terminal commit. With a synchronous answer on its way
 * (`answering`) they wait a moment, so that the scheduler's release (and its commit) does not go
 * before it.
 */
export async function handOverAfterCommit(env: Env, store: SubmissionStore, meta: Meta, done: Set<HandOver>, answering: boolean): Promise<void> {
  if (answering) await new Promise((resolve) => setTimeout(resolve, HAND_OVER_DELAY_MS));
  await handOver(env, store, meta, done);
}

/** The wake-up once terminal: the hand-overs not yet done, the marks of those done cleared; what comes next (terminal-steps.ts). */
export async function afterTerminal(env: Env, store: SubmissionStore, meta: Meta, done: Set<HandOver>, watchdogMs: number): Promise<TerminalStep["next"]> {
  await handOver(env, store, meta, done);
  const step = afterHandOvers(store.terminalMarks(), done, Date.now(), watchdogMs);
  for (const mark of step.clear) store.kv.delete(mark);
  return step.next;
}

/** The webhook hand-off, unless its mark is gone (done and recorded by an earlier instance). */
async function handOffHooks(env: Env, store: SubmissionStore, meta: Meta): Promise<boolean> {
  const pending = store.kv.get<HooksPending>("hooks");
  return pending ? handOffToWebhooks(env, meta, () => store.record(), pending.ended_ms) : true;
}

/** Both releases; a failed one is sent again at the wake-up (with the other: releases are idempotent). */
async function releaseAll(env: Env, store: SubmissionStore, meta: Meta): Promise<boolean> {
  const pending = store.kv.get<Pending>("release");
  if (!pending) return true;
  const rec = store.bareRecord();
  const { runSlot, unit } = releases(pending);
  const [slotDone, unitDone] = await Promise.allSettled([
    runSlot ? scheduler(env, meta.pool).release(meta.id, rec ? runSummary(rec, meta.language, meta.created_ms, Date.now()) : undefined) : undefined,
    unit ? keyObject(env, meta.key_hash).release(meta.id, rec?.job_status ?? "error") : undefined,
  ]);
  return slotDone.status === "fulfilled" && unitDone.status === "fulfilled";
}
