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
import { releases, type HandOver } from "./terminal-steps.ts";

/** The hand-overs not in `done` (done by this instance, lost with it), each added to it once done; nothing written. */
export async function handOver(env: Env, store: SubmissionStore, meta: Meta, done: Set<HandOver>): Promise<void> {
  await Promise.all([
    !done.has("release") && releaseAll(env, store, meta).then((ok) => ok && done.add("release")),
    !done.has("hooks") && handOffHooks(env, store, meta).then((ok) => ok && done.add("hooks")),
  ]);
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
