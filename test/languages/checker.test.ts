// The output checkers, rule by rule and at their edges (pure: no kernel).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { check, tokensClose } from "../../fleet/src/judge/checker.ts";
import type { CheckResult } from "../../fleet/src/judge/checker.ts";

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
