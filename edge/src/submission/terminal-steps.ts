// What is left once a submission is terminal (after-terminal.ts does the hand-overs): which marks
// its wake-up clears, and when it comes back or wipes the submission. Pure, unit tested.
import type { HooksPending, Pending } from "./stored.ts";

export type HandOver = "release" | "hooks";

/** The terminal marks as stored: hand-overs still to do, and the end of retention. */
export interface TerminalMarks {
  release?: Pending;
  hooks?: HooksPending;
  expire?: number;
}

export type TerminalStep = { clear: HandOver[]; next: { kind: "wipe" } | { kind: "wake"; at: number } };

/** What a release hands back: the run slot (scheduler) and the concurrency unit (key's object). */
export function releases(pending: Pending): { runSlot: boolean; unit: boolean } {
  return { runSlot: pending.run_slot ?? false, unit: pending.concurrency_unit ?? false };
}

/**
 * After the wake-up's hand-overs: the marks of those done (`done`) are cleared; at the end of
 * retention the submission is wiped, else the wake-up comes back then, or sooner (`watchdogMs`)
 * while a hand-over is still to do.
 */
export function afterHandOvers(marks: TerminalMarks, done: ReadonlySet<HandOver>, now: number, watchdogMs: number): TerminalStep {
  const clear = (["release", "hooks"] as const).filter((mark) => done.has(mark) && marks[mark] !== undefined);
  const expire = marks.expire ?? now;
  if (now >= expire) return { clear, next: { kind: "wipe" } };
  const left = (["release", "hooks"] as const).some((mark) => marks[mark] !== undefined && !clear.includes(mark));
  return { clear, next: { kind: "wake", at: left ? Math.min(expire, now + watchdogMs) : expire } };
}
