// A short-lived per-isolate cache of KV reads: a value is served for `ttlMs` after it was read, and
// a write made through this isolate forgets its entry at once. Other isolates see a change once
// their entry expires. Bounded: past `maxEntries` it starts over.
export class IsolateCache<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  /** Forgets so far: a read that was under way across one is answered but not kept. */
  #forgets = 0;

  constructor(ttlMs: number, maxEntries: number) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  /** The cached value, or undefined when absent or expired. */
  get(key: string, now = Date.now()): V | undefined {
    const hit = this.#entries.get(key);
    return hit && hit.until > now ? hit.value : undefined;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, until: now + this.#ttlMs });
  }

  forget(key: string): void {
    this.#entries.delete(key);
    this.#forgets++;
  }

  /** The cached value, else `load()`'s (kept unless `keep` refuses it, or a write was forgotten meanwhile). */
  async through(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const forgets = this.#forgets;
    const value = await load();
    if (keep(value) && forgets === this.#forgets) this.set(key, value);
    return value;
  }
}
