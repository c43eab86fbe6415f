// Compare `unordered`: the output's lines, as a multiset, against the expected lines. Lines are
// read as `lines` reads them (trailing spaces, tabs and CRs off each, empty lines at the end
// dropped). Each distinct expected line gets an entry with its count in an open-addressing hash
// table of typed arrays; a line of the output takes one from its entry's count. A hash only picks
// where to look: two lines are the same only when their text is (compared in full), so a
// collision costs a comparison, never a wrong verdict. The hash is seeded per check, so a tenant
// cannot line up collisions in advance. Expected linear time; memory: a few integers per
// expected line.
import type { CheckResult } from "./check-result.ts";
import { excerpt, lineCursor, regionsEqual } from "./text-spans.ts";
import type { Span } from "./text-spans.ts";

/** A 32-bit hash of the span's code units from two seeded lanes. */
function lineHash(text: string, span: Span, seedA: number, seedB: number): number {
  let a = seedA;
  let b = seedB;
  for (let i = span.start; i < span.end; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a ^ Math.imul(b, 0x27d4eb2d)) | 0;
}

/** The distinct expected lines, each with its first occurrence and the count still unmatched. */
class ExpectedLines {
  readonly size: number;
  readonly counts: Int32Array;
  private readonly expected: string;
  private readonly slots: Int32Array;
  private readonly hashes: Int32Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly lines: Int32Array;
  private distinct = 0;
  private readonly seedA = (Math.random() * 0x1_0000_0000) | 0;
  private readonly seedB = (Math.random() * 0x1_0000_0000) | 0;

  constructor(expected: string) {
    this.expected = expected;
    let lines = 1;
    for (let at = expected.indexOf("\n"); at >= 0; at = expected.indexOf("\n", at + 1)) lines++;
    // A power of two at least twice the lines: probes stay short.
    this.size = 2 ** Math.ceil(Math.log2(lines * 2 + 1));
    this.slots = new Int32Array(this.size);
    this.hashes = new Int32Array(lines);
    this.counts = new Int32Array(lines);
    this.starts = new Int32Array(lines);
    this.ends = new Int32Array(lines);
    this.lines = new Int32Array(lines);
  }

  /** The entry of a line of `text` equal to `span`, or -1; with `add`, a new line gets one. */
  find(text: string, span: Span, add: boolean): number {
    const hash = lineHash(text, span, this.seedA, this.seedB);
    const mask = this.size - 1;
    let slot = hash & mask;
    for (; this.slots[slot] !== 0; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]! - 1;
      if (this.hashes[entry] === hash && regionsEqual(text, span, this.expected, this.span(entry))) return entry;
    }
    if (!add) return -1;
    const entry = this.distinct++;
    [this.hashes[entry], this.starts[entry], this.ends[entry], this.lines[entry]] = [hash, span.start, span.end, span.line];
    this.slots[slot] = entry + 1;
    return entry;
  }

  span(entry: number): Span {
    return { start: this.starts[entry]!, end: this.ends[entry]!, line: this.lines[entry]! };
  }

  /** The first distinct line, in expected order, with a count left. */
  firstUnmatched(): Span | undefined {
    const entry = this.counts.findIndex((count) => count > 0);
    return entry < 0 ? undefined : this.span(entry);
  }
}

export function compareUnordered(actual: string, expected: string): CheckResult {
  const table = new ExpectedLines(expected);
  const nextExpected = lineCursor(expected, "lines");
  for (let span = nextExpected(); span; span = nextExpected()) table.counts[table.find(expected, span, true)]!++;
  const nextActual = lineCursor(actual, "lines");
  for (let span = nextActual(); span; span = nextActual()) {
    const entry = table.find(actual, span, false);
    if (entry >= 0 && table.counts[entry]! > 0) {
      table.counts[entry]!--;
      continue;
    }
    return {
      equal: false,
      mismatch: {
        line: span.line, expected: "(not expected)", actual: excerpt(actual, span),
        message: `wrong answer (unordered): line ${span.line} of the output is not among the expected lines (or appears more often than expected)`,
      },
    };
  }
  const missing = table.firstUnmatched();
  if (!missing) return { equal: true };
  return {
    equal: false,
    mismatch: {
      line: missing.line, expected: excerpt(expected, missing), actual: "(missing)",
      message: `wrong answer (unordered): expected line ${missing.line} is missing from the output (or appears fewer times than expected)`,
    },
  };
}
