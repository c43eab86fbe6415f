// One submission's keys inside a shard's synchronous KV: every key is prefixed by the submission
// id, so many submissions share one Durable Object's storage without seeing each other's keys.
// Values read or written are kept in memory (write-through): a submission reads its record and
// meta many times per event, and only the one instance holding it writes. Values are treated as
// immutable by every caller (they copy, never mutate). A new scope can also hold its writes in
// memory (buffer()) until persist() writes them at once, inside the caller's transaction. Bulk
// values (event entries, output chunks) go through getThrough/putThrough instead: never kept in
// memory once written, so what a submission holds does not grow with what its program printed.

/** The part of SyncKvStorage the submission code uses. */
export interface SyncKv {
  get<T = unknown>(key: string): T | undefined;
  put<T>(key: string, value: T): void;
  delete(key: string): boolean;
}

/** A KV that can also hold bulk values without keeping them in memory (ScopedKv). */
export interface BulkKv extends SyncKv {
  getThrough<T = unknown>(key: string): T | undefined;
  putThrough<T>(key: string, value: T): void;
}

/** A whole object's KV (SyncKvStorage has this shape). */
export interface ListableKv extends SyncKv {
  list(options?: { prefix?: string }): Iterable<[string, unknown]>;
}

/** In #cache: the value was written through (not kept); read it from #pending or storage. */
const THROUGH = Symbol("written through");

export class ScopedKv implements BulkKv {
  readonly #kv: ListableKv;
  readonly #prefix: string;
  /** Known values; `undefined` stored for a key known to be absent; THROUGH for a bulk value not kept. */
  readonly #cache = new Map<string, unknown>();
  /** Writes not made yet (buffer()); null: every write is made at once. */
  #pending: Map<string, unknown> | null = null;
  /** The scope is known to have been empty (a new submission): a key not in #cache is absent, unread. */
  #empty = false;

  constructor(kv: ListableKv, scope: string) {
    this.#kv = kv;
    this.#prefix = `${scope}/`;
  }

  get<T = unknown>(key: string): T | undefined {
    const known = this.#cache.get(key);
    if (known === THROUGH) return this.getThrough<T>(key);
    if (this.#cache.has(key) || this.#empty) return known as T | undefined;
    const value = this.#kv.get<T>(this.#prefix + key);
    this.#cache.set(key, value);
    return value;
  }

  put<T>(key: string, value: T): void {
    if (this.#pending) this.#pending.set(key, value);
    else this.#kv.put(this.#prefix + key, value);
    this.#cache.set(key, value);
  }

  /** Reads without keeping the value (a bulk value, read once: a replay, a record's output). */
  getThrough<T = unknown>(key: string): T | undefined {
    if (this.#pending?.has(key)) return this.#pending.get(key) as T;
    const known = this.#cache.get(key);
    if (known !== THROUGH && (this.#cache.has(key) || this.#empty)) return known as T | undefined;
    return this.#kv.get<T>(this.#prefix + key);
  }

  /** Writes without keeping the value in memory (held only until persist() in a buffered scope). */
  putThrough<T>(key: string, value: T): void {
    if (this.#pending) this.#pending.set(key, value);
    else this.#kv.put(this.#prefix + key, value);
    this.#cache.set(key, THROUGH);
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

  /** Deletes every key of the scope. */
  deleteAll(): void {
    const keys = [...this.#kv.list({ prefix: this.#prefix })].map(([k]) => k);
    for (const k of keys) this.#kv.delete(k);
    this.#cache.clear();
    this.#pending?.clear();
  }
}
