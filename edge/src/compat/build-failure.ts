// A build that failed, as both compatibility layers report it. Our record has two kinds: a compile
// error (verdict_cause compile_error: the compiler's diagnostics in stderr) and a build that
// succeeded but made no program to run (no_executable: a Go package other than main, a Rust
// library crate; the node's reason in error_message). Judge0 and Piston know only the compile
// error, so the second is one too, its output the build's diagnostics and then the reason.
import type { ResultRecord } from "../../../proto/record.ts";

type Built = Pick<ResultRecord, "verdict" | "evidence">;

export const isNoExecutable = (rec: Built): boolean => rec.verdict === "RE" && rec.evidence?.verdict_cause === "no_executable";

/** A compile error or a build with no program: Judge0's status 6, Piston's failed compile stage. */
export function isBuildFailure(rec: Built): boolean {
  return rec.verdict === "RE" && (rec.evidence?.verdict_cause === "compile_error" || rec.evidence?.verdict_cause === "no_executable");
}

/** What a failed build printed, as text, and for no_executable the reason on a line of its own. */
export function buildOutput(rec: Pick<ResultRecord, "verdict" | "evidence" | "error_message">, diagnostics: string): string {
  if (!isNoExecutable(rec) || !rec.error_message) return diagnostics;
  const separator = diagnostics === "" || diagnostics.endsWith("\n") ? "" : "\n";
  return `${diagnostics}${separator}${rec.error_message}\n`;
}
