// Numbers as the float checkers read them (checker.ts), and the three tolerances they apply.
// One forward scan of a token's character codes; no regex.

/**
 * How close two numbers must be, with ε the request's `float_epsilon`: `either` (compare
 * `float`) |a−e| ≤ ε or |a−e| ≤ ε·|e|; `absolute` (`float_abs`) |a−e| ≤ ε; `relative`
 * (`float_rel`) |a−e| ≤ ε·|e|, so an expected 0 takes only ±0.
 */
export type Tolerance = "either" | "absolute" | "relative";

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
export function parseNumber(text: string): number | null {
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

/** Equal as text, or both numbers within `epsilon` by `tolerance`. */
export function tokensClose(actual: string, expected: string, epsilon: number, tolerance: Tolerance = "either"): boolean {
  return actual === expected || numbersClose(actual, expected, epsilon, tolerance);
}

/**
 * Both tokens numbers within `epsilon`: NaN only equals NaN and an infinity only the same
 * infinity, whatever the tolerance; a token that is not a number is never close to anything.
 */
export function numbersClose(actual: string, expected: string, epsilon: number, tolerance: Tolerance): boolean {
  const a = parseNumber(actual);
  const e = parseNumber(expected);
  if (a === null || e === null) return false;
  if (Number.isNaN(e) || Number.isNaN(a)) return Number.isNaN(e) && Number.isNaN(a);
  if (!Number.isFinite(e) || !Number.isFinite(a)) return a === e;
  const diff = Math.abs(a - e);
  const absolute = diff <= epsilon;
  const relative = diff <= epsilon * Math.abs(e);
  return tolerance === "absolute" ? absolute : tolerance === "relative" ? relative : absolute || relative;
}
