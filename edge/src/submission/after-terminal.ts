// Work left once a submission is terminal: release the run slot and the concurrency unit, hand the
// record to the webhook delivery object, delete everything at the end of retention. The terminal
// commit marks the first two as to do and sets a wake-up shortly after; done at once, they are
// only remembered in memory (no write on the hot path) and the wake-up clears the marks in one
// write. After an eviction the wake-up finds the marks and does the work again: both hand-overs
// are idempotent (a second release or hand-off of the same submission changes nothing), and the
// webhook mark holds the time the submission ended, which alone decides its targets. The two run
// side by side: the first webhook attempt does not wait for the scheduler or the key's object.
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import type { Env } from "../env.ts";
import { handOffToWebhooks } from "../webhooks/hand-off.ts";
import { keyObject, scheduler } from "../stubs.ts";
import type { HooksPending, Meta, Pending, SubmissionStore } from "./store.ts";
import { runSummary } from "./summary.ts";

export interface TerminalWork {
  env: Env;
  store: SubmissionStore;
  watchdogMs: number;
  /** Work already done by this instance (lost with it: then done again). */
  done: Set<"release" | "hooks">;
  setAlarm(at: number): void;
  wipe(): void;
}

/** Right after the terminal commit: the hand-overs, nothing written unless one fails. */
export async function handOver(w: TerminalWork, meta: Meta): Promise<void> {
  await Promise.all([
    !w.done.has("release") && releaseAll(w, meta).then((ok) => ok && w.done.add("release")),
    !w.done.has("hooks") && handOffHooks(w, meta).then((ok) => ok && w.done.add("hooks")),
  ]);
}

/** The webhook hand-off, unless its mark is gone (done and recorded by an earlier instance). */
async function handOffHooks(w: TerminalWork, meta: Meta): Promise<boolean> {
  const pending = w.store.kv.get<HooksPending>("hooks");
  return pending ? handOffToWebhooks(w.env, meta, () => w.store.record(), pending.ended_ms) : true;
}

/** The submission's wake-up once terminal: finish what is left, clear the marks, wipe at the end of retention. */
export async function afterTerminal(w: TerminalWork, meta: Meta): Promise<void> {
  const kv = w.store.kv;
  await handOver(w, meta);
  if (w.done.has("release") && kv.get("release") !== undefined) kv.delete("release");
  if (w.done.has("hooks") && kv.get("hooks") !== undefined) kv.delete("hooks");
  const now = Date.now();
  const expire = kv.get<number>("expire") ?? now;
  if (now >= expire) return w.wipe();
  w.setAlarm(kv.get("release") !== undefined || kv.get("hooks") !== undefined ? Math.min(expire, now + w.watchdogMs) : expire);
}

/** Both releases; a failed one is sent again at the wake-up (with the other: releases are idempotent). */
async function releaseAll(w: TerminalWork, meta: Meta): Promise<boolean> {
  const kv = w.store.kv;
  const pending = kv.get<Pending>("release");
  if (!pending) return true;
  const rec = w.store.bareRecord();
  const runSlot = pending.run_slot ?? pending.fleet ?? false;
  const unit = pending.concurrency_unit ?? pending.key ?? false;
  const [slotDone, unitDone] = await Promise.allSettled([
    runSlot ? scheduler(w.env, meta.pool ?? DEFAULT_POOL).release(meta.id, rec ? runSummary(rec, meta.language, meta.created_ms, Date.now()) : undefined) : undefined,
    unit ? keyObject(w.env, meta.key_hash).release(meta.id, rec?.job_status ?? "error") : undefined,
  ]);
  return slotDone.status === "fulfilled" && unitDone.status === "fulfilled";
}
