// Output checkers: a program's output against the expected output, by one of four rules. Pure, so
// every rule and edge has a unit test. A mismatch names the first place the two differ.

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
const excerpt = (text: string | undefined): string =>
  text === undefined ? "(end of output)" : text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;

export function check(actual: string, expected: string, mode: CompareMode, epsilon = DEFAULT_FLOAT_EPSILON): CheckResult {
  switch (mode) {
    case "exact":
      return compareLines(actual.split("\n"), expected.split("\n"), "exact");
    case "lines":
      return compareLines(normalisedLines(actual), normalisedLines(expected), "lines");
    case "tokens":
      return compareTokens(tokens(actual), tokens(expected), (a, e) => a === e);
    case "float":
      return compareTokens(tokens(actual), tokens(expected), (a, e) => tokensClose(a, e, epsilon));
  }
}

/** Lines without trailing spaces or tabs (or a CR), and without the empty lines at the end. */
function normalisedLines(text: string): string[] {
  const lines = text.split("\n").map((line) => line.replace(/[ \t\r]+$/, ""));
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines;
}

function compareLines(actual: string[], expected: string[], mode: "exact" | "lines"): CheckResult {
  const count = Math.max(actual.length, expected.length);
  for (let i = 0; i < count; i++) {
    const a = actual[i];
    const e = expected[i];
    if (a === e) continue;
    let column = 1;
    if (a !== undefined && e !== undefined) {
      while (column <= a.length && column <= e.length && a[column - 1] === e[column - 1]) column++;
    }
    const where = `line ${i + 1}${a !== undefined && e !== undefined ? `, column ${column}` : ""}`;
    const what = a === undefined ? "the output ends early" : e === undefined ? "the output has extra lines" : "the lines differ";
    return {
      equal: false,
      mismatch: {
        line: i + 1, ...(a !== undefined && e !== undefined ? { column } : {}),
        expected: excerpt(e), actual: excerpt(a),
        message: `wrong answer (${mode}): ${what} at ${where}`,
      },
    };
  }
  return { equal: true };
}

interface Token {
  text: string;
  line: number;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  for (const match of text.matchAll(/\S+|\n/g)) {
    if (match[0] === "\n") line++;
    else out.push({ text: match[0], line });
  }
  return out;
}

function compareTokens(actual: Token[], expected: Token[], same: (a: string, e: string) => boolean): CheckResult {
  const count = Math.max(actual.length, expected.length);
  for (let i = 0; i < count; i++) {
    const a = actual[i];
    const e = expected[i];
    if (a && e && same(a.text, e.text)) continue;
    const what = !a ? "the output ends early" : !e ? "the output has extra tokens" : "the tokens differ";
    return {
      equal: false,
      mismatch: {
        line: (a ?? e)!.line, token: i + 1, expected: excerpt(e?.text), actual: excerpt(a?.text),
        message: `wrong answer: ${what} at token ${i + 1} (line ${(a ?? e)!.line})`,
      },
    };
  }
  return { equal: true };
}

/** A number as a judge reads it: decimal or exponent form, inf and nan in any case; else null. */
function parseNumber(text: string): number | null {
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(text)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
  return Number(text);
}

/** Equal as text, or both numbers within `epsilon`, absolute or relative to the expected value. */
export function tokensClose(actual: string, expected: string, epsilon: number): boolean {
  if (actual === expected) return true;
  const a = parseNumber(actual);
  const e = parseNumber(expected);
  if (a === null || e === null) return false;
  if (Number.isNaN(e) || Number.isNaN(a)) return Number.isNaN(e) && Number.isNaN(a);
  if (!Number.isFinite(e) || !Number.isFinite(a)) return a === e;
  const diff = Math.abs(a - e);
  return diff <= epsilon || diff <= epsilon * Math.abs(e);
}
