// Output checkers: a program's output against the expected output, by one of four rules. Pure, so
// every rule and edge has a unit test. A mismatch names the first place the two differ.
//
// Both texts are a tenant's bytes, so every rule is one forward scan of each (character codes,
// no regex, no split into arrays): linear time, and no copy of either text beyond the excerpts
// of a mismatch and the tokens `float` reads as numbers. They run off the event loop, in the
// judge's worker pool (check-pool.ts).

export const COMPARE_MODES = ["exact", "lines", "tokens", "float"] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];

/** Default tolerance of `float`: absolute or relative, whichever is looser. */
export const DEFAULT_FLOAT_EPSILON = 1e-6;

export interface Mismatch {
  /** 1-based line of the first difference (exact, lines), or of the first differing token. */
  line: number;
  /** 1-based column (exact, lines) in UTF-16 code units. */
  column?: number;
  /** 1-based index of the first differing token (tokens, float). */
  token?: number;
  expected: string;
  actual: string;
  /** A sentence a user understands. */
  message: string;
}

export type CheckResult = { equal: true } | { equal: false; mismatch: Mismatch };

const EXCERPT = 40;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;

/** A piece of one of the texts: [start, end), on a 1-based line. */
interface Span {
  start: number;
  end: number;
  line: number;
}

/** The span's text, cut at 40 characters; absent: the end of the output. */
function excerpt(text: string, span: Span | undefined): string {
  if (!span) return "(end of output)";
  return span.end - span.start > EXCERPT ? `${text.slice(span.start, span.start + EXCERPT)}…` : text.slice(span.start, span.end);
}

export function check(actual: string, expected: string, mode: CompareMode, epsilon = DEFAULT_FLOAT_EPSILON): CheckResult {
  switch (mode) {
    case "exact":
      return compareLines(actual, expected, "exact");
    case "lines":
      return compareLines(actual, expected, "lines");
    case "tokens":
      return compareTokens(actual, expected, (a, e) => regionsEqual(actual, a, expected, e));
    case "float":
      return compareTokens(actual, expected, (a, e) =>
        regionsEqual(actual, a, expected, e) || numbersClose(actual.slice(a.start, a.end), expected.slice(e.start, e.end), epsilon));
  }
}

/** Length of the common prefix of two spans. */
function commonPrefix(a: string, as: Span, b: string, bs: Span): number {
  const limit = Math.min(as.end - as.start, bs.end - bs.start);
  let n = 0;
  while (n < limit && a.charCodeAt(as.start + n) === b.charCodeAt(bs.start + n)) n++;
  return n;
}

function regionsEqual(a: string, as: Span, b: string, bs: Span): boolean {
  const length = as.end - as.start;
  return length === bs.end - bs.start && commonPrefix(a, as, b, bs) === length;
}

/**
 * The lines of `text`, one per call, as `text.split("\n")` has them. `lines` mode: each without
 * its trailing spaces, tabs and CRs, and without the empty lines at the end.
 */
function lineCursor(text: string, mode: "exact" | "lines"): () => Span | undefined {
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

function compareLines(actual: string, expected: string, mode: "exact" | "lines"): CheckResult {
  if (mode === "exact" && actual === expected) return { equal: true };
  const nextActual = lineCursor(actual, mode);
  const nextExpected = lineCursor(expected, mode);
  for (let i = 1; ; i++) {
    const a = nextActual();
    const e = nextExpected();
    if (!a && !e) return { equal: true };
    let column: number | undefined;
    if (a && e) {
      const common = commonPrefix(actual, a, expected, e);
      if (common === a.end - a.start && common === e.end - e.start) continue;
      column = common + 1;
    }
    const where = `line ${i}${column !== undefined ? `, column ${column}` : ""}`;
    const what = !a ? "the output ends early" : !e ? "the output has extra lines" : "the lines differ";
    return {
      equal: false,
      mismatch: {
        line: i, ...(column !== undefined ? { column } : {}),
        expected: excerpt(expected, e), actual: excerpt(actual, a),
        message: `wrong answer (${mode}): ${what} at ${where}`,
      },
    };
  }
}

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
function tokenCursor(text: string): () => Span | undefined {
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

function compareTokens(actual: string, expected: string, same: (a: Span, e: Span) => boolean): CheckResult {
  const nextActual = tokenCursor(actual);
  const nextExpected = tokenCursor(expected);
  for (let i = 1; ; i++) {
    const a = nextActual();
    const e = nextExpected();
    if (!a && !e) return { equal: true };
    if (a && e && same(a, e)) continue;
    const what = !a ? "the output ends early" : !e ? "the output has extra tokens" : "the tokens differ";
    const line = (a ?? e)!.line;
    return {
      equal: false,
      mismatch: {
        line, token: i, expected: excerpt(expected, e), actual: excerpt(actual, a),
        message: `wrong answer: ${what} at token ${i} (line ${line})`,
      },
    };
  }
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Index just past the run of ASCII digits starting at `i`. */
function digits(text: string, i: number): number {
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i;
}

/**
 * A number as a judge reads it: an optional sign, then decimal (`12`, `12.`, `12.5`, `.5`) with
 * an optional exponent (`e`/`E`, optional sign, digits), or `inf`, `infinity`, `nan` in any
 * case; else null.
 */
function parseNumber(text: string): number | null {
  const signed = text.charCodeAt(0) === 0x2b /* + */ || text.charCodeAt(0) === 0x2d; /* - */
  const body = signed ? 1 : 0;
  const rest = text.length - body;
  if (rest === 3 || rest === 8) {
    const word = text.slice(body).toLowerCase();
    if (word === "inf" || word === "infinity") return text.charCodeAt(0) === 0x2d ? -Infinity : Infinity;
    if (word === "nan") return NaN;
  }
  let i = digits(text, body);
  const integerDigits = i - body;
  if (text.charCodeAt(i) === 0x2e /* . */) {
    const fraction = digits(text, i + 1);
    if (integerDigits === 0 && fraction === i + 1) return null;
    i = fraction;
  } else if (integerDigits === 0) {
    return null;
  }
  if (i < text.length && (text.charCodeAt(i) | 0x20) === 0x65 /* e, E */) {
    let exponent = i + 1;
    if (text.charCodeAt(exponent) === 0x2b || text.charCodeAt(exponent) === 0x2d) exponent++;
    const end = digits(text, exponent);
    if (end === exponent) return null;
    i = end;
  }
  return i === text.length ? Number(text) : null;
}

/** Equal as text, or both numbers within `epsilon`, absolute or relative to the expected value. */
export function tokensClose(actual: string, expected: string, epsilon: number): boolean {
  return actual === expected || numbersClose(actual, expected, epsilon);
}

function numbersClose(actual: string, expected: string, epsilon: number): boolean {
  const a = parseNumber(actual);
  const e = parseNumber(expected);
  if (a === null || e === null) return false;
  if (Number.isNaN(e) || Number.isNaN(a)) return Number.isNaN(e) && Number.isNaN(a);
  if (!Number.isFinite(e) || !Number.isFinite(a)) return a === e;
  const diff = Math.abs(a - e);
  return diff <= epsilon || diff <= epsilon * Math.abs(e);
}
