// Compare `identical`: the output's bytes against the expected bytes, with nothing forgiven: not a
// trailing space or newline, not a byte-order mark, not bytes that are invalid UTF-8 (the text
// rules see those decoded, checker.ts). One forward scan of each.
import type { CheckResult } from "./check-result.ts";

const LF = 0x0a;
const EXCERPT = 40;
/** Bytes of a line decoded for its excerpt: enough for 40 characters of up to 4 bytes each. */
const EXCERPT_BYTES = EXCERPT * 4;

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** The line of `bytes` that starts at `start`, decoded and cut at 40 characters; none left: the end. */
function lineExcerpt(bytes: Uint8Array, start: number): string {
  if (start >= bytes.length) return "(end of output)";
  let end = bytes.indexOf(LF, start);
  if (end < 0) end = bytes.length;
  const text = decoder.decode(bytes.subarray(start, Math.min(end, start + EXCERPT_BYTES)));
  return text.length > EXCERPT || end - start > EXCERPT_BYTES ? `${text.slice(0, EXCERPT)}…` : text;
}

/**
 * Equal when byte for byte the same. A mismatch names the line (counted by LF) and the byte
 * within it (1-based) where the two first differ, with both lines from their start.
 */
export function compareBytes(actual: Uint8Array, expected: Uint8Array): CheckResult {
  const common = Math.min(actual.length, expected.length);
  let at = 0;
  let line = 1;
  let lineStart = 0;
  for (; at < common && actual[at] === expected[at]; at++) {
    if (actual[at] === LF) {
      line++;
      lineStart = at + 1;
    }
  }
  if (at === actual.length && at === expected.length) return { equal: true };
  const column = at - lineStart + 1;
  const what = at === actual.length ? "the output ends early" : at === expected.length ? "the output has extra bytes" : "the bytes differ";
  return {
    equal: false,
    mismatch: {
      line, column,
      expected: lineExcerpt(expected, lineStart), actual: lineExcerpt(actual, lineStart),
      message: `wrong answer (identical): ${what} at line ${line}, byte ${column}`,
    },
  };
}
