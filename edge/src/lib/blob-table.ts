// Named strings of any size in a Durable Object's SQLite, stored in chunks (lib/chunks.ts).
import { chunkText } from "./chunks.ts";

export class BlobTable {
  #sql: SqlStorage;
  #table: string;

  /** `table` must have columns (name TEXT, idx INTEGER, data TEXT); it is created by the owner. */
  constructor(sql: SqlStorage, table: string) {
    this.#sql = sql;
    this.#table = table;
  }

  put(name: string, value: string | null): void {
    this.#sql.exec(`DELETE FROM ${this.#table} WHERE name = ?`, name);
    if (value === null) return;
    chunkText(value).forEach((chunk, idx) => this.#sql.exec(`INSERT INTO ${this.#table} (name, idx, data) VALUES (?, ?, ?)`, name, idx, chunk));
  }

  get(name: string): string {
    return this.#sql.exec<{ data: string }>(`SELECT data FROM ${this.#table} WHERE name = ? ORDER BY idx`, name).toArray().map((r) => r.data).join("");
  }
}
