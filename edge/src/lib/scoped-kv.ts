// One submission's keys inside a shard's synchronous KV: every key is prefixed by the submission
// id, so many submissions share one Durable Object's storage without seeing each other's keys.
// An empty prefix is the whole object (objects made before shards held one submission each).
// Values read or written are kept in memory (write-through): a submission reads its record and
// meta many times per event, and only the one instance holding it writes. Values are treated as
// immutable by every caller (they copy, never mutate). A new scope can also hold its writes in
// memory (buffer()) until persist() writes them at once, inside the caller's transaction.

/** The part of SyncKvStorage the submission code uses. */
export interface SyncKv {
  get<T = unknown>(key: string): T | undefined;
  put<T>(key: string, value: T): void;
  delete(key: string): boolean;
}

/** A whole object's KV (SyncKvStorage has this shape). */
export interface ListableKv extends SyncKv {
  list(options?: { prefix?: string }): Iterable<[string, unknown]>;
}

export class ScopedKv implements SyncKv {
  readonly #kv: ListableKv;
  readonly #prefix: string;
  /** Known values; `undefined` stored for a key known to be absent. */
  readonly #cache = new Map<string, unknown>();
  /** Writes not made yet (buffer()); null: every write is made at once. */
  #pending: Map<string, unknown> | null = null;
  /** The scope is known to have been empty (a new submission): a key not in #cache is absent, unread. */
  #empty = false;

  constructor(kv: ListableKv, scope: string) {
    this.#kv = kv;
    this.#prefix = scope === "" ? "" : `${scope}/`;
  }

  get<T = unknown>(key: string): T | undefined {
    if (this.#cache.has(key) || this.#empty) return this.#cache.get(key) as T | undefined;
    const value = this.#kv.get<T>(this.#prefix + key);
    this.#cache.set(key, value);
    return value;
  }

  put<T>(key: string, value: T): void {
    if (this.#pending) this.#pending.set(key, value);
    else this.#kv.put(this.#prefix + key, value);
    this.#cache.set(key, value);
  }

  delete(key: string): boolean {
    this.#cache.set(key, undefined);
    // A buffered scope is new: a key it deletes was never written to storage.
    if (this.#pending) return this.#pending.delete(key);
    return this.#kv.delete(this.#prefix + key);
  }

  /** The caller knows that nothing is stored under the scope (nor written since, but through this instance). */
  knownEmpty(): void {
    this.#empty = true;
  }

  /** Holds the writes of this (new, empty) scope in memory from now on. */
  buffer(): void {
    this.#pending ??= new Map();
  }

  get buffered(): boolean {
    return this.#pending !== null;
  }

  /** Makes the held writes (one synchronous block: one commit) and writes through from now on. */
  persist(): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = null;
    for (const [key, value] of pending) this.#kv.put(this.#prefix + key, value);
  }

  /** Drops what is kept in memory (after a failed transaction, storage is the truth again). */
  forget(): void {
    this.#cache.clear();
    this.#pending = null;
    this.#empty = false;
  }

  /** Deletes every key of the scope (of the whole object when unscoped). */
  deleteAll(): void {
    const keys = [...this.#kv.list(this.#prefix === "" ? {} : { prefix: this.#prefix })].map(([k]) => k);
    for (const k of keys) this.#kv.delete(k);
    this.#cache.clear();
    this.#pending?.clear();
  }
}
