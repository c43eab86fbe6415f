// Named strings of any size in a Durable Object's synchronous KV storage. A value that fits one
// chunk (lib/chunks.ts) is stored inline under `blob:<name>` (one key: the common case); a bigger
// one in chunks below the per-value limit, `blob:<name>` then holding the chunk count. No table to
// create: a new object's first write is plain KV.
import { chunkText } from "./chunks.ts";
import type { SyncKv } from "./scoped-kv.ts";

export class KvBlobs {
  #kv: SyncKv;

  constructor(kv: SyncKv) {
    this.#kv = kv;
  }

  /** Whether `name` is stored here. */
  has(name: string): boolean {
    return this.#kv.get(`blob:${name}`) !== undefined;
  }

  put(name: string, value: string | null): void {
    const head = this.#kv.get<string | number>(`blob:${name}`);
    const before = typeof head === "number" ? head : 0;
    const chunks = value === null ? [] : chunkText(value);
    if (chunks.length > 1) chunks.forEach((chunk, idx) => this.#kv.put(`blob:${name}:${idx}`, chunk));
    for (let idx = chunks.length > 1 ? chunks.length : 0; idx < before; idx++) this.#kv.delete(`blob:${name}:${idx}`);
    if (value === null) this.#kv.delete(`blob:${name}`);
    else this.#kv.put(`blob:${name}`, chunks.length > 1 ? chunks.length : value);
  }

  get(name: string): string {
    const head = this.#kv.get<string | number>(`blob:${name}`);
    if (typeof head === "string") return head;
    let text = "";
    for (let idx = 0; idx < (head ?? 0); idx++) text += this.#kv.get<string>(`blob:${name}:${idx}`) ?? "";
    return text;
  }
}
