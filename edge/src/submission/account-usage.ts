// What each account stores in one submission shard, in bytes as stored (its submissions' input
// until they end, then their records, output and events), under `usage:<account>` in the shard's
// own KV (beside the submissions' prefixes). A new submission that would take its account past
// its plan's quota in the shard is refused (submission.ts), so no one tenant fills a shard that
// every tenant shares. Each submission keeps what it was charged (CHARGED), given back at its wipe.
import type { SyncKv } from "../lib/scoped-kv.ts";

/** The key, in a submission's scope, of the bytes it is charged. */
export const CHARGED = "charged";

export class AccountUsage {
  readonly #kv: SyncKv;

  constructor(kv: SyncKv) {
    this.#kv = kv;
  }

  of(accountId: string): number {
    return this.#kv.get<number>(`usage:${accountId}`) ?? 0;
  }

  add(accountId: string, bytes: number): void {
    if (bytes === 0) return;
    const next = Math.max(0, this.of(accountId) + bytes);
    if (next === 0) this.#kv.delete(`usage:${accountId}`);
    else this.#kv.put(`usage:${accountId}`, next);
  }
}
