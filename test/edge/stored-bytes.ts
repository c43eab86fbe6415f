// What a local edge stores, read from workerd's own files (not from the edge's accounting): every
// key and value of the Durable Objects of one class, in bytes as SQLite holds them.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The SQLite files of one Durable Object class under an edge's persist directory. */
function objectFiles(persistDir: string, className: string): string[] {
  const root = join(persistDir, "v3", "do");
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((dir) => dir.endsWith(`-${className}`) || dir === className)
    .flatMap((dir) => readdirSync(join(root, dir)).filter((f) => f.endsWith(".sqlite")).map((f) => join(root, dir, f)));
}

/** Bytes of keys and values stored by the objects of `className` (their KV table), and their count. */
export function storedBytes(persistDir: string, className: string): { bytes: number; entries: number } {
  let bytes = 0;
  let entries = 0;
  for (const file of objectFiles(persistDir, className)) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = '_cf_KV'").get()) continue;
      const row = db.prepare("SELECT COALESCE(SUM(LENGTH(key) + LENGTH(value)), 0) AS bytes, COUNT(*) AS n FROM _cf_KV").get() as { bytes: number; n: number };
      bytes += row.bytes;
      entries += row.n;
    } finally {
      db.close();
    }
  }
  return { bytes, entries };
}
