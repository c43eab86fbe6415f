// One submission's keys inside a shard's synchronous KV: every key is prefixed by the submission
// id, so many submissions share one Durable Object's storage without seeing each other's keys.
// An empty prefix is the whole object (objects made before shards held one submission each).

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

  constructor(kv: ListableKv, scope: string) {
    this.#kv = kv;
    this.#prefix = scope === "" ? "" : `${scope}/`;
  }

  get<T = unknown>(key: string): T | undefined {
    return this.#kv.get<T>(this.#prefix + key);
  }

  put<T>(key: string, value: T): void {
    this.#kv.put(this.#prefix + key, value);
  }

  delete(key: string): boolean {
    return this.#kv.delete(this.#prefix + key);
  }

  /** Deletes every key of the scope (of the whole object when unscoped). */
  deleteAll(): void {
    const keys = [...this.#kv.list(this.#prefix === "" ? {} : { prefix: this.#prefix })].map(([k]) => k);
    for (const k of keys) this.#kv.delete(k);
  }
}
