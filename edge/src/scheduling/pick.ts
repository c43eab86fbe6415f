// Which node gets a run: pure, unit tested.
import { orderLanguages, resolveLanguage } from "../../../proto/languages.ts";
import type { SchedulableNode } from "../contracts/scheduler.ts";

/** A node as the scheduler holds it: its pushed state plus a refusal seen since (not ready until the next push). */
export interface PoolNode extends SchedulableNode {
  refused: string | null;
}

export function takesWork(n: PoolNode): boolean {
  return n.ready && n.refused === null;
}

/** Runs the node may hold at once: its run slots and the waiting room in its own queue. */
export function capacity(n: PoolNode): number {
  return n.run_slots + (n.waiting_room ?? 0);
}

/** The node taking work with the most room for `language` (capacity() minus runs it holds), or null when all are full. */
export function pickNode(nodes: PoolNode[], inFlight: ReadonlyMap<string, number>, language: string): PoolNode | null {
  let best: PoolNode | null = null;
  let bestFree = 0;
  for (const n of nodes) {
    if (!takesWork(n) || !n.languages.includes(language)) continue;
    const free = capacity(n) - (inFlight.get(n.id) ?? 0);
    if (free > bestFree) {
      best = n;
      bestFree = free;
    }
  }
  return best;
}

/** The languages the pool's ready nodes offer. */
export function offered(nodes: PoolNode[]): string[] {
  return orderLanguages(nodes.filter(takesWork).flatMap((n) => n.languages));
}

/**
 * Null when some node of the pool offers `key` (ready or not): a language, or language@version
 * (run-key.ts); else the languages ready nodes offer.
 */
export function unsupported(nodes: PoolNode[], key: string): string[] | null {
  const known = nodes.flatMap((n) => n.languages);
  if (key.includes("@")) return known.includes(key) ? null : offered(nodes);
  return resolveLanguage(key, known) !== null ? null : offered(nodes);
}
