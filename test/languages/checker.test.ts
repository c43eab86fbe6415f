// The output checkers, rule by rule and at their edges (pure: no kernel).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { check, tokensClose } from "../../fleet/src/judge/compare/checker.ts";
import type { CheckResult } from "../../fleet/src/judge/compare/checker.ts";

const mismatch = (r: CheckResult) => {
  assert.equal(r.equal, false);
  return (r as Extract<CheckResult, { equal: false }>).mismatch;
};

describe("exact", () => {
  it("equal only byte for byte, and names the first differing line and column", () => {
    assert.deepEqual(check("1 2\n3\n", "1 2\n3\n", "exact"), { equal: true });
    const m = mismatch(check("1 2\n3 x\n", "1 2\n3 4\n", "exact"));
    assert.deepEqual([m.line, m.column, m.expected, m.actual], [2, 3, "3 4", "3 x"]);
    assert.match(m.message, /line 2, column 3/);
    assert.equal(mismatch(check("1\n", "1", "exact")).line, 2, "a trailing newline counts");
    assert.equal(mismatch(check("1 \n", "1\n", "exact")).column, 2, "a trailing space counts");
  });
  it("an early end and extra lines are told apart", () => {
    assert.match(mismatch(check("a", "a\nb", "exact")).message, /ends early at line 2/);
    assert.match(mismatch(check("a\nb", "a", "exact")).message, /extra lines at line 2/);
  });
});

describe("lines", () => {
  it("ignores trailing spaces, tabs and CRs per line, and trailing empty lines", () => {
    assert.deepEqual(check("1 2  \t\r\n3\n\n\n", "1 2\n3", "lines"), { equal: true });
    assert.deepEqual(check("", "\n\n", "lines"), { equal: true });
  });
  it("but not leading spaces, inner spaces, or an empty line in the middle", () => {
    assert.equal(mismatch(check(" 1\n", "1\n", "lines")).column, 1);
    assert.equal(mismatch(check("1  2\n", "1 2\n", "lines")).column, 3);
    assert.equal(mismatch(check("1\n\n2\n", "1\n2\n", "lines")).line, 2);
  });
});

describe("tokens", () => {
  it("ignores every amount and kind of whitespace", () => {
    assert.deepEqual(check("  1\t2\n\n3  ", "1 2 3\n", "tokens"), { equal: true });
  });
  it("names the first differing token and its line", () => {
    const m = mismatch(check("1 2\n3 5\n", "1 2 3 4", "tokens"));
    assert.deepEqual([m.token, m.line, m.expected, m.actual], [4, 2, "4", "5"]);
    assert.match(mismatch(check("1 2", "1 2 3", "tokens")).message, /ends early at token 3/);
    assert.match(mismatch(check("1 2 3", "1 2", "tokens")).message, /extra tokens at token 3/);
    assert.equal(mismatch(check("1.0", "1", "tokens")).token, 1, "tokens compare as text");
  });
});

