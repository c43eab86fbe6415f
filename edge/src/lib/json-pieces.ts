// JSON text of plain data in pieces: exactly what JSON.stringify makes, character for character,
// but a long string is escaped a slice at a time and the text comes out in chunks, so a record
// whose output is large (a control byte escapes to 6 characters) never exists as one JSON string.
// Pure: unit tested against JSON.stringify.

/** Characters of a string escaped at once. */
const SLICE_CHARS = 16 * 1024;
/** Characters per chunk handed out (pieces are joined up to this). */
export const CHUNK_CHARS = 32 * 1024;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

function* stringPieces(text: string): Generator<string> {
  if (text.length <= SLICE_CHARS) {
    yield JSON.stringify(text);
    return;
  }
  yield '"';
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + SLICE_CHARS);
    // Never between the halves of a pair: apart, each would be escaped as a lone surrogate.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    yield JSON.stringify(text.slice(at, end)).slice(1, -1);
    at = end;
  }
  yield '"';
}

/**
 * A string whose JSON is made as it is read (a stored output, decoded a slice at a time): its
 * `escaped()` pieces are the string's JSON without the quotes.
 */
export interface JsonText {
  readonly jsonText: true;
  escaped(): Iterable<string>;
}

const isJsonText = (value: object): value is JsonText => (value as Partial<JsonText>).jsonText === true;

/** The pieces of `value`'s JSON (plain data: objects, arrays, strings, numbers, booleans, null; JsonText). */
export function* jsonPieces(value: unknown): Generator<string> {
  if (typeof value === "string") return yield* stringPieces(value);
  if (value !== null && typeof value === "object" && isJsonText(value)) {
    yield '"';
    yield* value.escaped();
    return yield '"';
  }
  if (value === null || typeof value !== "object") return yield JSON.stringify(value) ?? "null";
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === "function") return yield* jsonPieces(withJson.toJSON());
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      const item: unknown = value[i];
      if (item === undefined || typeof item === "function" || typeof item === "symbol") yield "null";
      else yield* jsonPieces(item);
    }
    return yield "]";
  }
  yield "{";
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(item);
  }
  yield "}";
}

/** `value`'s JSON in chunks of about CHUNK_CHARS characters. */
export function* jsonChunks(value: unknown, size = CHUNK_CHARS): Generator<string> {
  let held = "";
  for (const piece of jsonPieces(value)) {
    held += piece;
    if (held.length >= size) {
      yield held;
      held = "";
    }
  }
  if (held !== "") yield held;
}

/** `head`, the JSON of each item (joined by commas) and `tail`: a list made as its items come. */
export async function* jsonListParts(head: string, items: AsyncIterable<unknown>, tail: string): AsyncGenerator<string> {
  yield head;
  let first = true;
  for await (const item of items) {
    if (!first) yield ",";
    first = false;
    yield* jsonChunks(item);
  }
  yield tail;
}

/** Output characters a record carries (its own and its tests'): whether its JSON is worth streaming. */
export function outputChars(rec: { stdout?: string | null; stderr?: string | null; tests?: readonly { stdout: string; stderr: string }[] } | null): number {
  if (!rec) return 0;
  const own = (rec.stdout?.length ?? 0) + (rec.stderr?.length ?? 0);
  return (rec.tests ?? []).reduce((n, t) => n + t.stdout.length + t.stderr.length, own);
}
