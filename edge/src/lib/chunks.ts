// SQLite-backed Durable Object rows are limited to 2 MB: big strings are stored in chunks below
// that. Pure, so it is unit tested on its own.

export const CHUNK_CHARS = 256 * 1024;

/** Splits text into chunks of at most `size` UTF-16 units, never inside a surrogate pair (each chunk stays valid text). */
export function chunkText(value: string, size = CHUNK_CHARS): string[] {
  const out: string[] = [];
  let i = 0;
  do {
    let end = Math.min(value.length, i + size);
    const last = value.charCodeAt(end - 1);
    if (end < value.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(value.slice(i, end));
    i = end;
  } while (i < value.length);
  return out;
}
