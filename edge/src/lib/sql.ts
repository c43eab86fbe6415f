// The part of a Durable Object's SQL storage (`ctx.storage.sql`, SqlStorage) that the storage units
// use, typed without the Workers types so that the units load in Node too: their unit tests run them
// over node:sqlite.

export type SqlValue = ArrayBuffer | string | number | null;

export interface SqlCursor<T> extends Iterable<T> {
  toArray(): T[];
  one(): T;
  readonly rowsWritten: number;
}

export interface Sql {
  exec<T extends Record<string, SqlValue>>(query: string, ...bindings: unknown[]): SqlCursor<T>;
}
