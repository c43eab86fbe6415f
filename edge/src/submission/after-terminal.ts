// Work left once a submission is terminal, repeated by its alarm until done: release the run slot
// and the concurrency unit, hand the record to the webhook delivery object, then delete
// everything at the end of retention.
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import type { Env } from "../env.ts";
import { handOffToWebhooks } from "../lib/webhook-handoff.ts";
import { keyObject, scheduler } from "../stubs.ts";
import type { Meta, Pending, SubmissionStore } from "./store.ts";
import { runSummary } from "./summary.ts";

export interface TerminalWork {
  env: Env;
  store: SubmissionStore;
  storage: DurableObjectStorage;
  watchdogMs: number;
  wipe(): Promise<void>;
}

export async function afterTerminal(w: TerminalWork, meta: Meta): Promise<void> {
  const kv = w.store.kv;
  const released = await releaseAll(w, meta);
  if (kv.get("hooks_init") && (await handOffToWebhooks(w.env, meta, () => w.store.record()))) kv.delete("hooks_init");
  const now = Date.now();
  const expire = kv.get<number>("expire") ?? now;
  const times = [expire];
  if (!released || kv.get("hooks_init")) times.push(now + w.watchdogMs);
  const next = Math.min(...times);
  if (next <= now && now >= expire) await w.wipe();
  else await w.storage.setAlarm(Math.max(next, now + 10));
}

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
  const left: Pending = { run_slot: runSlot && slotDone.status === "rejected", concurrency_unit: unit && unitDone.status === "rejected" };
  if (left.run_slot || left.concurrency_unit) {
    kv.put("release", left);
    return false;
  }
  kv.delete("release");
  return true;
}
