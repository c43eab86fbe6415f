// Named strings of any size in a Durable Object's synchronous KV storage, in chunks below the
// per-value limit (lib/chunks.ts). No table to create: a new object's first write is plain KV.
import { chunkText } from "./chunks.ts";
import type { SyncKv } from "./scoped-kv.ts";

export class KvBlobs {
  #kv: SyncKv;

  constructor(kv: SyncKv) {
    this.#kv = kv;
  }

  /** Chunk count of `name`, or undefined when it was never stored here. */
  count(name: string): number | undefined {
    return this.#kv.get<number>(`blob:${name}`);
  }

  put(name: string, value: string | null): void {
    const before = this.count(name) ?? 0;
    const chunks = value === null ? [] : chunkText(value);
    chunks.forEach((chunk, idx) => this.#kv.put(`blob:${name}:${idx}`, chunk));
    for (let idx = chunks.length; idx < before; idx++) this.#kv.delete(`blob:${name}:${idx}`);
    if (value === null) this.#kv.delete(`blob:${name}`);
    else this.#kv.put(`blob:${name}`, chunks.length);
  }

  get(name: string): string {
    const n = this.count(name) ?? 0;
    let text = "";
    for (let idx = 0; idx < n; idx++) text += this.#kv.get<string>(`blob:${name}:${idx}`) ?? "";
    return text;
  }
}
