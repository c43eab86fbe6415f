// The checkers added beside exact, lines, tokens and float: identical, unordered, float_abs,
// float_rel and tokens_ci, rule by rule and at their edges (pure: no kernel), and identical's
// bytes through the worker pool.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after } from "../hooks.ts";
import { CheckPool } from "../../fleet/src/judge/compare/check-pool.ts";
import { check, tokensClose } from "../../fleet/src/judge/compare/checker.ts";
import type { CheckResult } from "../../fleet/src/judge/compare/checker.ts";

const mismatch = (r: CheckResult) => {
  assert.equal(r.equal, false);
  return (r as Extract<CheckResult, { equal: false }>).mismatch;
};
const bytes = (...values: (string | number[])[]) =>
  Uint8Array.from(values.flatMap((v) => (typeof v === "string" ? [...new TextEncoder().encode(v)] : v)));
const BOM = [0xef, 0xbb, 0xbf];

describe("identical", () => {
  it("equal only byte for byte: a trailing newline or space counts", () => {
    assert.deepEqual(check("1 2\n3\n", "1 2\n3\n", "identical"), { equal: true });
    assert.deepEqual(mismatch(check("1\n", "1", "identical")), {
      line: 1, column: 2, expected: "1", actual: "1",
      message: "wrong answer (identical): the output has extra bytes at line 1, byte 2",
    });
    assert.match(mismatch(check("1", "1\n", "identical")).message, /ends early at line 1, byte 2$/);
    assert.match(mismatch(check("1 \n", "1\n", "identical")).message, /the bytes differ at line 1, byte 2$/);
  });
  it("what exact forgives and identical does not: a leading byte-order mark, and which invalid UTF-8 bytes", () => {
    assert.deepEqual(check(bytes(BOM, "42\n"), bytes("42\n"), "exact"), { equal: true }, "the decoder drops a leading BOM");
    assert.deepEqual([mismatch(check(bytes(BOM, "42\n"), bytes("42\n"), "identical"))].map((m) => [m.line, m.column]), [[1, 1]]);
    assert.deepEqual(check(bytes([0xff]), bytes([0xfe]), "exact"), { equal: true }, "both decode to U+FFFD");
    assert.equal(mismatch(check(bytes("a", [0xff]), bytes("a", [0xfe]), "identical")).column, 2);
  });
  it("the column counts bytes within the line; excerpts are the lines from their start, cut at 40 characters", () => {
    const m = mismatch(check("x\néa", "x\néb", "identical"));
    assert.deepEqual([m.line, m.column, m.expected, m.actual], [2, 3, "éb", "éa"], "é is two bytes");
    const long = "ü".repeat(50);
    const cut = mismatch(check(`${long}1`, `${long}2`, "identical"));
    assert.deepEqual([cut.column, cut.expected], [101, `${"ü".repeat(40)}…`]);
  });
  it("text arguments are compared as their UTF-8", () => {
    assert.deepEqual(check("é", bytes([0xc3, 0xa9]), "identical"), { equal: true });
  });
  it("linear: 1 MiB equal, and different only in the last byte", () => {
    const many = "12345 67890\n".repeat(87_382);
    assert.deepEqual(check(many, many, "identical"), { equal: true });
    assert.equal(mismatch(check(`${many}1`, `${many}2`, "identical")).line, 87_383);
  });
});

