// What a testlib-style checker's run means for the program's run (docs/languages.md, "Custom
// checkers"): its exit code is the verdict, its stderr the message. A checker that fails (exit 3,
// a crash, a limit, no verdict) is its own failure: WA, cause `checker_failed`, actor `checker`:
// the output was not shown correct, and neither the program nor the platform is blamed.
import type { JudgeRole } from "../../../../proto/checker-rules.ts";
import type { CheckerEvidence, ExecutionRecord } from "../../../../proto/record.ts";

/** The part of the checker's stderr that becomes the test's message. */
export const CHECKER_MESSAGE_BYTES = 4096;

/** testlib's exit codes (testlib.h: OK, WA, PE, FAIL, DIRT, POINTS, UNEXPECTED_EOF). */
const WRONG_ANSWER = 1;
const PRESENTATION_ERROR = new Set([2, 4, 8]);
const FAIL = 3;
const POINTS = 7;

/** testlib's `quitp` writes `points <value> <message>` to stderr. */
const POINTS_LINE = /^\s*points\s+([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/;

/** The first CHECKER_MESSAGE_BYTES of the checker's stderr, as text without trailing blanks. */
export function checkerMessage(stderr: Uint8Array): string {
  return new TextDecoder().decode(stderr.subarray(0, CHECKER_MESSAGE_BYTES)).trimEnd();
}

/** The points of a testlib `quitp` message, or null when it names none. */
export function checkerPoints(message: string): number | null {
  const match = POINTS_LINE.exec(message);
  const points = match ? Number(match[1]) : NaN;
  return Number.isFinite(points) ? points : null;
}

/**
 * The program's run as the checker judged it; `program` is a run the kernel judged AC. An
 * interactor's exit code means the same (`role`: whose evidence and failure it is).
 */
export function checkerVerdict(program: ExecutionRecord, checker: ExecutionRecord, stderr: Uint8Array, role: JudgeRole = "checker"): ExecutionRecord {
  const message = checkerMessage(stderr);
  const evidence = (points: number | null = null): CheckerEvidence => ({
    exit_code: checker.exit_code, cause: checker.evidence.verdict_cause, message, points,
  });
  // The platform failed to run the checker (isolation, cancelled): the platform's verdict, not the checker's.
  if (checker.verdict === "IE") {
    const message = `the ${role} could not be run: ${checker.error_message ?? "internal error"}`;
    return { ...program, verdict: "IE", error_message: message, evidence: { ...checker.evidence, [role]: evidence() } };
  }
  if (checker.verdict === "AC") return { ...program, evidence: { ...program.evidence, [role]: evidence() } };
  const code = checker.evidence.verdict_cause === "nonzero_exit" ? checker.exit_code : null;
  if (code === WRONG_ANSWER) return judged(program, "wrong_answer", message || "wrong answer", evidence(), role);
  if (code !== null && PRESENTATION_ERROR.has(code)) return judged(program, "presentation_error", message || "wrong output format", evidence(), role);
  if (code === POINTS) {
    const points = checkerPoints(message);
    if (points !== null) return judged(program, "partial", message, evidence(points), role);
    return checkerFailed(program, `the ${role} exited with 7 (points) but printed no points`, evidence(), role);
  }
  const why =
    code === FAIL
      ? `the ${role} failed (exit code 3)`
      : code !== null
        ? `the ${role} exited with ${code}, which is not a ${role}'s verdict`
        : `the ${role} did not finish: ${checker.error_message ?? checker.evidence.verdict_cause}`;
  return checkerFailed(program, why, evidence(), role);
}

/** The checker (interactor) could not judge the run (it failed, crashed, hit a limit, or did not compile). */
export function checkerFailed(program: ExecutionRecord, why: string, checker: CheckerEvidence, role: JudgeRole = "checker"): ExecutionRecord {
  const message = checker.message ? `${why}: ${checker.message}` : why;
  return judged(program, `${role}_failed`, `${message}; the output was not judged correct`, checker, role);
}

function judged(program: ExecutionRecord, cause: string, message: string, checker: CheckerEvidence, role: JudgeRole): ExecutionRecord {
  return {
    ...program,
    verdict: "WA",
    error_message: message,
    evidence: { ...program.evidence, verdict_cause: cause, verdict_actor: role, [role]: checker },
  };
}
