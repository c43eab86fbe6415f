// Scoring (docs/languages.md, "Scoring"): a request is scored when any of its tests has points.
// A test without points is then worth 0; an AC test earns its points, a custom checker's partial
// verdict (exit 7, `points <value>`) earns `value` (absolute, as testlib prints it) clamped to
// [0, points], anything else (and a test not run) earns 0. Pure.
import type { ExecutionRecord } from "../../../proto/record.ts";
import type { Score } from "../engine.ts";

export type { Score };

/** Whether a request's tests are scored: any of them has points. */
export function scored(tests: readonly { points?: number }[]): boolean {
  return tests.some((test) => test.points !== undefined);
}

/** What one judged test earns out of `points`. */
export function testScore(result: ExecutionRecord, points: number): number {
  if (result.verdict === "AC") return points;
  const partial = result.evidence.checker?.points;
  if (result.verdict === "WA" && result.evidence.verdict_cause === "partial" && typeof partial === "number") {
    return Math.min(points, Math.max(0, partial));
  }
  return 0;
}

/** The request's score: the tests run earn theirs; `maxScore` counts every test, run or not. */
export function totalScore(earned: readonly number[], tests: readonly { points?: number }[]): Score {
  return { score: sum(earned), max_score: sum(tests.map((test) => test.points ?? 0)) };
}

/** Rounded to 9 decimals: 0.1 + 0.2 points is 0.3, not 0.30000000000000004. */
function sum(values: readonly number[]): number {
  return Math.round(values.reduce((total, value) => total + value, 0) * 1e9) / 1e9;
}
