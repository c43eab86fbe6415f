// node:sqlite behind the part of a Durable Object's SQL storage the edge's storage units use
// (edge/src/lib/sql.ts), so that their unit tests run the units' own statements on SQLite.
import { DatabaseSync } from "node:sqlite";
import type { Sql, SqlCursor, SqlValue } from "../../edge/src/lib/sql.ts";

export function sqliteSql(db = new DatabaseSync(":memory:")): Sql {
  return {
    exec<T extends Record<string, SqlValue>>(query: string, ...bindings: unknown[]): SqlCursor<T> {
      const stmt = db.prepare(query);
      const params = bindings as never[];
      if (!/^\s*select\b|\breturning\b/i.test(query)) {
        const rowsWritten = Number(stmt.run(...params).changes);
        return { toArray: () => [], one: () => { throw new Error("no row"); }, rowsWritten, [Symbol.iterator]: () => [][Symbol.iterator]() };
      }
      const rows = stmt.all(...params) as T[];
      return {
        toArray: () => rows,
        one: () => {
          if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
          return rows[0]!;
        },
        rowsWritten: 0,
        [Symbol.iterator]: () => rows[Symbol.iterator](),
      };
    },
  };
}