describe("float", () => {
  it("numbers within epsilon, absolute or relative; other tokens as text", () => {
    assert.deepEqual(check("0.1000001 x 1e9", "0.1 x 1000000100", "float", 1e-6), { equal: true });
    assert.equal(mismatch(check("0.1001", "0.1", "float", 1e-6)).token, 1);
    assert.equal(mismatch(check("1 y", "1 x", "float")).token, 2);
  });
  it("edges: nan only equals nan, -0 equals 0, inf only equals the same inf, 1e-9 within the default", () => {
    assert.ok(tokensClose("nan", "NaN", 1e-6));
    assert.ok(!tokensClose("nan", "0", 1e-6));
    assert.ok(!tokensClose("0", "nan", 1e-6));
    assert.ok(tokensClose("-0", "0", 0));
    assert.ok(tokensClose("-0.0", "0.000", 0));
    assert.ok(tokensClose("inf", "Infinity", 1e-6));
    assert.ok(!tokensClose("-inf", "inf", 1e-6));
    assert.ok(!tokensClose("1e308", "inf", 1e-6));
    assert.ok(tokensClose("1e-9", "0", 1e-6));
    assert.ok(!tokensClose("1e-9", "0", 1e-12));
    assert.ok(tokensClose("1.0000000001", "1", 1e-9));
    assert.ok(!tokensClose("1.01", "1", 1e-9));
  });
  it("exactly epsilon apart is equal; a hair more is not", () => {
    assert.ok(tokensClose("1.5", "1", 0.5));
    assert.ok(!tokensClose("1.5000001", "1", 0.5));
    // relative: 1e6 ± 1 with epsilon 1e-6
    assert.ok(tokensClose("1000001", "1000000", 1e-6));
    assert.ok(!tokensClose("1000002", "1000000", 1e-6));
  });
  it("things that are not numbers stay text: hex, a trailing dot alone, words", () => {
    assert.ok(!tokensClose("0x10", "16", 1e-6));
    assert.ok(!tokensClose(".", "0", 1e-6));
    assert.ok(tokensClose("5.", "5", 0));
    assert.ok(tokensClose(".5", "0.5", 0));
    assert.ok(!tokensClose("five", "5", 1e-6));
  });
});

describe("checker details", () => {
  it("a mismatch is described in full: where, what, and excerpts cut at 40 characters", () => {
    const long = "x".repeat(41);
    assert.deepEqual(mismatch(check(`${long}\n`, `${"x".repeat(40)}\n`, "exact")), {
      line: 1, column: 41, expected: "x".repeat(40), actual: `${"x".repeat(40)}…`,
      message: "wrong answer (exact): the lines differ at line 1, column 41",
    });
    assert.deepEqual(mismatch(check("a", "a\nb", "lines")), {
      line: 2, expected: "b", actual: "(end of output)", message: "wrong answer (lines): the output ends early at line 2",
    });
    assert.deepEqual(mismatch(check("a\nb", "a", "lines")), {
      line: 2, expected: "(end of output)", actual: "b", message: "wrong answer (lines): the output has extra lines at line 2",
    });
    assert.deepEqual(mismatch(check("1\n2", "1\n3", "tokens")), {
      line: 2, token: 2, expected: "3", actual: "2", message: "wrong answer: the tokens differ at token 2 (line 2)",
    });
    assert.deepEqual(mismatch(check("1", "1\n\n7", "tokens")), {
      line: 3, token: 2, expected: "7", actual: "(end of output)", message: "wrong answer: the output ends early at token 2 (line 3)",
    });
  });
  it("the column of a line that is a prefix of the other is one past its end", () => {
    assert.equal(mismatch(check("12\n", "12x\n", "exact")).column, 3);
    assert.equal(mismatch(check("12x\n", "12\n", "exact")).column, 3);
  });
  it("numbers in every form a judge reads; look-alikes stay text", () => {
    for (const [a, e] of [["1e10", "10000000000"], ["12.5", "12.50"], [".25", "0.25"], ["+nan", "nan"], ["-Infinity", "-inf"], ["1E+2", "100"]]) {
      assert.ok(tokensClose(a!, e!, 0), `${a} = ${e}`);
    }
    for (const [a, e] of [["xinf", "inf"], ["infs", "inf"], ["nanx", "nan"], ["xnan", "nan"], ["abc", "0"], ["0", "abc"], ["1e", "1"]]) {
      assert.ok(!tokensClose(a!, e!, 1e-6), `${a} != ${e}`);
    }
    // exactly epsilon away from zero: the absolute rule alone decides
    assert.ok(tokensClose("0.5", "0", 0.5));
    assert.ok(!tokensClose("0.5000001", "0", 0.5));
  });
});

