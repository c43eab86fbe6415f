// Which node gets a run: pure, unit tested.
import { orderLanguages } from "../../../proto/languages.ts";
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

/** Runs dispatched beyond nodes' run slots: waiting in the nodes' own queues. */
export function waitingAtNodes(nodes: PoolNode[], inFlight: ReadonlyMap<string, number>): number {
  return nodes.reduce((sum, n) => sum + Math.max(0, (inFlight.get(n.id) ?? 0) - n.run_slots), 0);
}

/**
 * The node for a run of `language`: the most free run slots first; when every run slot is taken,
 * the most room left in a node's own queue (capacity()); null when all are full. Ties go to the
 * first node counting from `rotate` (mod the node count), so that a caller turning it spreads runs
 * over equally free nodes instead of always filling the first.
 */
export function pickNode(nodes: PoolNode[], inFlight: ReadonlyMap<string, number>, language: string, rotate = 0): PoolNode | null {
  let best: PoolNode | null = null;
  let bestSlots = 0;
  let bestRoom = 0;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[(i + rotate) % nodes.length]!;
    if (!takesWork(n) || !n.languages.includes(language)) continue;
    const held = inFlight.get(n.id) ?? 0;
    const room = capacity(n) - held;
    if (room <= 0) continue;
    const slots = n.run_slots - held;
    if (best === null || slots > bestSlots || (slots === bestSlots && room > bestRoom)) {
      best = n;
      bestSlots = slots;
      bestRoom = room;
    }
  }
  return best;
}

/** The languages the pool's ready nodes offer. */
export function offered(nodes: PoolNode[]): string[] {
  return orderLanguages(nodes.filter(takesWork).flatMap((n) => n.languages));
}

/**
 * Null when some node of the pool offers `key` (ready or not): a canonical language (the edge
 * resolved it once, at the request), or language@version (run-key.ts); else the languages ready
 * nodes offer.
 */
export function unsupported(nodes: PoolNode[], key: string): string[] | null {
  const known = nodes.flatMap((n) => n.languages);
  return known.includes(key) ? null : offered(nodes);
}
