// Where a new submission is queued: its first pool, unless that pool cannot take it (no ready node
// for the language, or a full queue) and another can. A declining scheduler names the other pools
// (the registry tells every scheduler the list); a pool the registry never told (no node ever
// joined it) names none, so the default pool is asked next. Pure but for the enqueue calls.
import { orderLanguages } from "../../../proto/languages.ts";
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import type { EnqueueResult } from "../contracts/scheduler.ts";

export type Enqueue = (pool: string, mayDecline: boolean) => Promise<EnqueueResult>;
type Placed = Exclude<EnqueueResult, { kind: "declined" }>;

/**
 * `first` is the call to `home` with mayDecline, already on its way. The pools it names are asked
 * in turn (each may name more); when every pool declines, `home` decides for good (queue it, or
 * refuse it as queue full or unsupported, naming what every pool offers).
 */
export async function enqueueInPools(home: string, first: Promise<EnqueueResult>, enqueue: Enqueue): Promise<{ pool: string; result: Placed }> {
  let result = await first;
  if (result.kind !== "declined") return { pool: home, result };
  const available = new Set(result.available);
  const asked = new Set([home]);
  const next = result.others.length > 0 || home === DEFAULT_POOL ? [...result.others] : [DEFAULT_POOL];
  for (let pool = next.shift(); pool !== undefined; pool = next.shift()) {
    if (asked.has(pool)) continue;
    asked.add(pool);
    result = await enqueue(pool, true);
    if (result.kind !== "declined") return { pool, result };
    for (const l of result.available) available.add(l);
    next.push(...result.others);
  }
  result = await enqueue(home, false);
  if (result.kind === "declined") throw new Error(`pool ${home} declined a run it was told to take`);
  if (result.kind === "unsupported") result = { kind: "unsupported", available: orderLanguages(available) };
  return { pool: home, result };
}