/** The rules as they were first written, with regexes and arrays: the reference for small inputs. */
const reference = {
  lines(text: string, trim: boolean): string[] {
    const lines = text.split("\n").map((line) => (trim ? line.replace(/[ \t\r]+$/, "") : line));
    if (trim) while (lines.length > 0 && lines.at(-1) === "") lines.pop();
    return lines;
  },
  tokens(text: string): { text: string; line: number }[] {
    const out: { text: string; line: number }[] = [];
    let line = 1;
    for (const match of text.matchAll(/\S+|\n/g)) {
      if (match[0] === "\n") line++;
      else out.push({ text: match[0], line });
    }
    return out;
  },
  number(text: string): number | null {
    if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
    if (/^[+-]?nan$/i.test(text)) return NaN;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
    return Number(text);
  },
};

/** The reference's mismatch (line, column or token, excerpts, message), or null when equal. */
function referenceCheck(actual: string, expected: string, mode: "exact" | "lines" | "tokens"): unknown {
  const cut = (text: string | undefined) => (text === undefined ? "(end of output)" : text.length > 40 ? `${text.slice(0, 40)}…` : text);
  if (mode === "tokens") {
    const [as, es] = [reference.tokens(actual), reference.tokens(expected)];
    for (let i = 0; i < Math.max(as.length, es.length); i++) {
      const [a, e] = [as[i], es[i]];
      if (a && e && a.text === e.text) continue;
      const what = !a ? "the output ends early" : !e ? "the output has extra tokens" : "the tokens differ";
      const line = (a ?? e)!.line;
      return { line, token: i + 1, expected: cut(e?.text), actual: cut(a?.text), message: `wrong answer: ${what} at token ${i + 1} (line ${line})` };
    }
    return null;
  }
  const [as, es] = [reference.lines(actual, mode === "lines"), reference.lines(expected, mode === "lines")];
  for (let i = 0; i < Math.max(as.length, es.length); i++) {
    const [a, e] = [as[i], es[i]];
    if (a === e) continue;
    let column = 1;
    if (a !== undefined && e !== undefined) while (column <= a.length && column <= e.length && a[column - 1] === e[column - 1]) column++;
    const both = a !== undefined && e !== undefined;
    const what = a === undefined ? "the output ends early" : e === undefined ? "the output has extra lines" : "the lines differ";
    return {
      line: i + 1, ...(both ? { column } : {}), expected: cut(e), actual: cut(a),
      message: `wrong answer (${mode}): ${what} at line ${i + 1}${both ? `, column ${column}` : ""}`,
    };
  }
  return null;
}

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the scanners agree with the rules as regexes", () => {
  const PIECES = [" ", "  ", "\t", "\r", "\n", "\n", "\r\n", "a", "b", "1", "0", ".", "e", "E", "-", "+", "5.", ".5", "1e3", "nan", "InF", "\u00a0", "\u2028", "\u3000", "\v", "\f", "é", "\ud83d\ude00", "x".repeat(45)];
  const text = (next: () => number) => Array.from({ length: Math.floor(next() * 12) }, () => PIECES[Math.floor(next() * PIECES.length)]).join("");
  it("exact, lines and tokens: the same verdict and mismatch on 20 000 random pairs", () => {
    for (let seed = 1; seed <= 20_000; seed++) {
      const next = random(seed);
      const actual = text(next);
      // half the pairs are near each other: the expected text is the actual with one piece changed
      const expected = next() < 0.5 ? text(next) : actual.slice(0, Math.floor(next() * actual.length)) + PIECES[Math.floor(next() * PIECES.length)] + actual.slice(Math.floor(next() * actual.length));
      for (const mode of ["exact", "lines", "tokens"] as const) {
        const want = referenceCheck(actual, expected, mode);
        const got = check(actual, expected, mode);
        assert.deepEqual(got.equal ? null : got.mismatch, want, `seed ${seed}, ${mode}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
      }
    }
  });
  it("float: numbers read exactly as the regexes read them", () => {
    const CHARS = ["0", "1", "9", ".", "e", "E", "+", "-", "i", "n", "f", "a", "N", "I", "t", "y", "x"];
    for (let seed = 1; seed <= 50_000; seed++) {
      const next = random(seed);
      const token = Array.from({ length: 1 + Math.floor(next() * 9) }, () => CHARS[Math.floor(next() * CHARS.length)]).join("");
      const number = reference.number(token);
      // a token is read as a number when it is close to itself written another way
      for (const other of ["0", "1", "-1", "1e9", "nan", "inf", "-inf"]) {
        const expected = number !== null && reference.number(other) !== null && (() => {
          const [a, e] = [number, reference.number(other)!];
          if (Number.isNaN(a) || Number.isNaN(e)) return Number.isNaN(a) && Number.isNaN(e);
          if (!Number.isFinite(a) || !Number.isFinite(e)) return a === e;
          return Math.abs(a - e) <= 1e-6 || Math.abs(a - e) <= 1e-6 * Math.abs(e);
        })();
        assert.equal(tokensClose(token, other, 1e-6), token === other || expected, `seed ${seed}: ${token} vs ${other}`);
      }
    }
  });
  it("whitespace is JavaScript's \\s, code unit by code unit; only LF starts a line", () => {
    for (let c = 0; c < 0x10000; c++) {
      const unit = String.fromCharCode(c);
      const space = /\s/.test(unit);
      assert.equal(check(`a${unit}b`, "a b", "tokens").equal, space, `U+${c.toString(16)}`);
    }
    const m = mismatch(check("1\r2\u20283\n4", "1 2 3 5", "tokens"));
    assert.deepEqual([m.token, m.line], [4, 2]);
  });
});

describe("a tenant's bytes cost linear work", () => {
  // Each of these was quadratic (or worse) with regexes; the test runner's timeout bounds them.
  const blanks = " ".repeat(80_000);
  it("lines: a long run of blanks that ends in a letter, on either side", () => {
    assert.deepEqual(check(`${blanks}x`, `${blanks}x  \n`, "lines"), { equal: true });
    const m = mismatch(check(`${blanks}x\n`, `${blanks}y`, "lines"));
    assert.deepEqual([m.line, m.column], [1, 80_001]);
    assert.deepEqual(check(`${blanks}\t\r`.repeat(4), "", "lines"), { equal: true });
    assert.equal(mismatch(check(`${blanks}x`, "", "lines")).message, "wrong answer (lines): the output has extra lines at line 1");
  });
  it("exact and lines: a million lines, different only at the last", () => {
    const many = "1\n".repeat(1_000_000);
    assert.deepEqual(check(many, many, "lines"), { equal: true });
    const m = mismatch(check(`${many}2`, `${many}3`, "exact"));
    assert.deepEqual([m.line, m.column], [1_000_001, 1]);
    const breaks = "\n".repeat(499_999);
    assert.deepEqual(mismatch(check(`${breaks}y\n\n`, `${breaks}x`, "lines")).line, 500_000);
    assert.match(mismatch(check(`${breaks}\n`, `${breaks}x`, "lines")).message, /ends early at line 1$/);
  });
  it("tokens and float: a million tokens, a long run of whitespace, a long number", () => {
    const many = "7 ".repeat(1_000_000);
    assert.deepEqual(check(many, many, "tokens"), { equal: true });
    assert.deepEqual(check(`${many}1.0000001`, `${many}1`, "float"), { equal: true });
    assert.equal(mismatch(check(`${" \t".repeat(100_000)}x`, "y", "tokens")).token, 1);
    const digits = "1".repeat(100_000);
    assert.equal(mismatch(check(`${digits}x`, digits, "float")).token, 1);
    assert.equal(mismatch(check(`${digits}.${digits}e`, "1", "float")).token, 1);
    assert.deepEqual(check(`${digits}.5`, `${digits}`, "float"), { equal: true });
  });
});