describe("unordered", () => {
  it("the same lines in any order, each as often; line ends as lines trims them", () => {
    assert.deepEqual(check("b\na \r\nc\n\n\n", "a\nb\nc", "unordered"), { equal: true });
    assert.deepEqual(check("1\n2\n1\n", "1\n1\n2\n", "unordered"), { equal: true });
    assert.deepEqual(check("", "\n\n", "unordered"), { equal: true });
  });
  it("names an extra line of the output, first in output order", () => {
    assert.deepEqual(mismatch(check("a\nz\nb\n", "b\na\nc\n", "unordered")), {
      line: 2, expected: "(not expected)", actual: "z",
      message: "wrong answer (unordered): line 2 of the output is not among the expected lines (or appears more often than expected)",
    });
    assert.equal(mismatch(check("1\n1\n1\n", "1\n1\n", "unordered")).line, 3, "a line once too often is extra");
    assert.equal(mismatch(check(" a\n", "a\n", "unordered")).actual, " a", "leading blanks count");
  });
  it("names a missing expected line, first in expected order", () => {
    assert.deepEqual(mismatch(check("b\n", "a\nb\nc\n", "unordered")), {
      line: 1, expected: "a", actual: "(missing)",
      message: "wrong answer (unordered): expected line 1 is missing from the output (or appears fewer times than expected)",
    });
    assert.equal(mismatch(check("1\n", "1\n1\n", "unordered")).line, 1);
    assert.equal(mismatch(check("a\nb\n", "a\n\nb\n", "unordered")).expected, "", "an empty line in the middle is a line");
  });
  it("agrees with sorting both sides on 5 000 random pairs (a hash match never decides alone)", () => {
    const LINES = ["a", "b", "a ", "", "ab", "ba", "1", "1\r", "é", "\t"];
    let seed = 7;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 0x1_0000_0000);
    const lines = (text: string) => {
      const all = text.split("\n").map((line) => line.replace(/[ \t\r]+$/, ""));
      while (all.length > 0 && all.at(-1) === "") all.pop();
      return all.sort().join("\n");
    };
    for (let n = 0; n < 5_000; n++) {
      const pick = () => Array.from({ length: Math.floor(next() * 6) }, () => LINES[Math.floor(next() * LINES.length)]).join("\n");
      const [actual, expected] = [pick(), pick()];
      assert.equal(check(actual, expected, "unordered").equal, lines(actual) === lines(expected), `${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
    }
  });
  it("linear: 87 000 distinct lines reversed, and 500 000 equal lines one short", () => {
    const distinct = Array.from({ length: 87_000 }, (_, i) => `${i} ${i * 7}`);
    assert.deepEqual(check(distinct.join("\n"), [...distinct].reverse().join("\n"), "unordered"), { equal: true });
    const same = "1\n".repeat(500_000);
    assert.equal(mismatch(check(same, `${same}1\n`, "unordered")).actual, "(missing)");
  });
});

describe("float_abs and float_rel", () => {
  it("absolute: |a−e| ≤ ε, however large the values", () => {
    assert.deepEqual(check("0.5 1.5", "0 1", "float_abs", 0.5), { equal: true });
    assert.equal(mismatch(check("1000001", "1000000", "float_abs", 1e-6)).token, 1, "no relative slack");
    assert.ok(!tokensClose("0.5000001", "0", 0.5, "absolute"));
  });
  it("relative: |a−e| ≤ ε·|e|; an expected 0 takes only ±0", () => {
    assert.deepEqual(check("1000001 -2000002", "1000000 -2000000", "float_rel", 1e-6), { equal: true });
    assert.ok(!tokensClose("1000002", "1000000", 1e-6, "relative"));
    assert.ok(!tokensClose("1e-300", "0", 1e-6, "relative"), "no absolute slack at 0");
    assert.ok(tokensClose("-0", "0", 1e-6, "relative") && tokensClose("0.0", "-0", 1e-6, "relative"));
    assert.ok(!tokensClose("0.5", "1", 0.4, "relative") && tokensClose("0.5", "1", 0.5, "relative"), "relative to the expected value");
  });
  it("both: NaN equals only NaN, an infinity only the same one, other tokens only as the same text", () => {
    for (const tolerance of ["absolute", "relative"] as const) {
      assert.ok(tokensClose("nan", "NaN", 1e-6, tolerance));
      assert.ok(!tokensClose("nan", "0", 1, tolerance));
      assert.ok(tokensClose("inf", "Infinity", 1e-6, tolerance));
      assert.ok(!tokensClose("-inf", "inf", 1, tolerance));
      assert.ok(!tokensClose("1e308", "inf", 1, tolerance));
      assert.ok(tokensClose("yes", "yes", 1e-6, tolerance));
      assert.ok(!tokensClose("Yes", "yes", 1, tolerance));
      assert.ok(!tokensClose("0x10", "16", 1, tolerance));
    }
    assert.equal(mismatch(check("1 y", "1 x", "float_rel")).token, 2);
  });
  it("linear: a million tokens and a 100 000-digit token", () => {
    const many = "7.5 ".repeat(1_000_000);
    assert.deepEqual(check(`${many}1.0000001`, `${many}1`, "float_rel"), { equal: true });
    const digits = "1".repeat(100_000);
    assert.equal(mismatch(check(`${digits}x`, digits, "float_abs")).token, 1);
  });
});

describe("tokens_ci", () => {
  it("tokens equal after ASCII case folding; whitespace as tokens reads it", () => {
    assert.deepEqual(check("YES\n  no\tMaybe", "yes No MAYBE\n", "tokens_ci"), { equal: true });
    const m = mismatch(check("Yes\nNO x", "yes no y", "tokens_ci"));
    assert.deepEqual([m.token, m.line, m.expected, m.actual], [3, 2, "y", "x"]);
  });
  it("non-ASCII letters compare as they are: no Unicode case folding", () => {
    assert.equal(check("É", "é", "tokens_ci").equal, false);
    assert.equal(check("STRASSE", "straße", "tokens_ci").equal, false);
    assert.equal(check("İ", "i", "tokens_ci").equal, false);
    assert.deepEqual(check("ÉtÉ", "ÉTÉ", "tokens_ci"), { equal: true }, "the ASCII letters between fold");
    assert.equal(check("[", "{", "tokens_ci").equal, false, "only A-Z fold: not the characters 32 apart");
  });
});

describe("through the worker pool", () => {
  const pool = new CheckPool({ workers: 1 });
  after(() => pool.close());
  it("identical sees the output's bytes; exact the decoded text", async () => {
    const out = bytes(BOM, "42\n");
    assert.equal(((await pool.check({ actual: out, expected: bytes("42\n"), mode: "identical" })) as CheckResult).equal, false);
    assert.equal(((await pool.check({ actual: out, expected: bytes("42\n"), mode: "exact" })) as CheckResult).equal, true);
    assert.equal(((await pool.check({ actual: bytes("b\na\n"), expected: "a\nb", mode: "unordered" })) as CheckResult).equal, true);
  });
});
