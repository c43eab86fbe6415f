// The pieces of a text the output checkers compare (checker.ts): lines and tokens read one per call
// by forward scans over character codes (no regex, no split into arrays), and the excerpts a
// mismatch shows.

/** A piece of one of the texts: [start, end), on a 1-based line. */
export interface Span {
  start: number;
  end: number;
  line: number;
}

const EXCERPT = 40;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;

/** The span's text, cut at 40 characters; absent: the end of the output. */
export function excerpt(text: string, span: Span | undefined): string {
  if (!span) return "(end of output)";
  return span.end - span.start > EXCERPT ? `${text.slice(span.start, span.start + EXCERPT)}…` : text.slice(span.start, span.end);
}

/** Length of the common prefix of two spans. */
export function commonPrefix(a: string, as: Span, b: string, bs: Span): number {
  const limit = Math.min(as.end - as.start, bs.end - bs.start);
  let n = 0;
  while (n < limit && a.charCodeAt(as.start + n) === b.charCodeAt(bs.start + n)) n++;
  return n;
}

export function regionsEqual(a: string, as: Span, b: string, bs: Span): boolean {
  const length = as.end - as.start;
  return length === bs.end - bs.start && commonPrefix(a, as, b, bs) === length;
}

/** A-Z to a-z; every other code unit (non-ASCII letters too) as it is. */
const foldAscii = (c: number): number => (c >= 0x41 && c <= 0x5a ? c | 0x20 : c);

/** Equal after ASCII case folding, code unit by code unit. */
export function regionsEqualIgnoringAsciiCase(a: string, as: Span, b: string, bs: Span): boolean {
  const length = as.end - as.start;
  if (length !== bs.end - bs.start) return false;
  for (let n = 0; n < length; n++) {
    if (foldAscii(a.charCodeAt(as.start + n)) !== foldAscii(b.charCodeAt(bs.start + n))) return false;
  }
  return true;
}

/**
 * The lines of `text`, one per call, as `text.split("\n")` has them. `lines` mode: each without
 * its trailing spaces, tabs and CRs, and without the empty lines at the end.
 */
export function lineCursor(text: string, mode: "exact" | "lines"): () => Span | undefined {
  let end = text.length;
  if (mode === "lines") {
    // The last line kept is the one holding the last character that is not a blank or a line
    // break; the lines after it are all empty once trimmed. No such character: no lines at all.
    let last = end - 1;
    while (last >= 0 && isBlankOrBreak(text.charCodeAt(last))) last--;
    if (last < 0) return () => undefined;
    const lineEnd = text.indexOf("\n", last);
    end = lineEnd < 0 ? end : lineEnd;
  }
  let pos = 0;
  let line = 0;
  let done = false;
  return () => {
    if (done) return undefined;
    const start = pos;
    let stop = text.indexOf("\n", pos);
    if (stop < 0 || stop >= end) {
      stop = end;
      done = true;
    } else {
      pos = stop + 1;
    }
    line++;
    if (mode === "lines") {
      while (stop > start && isBlank(text.charCodeAt(stop - 1))) stop--;
    }
    return { start, end: stop, line };
  };
}

/** What `lines` trims off a line's end. */
const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === CR;
const isBlankOrBreak = (c: number): boolean => c === SPACE || c === TAB || c === CR || c === LF;

/**
 * JavaScript's `\s`: Unicode white space (Zs, tab, vertical tab, form feed, no-break space,
 * byte-order mark) and line terminators (LF, CR, U+2028, U+2029).
 */
export function isWhiteSpace(c: number): boolean {
  if (c <= SPACE) return c === SPACE || (c >= TAB && c <= CR);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The whitespace-separated tokens of `text`, one per call, each on the line it starts (lines end at LF). */
export function tokenCursor(text: string): () => Span | undefined {
  let pos = 0;
  let line = 1;
  return () => {
    for (; pos < text.length; pos++) {
      const c = text.charCodeAt(pos);
      if (c === LF) line++;
      else if (!isWhiteSpace(c)) break;
    }
    if (pos >= text.length) return undefined;
    const start = pos;
    while (pos < text.length && !isWhiteSpace(text.charCodeAt(pos))) pos++;
    return { start, end: pos, line };
  };
}
