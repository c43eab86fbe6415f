// Output checkers: a program's output against the expected output, by one of the rules of
// COMPARE_MODES (docs/languages.md, "Judging"). Pure, so every rule and edge has a unit test. A
// mismatch names the first place the two differ.
//
// Both texts are a tenant's bytes, so every rule is one forward scan of each (character codes,
// no regex, no split into arrays): linear time, and no copy of either text beyond the excerpts
// of a mismatch, the tokens the float rules read as numbers and, for `unordered`, a count per
// distinct line. They run off the event loop, in the judge's worker pool (check-pool.ts).
import type { CompareMode } from "../../../../proto/submission-rules.ts";
import type { CheckResult } from "./check-result.ts";
import { compareBytes } from "./identical.ts";
import { numbersClose } from "./numbers.ts";
import { commonPrefix, excerpt, lineCursor, regionsEqual, regionsEqualIgnoringAsciiCase, tokenCursor } from "./text-spans.ts";
import type { Span } from "./text-spans.ts";
import { compareUnordered } from "./unordered.ts";

export type { CompareMode };
export type { CheckResult, Mismatch } from "./check-result.ts";
export { tokensClose } from "./numbers.ts";

/** Default tolerance of the float rules. */
export const DEFAULT_FLOAT_EPSILON = 1e-6;

/** Bytes are read as UTF-8 with invalid sequences replaced (U+FFFD) and a leading byte-order mark dropped. */
const decoder = new TextDecoder("utf-8", { fatal: false });
const encoder = new TextEncoder();
const asText = (value: Uint8Array | string): string => (typeof value === "string" ? value : decoder.decode(value));
const asBytes = (value: Uint8Array | string): Uint8Array => (typeof value === "string" ? encoder.encode(value) : value);

/** `identical` compares bytes (text is taken as its UTF-8); every other rule compares the decoded text. */
export function check(actual: Uint8Array | string, expected: Uint8Array | string, mode: CompareMode, epsilon = DEFAULT_FLOAT_EPSILON): CheckResult {
  if (mode === "identical") return compareBytes(asBytes(actual), asBytes(expected));
  return checkText(asText(actual), asText(expected), mode, epsilon);
}

function checkText(actual: string, expected: string, mode: Exclude<CompareMode, "identical">, epsilon: number): CheckResult {
  const sameText = (a: Span, e: Span) => regionsEqual(actual, a, expected, e);
  const close = (tolerance: "either" | "absolute" | "relative") => (a: Span, e: Span) =>
    sameText(a, e) || numbersClose(actual.slice(a.start, a.end), expected.slice(e.start, e.end), epsilon, tolerance);
  switch (mode) {
    case "exact":
    case "lines":
      return compareLines(actual, expected, mode);
    case "unordered":
      return compareUnordered(actual, expected);
    case "tokens":
      return compareTokens(actual, expected, sameText);
    case "tokens_ci":
      return compareTokens(actual, expected, (a, e) => regionsEqualIgnoringAsciiCase(actual, a, expected, e));
    case "float":
      return compareTokens(actual, expected, close("either"));
    case "float_abs":
      return compareTokens(actual, expected, close("absolute"));
    case "float_rel":
      return compareTokens(actual, expected, close("relative"));
  }
}

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
