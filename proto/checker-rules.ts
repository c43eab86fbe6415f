// Rules of a submission's custom checker that both sides enforce (docs/languages.md, "Custom
// checkers"): the edge answers 400, a node INVALID_ARGUMENT. Pure; each returns the problem in
// words naming the field, or null.
import { MAX_CODE_BYTES } from "./limits.ts";
import { fileTreeProblem, filesProblem } from "./submission-rules.ts";

/** The three files a checker finds in its working directory, in its argv in this order. */
export const CHECKER_IO_FILES = ["input.txt", "output.txt", "answer.txt"] as const;

/** An interactor lives beside the program: at least the program's wall time and this much more, to give its verdict. */
export const INTERACTOR_WALL_MARGIN_MS = 1_000;

/** An interactor's argv: the test's input it reads, the output file it writes (a checker's output.txt). */
export const INTERACTOR_IO_FILES = ["input.txt", "output.txt"] as const;

/** A program that judges the submission's: its own code, files and limits, checked the same way. */
export type JudgeRole = "checker" | "interactor";

const IO_FILES: Record<JudgeRole, readonly string[]> = { checker: CHECKER_IO_FILES, interactor: INTERACTOR_IO_FILES };

/**
 * A checker's run limits when the key's plan sets none; a node never goes above them. A checker
 * reads three files and compares: 5 s of CPU is plenty, and its wall time counts in the tests'
 * budget (edge: submit-schema.ts).
 */
export const CHECKER_LIMIT_DEFAULTS = { wall_time_ms: 5_000, cpu_time_ms: 5_000, memory_mb: 256 } as const;

/** A checker's (an interactor's) file may not take the name of a file it reads or writes, nor make one a directory. */
export function checkerIoNameProblem(path: string, role: JudgeRole = "checker"): string | null {
  for (const name of IO_FILES[role]) {
    if (path === name) return `${JSON.stringify(name)} is the name of a file the ${role} reads or writes (${IO_FILES[role].join(", ")}); choose another name`;
    if (path.startsWith(`${name}/`)) {
      return `${JSON.stringify(path.slice(0, 80))} would make ${JSON.stringify(name)}, a file the ${role} reads or writes, a directory; choose another name`;
    }
  }
  return null;
}

/** The checker's (interactor's) code: not empty, at most MAX_CODE_BYTES of UTF-8 (as a program's). */
export function checkerCodeProblem(code: string, role: JudgeRole = "checker"): string | null {
  if (code.length === 0) return `${role}.code must not be empty`;
  const bytes = new TextEncoder().encode(code).length;
  if (bytes > MAX_CODE_BYTES) return `${role}.code is ${bytes} bytes; at most ${MAX_CODE_BYTES} are allowed`;
  return null;
}

/**
 * The checker's files: the program's files' rules (count, total size, paths, names the checker's
 * language uses) with their own caps, apart from the program's, and not a name the checker reads.
 */
export function checkerFilesProblem(
  files: readonly { path: string; size: number }[], mainFileName: string | undefined, language: string, role: JudgeRole = "checker",
): string | null {
  const named = (problem: string | null) => (problem === null ? null : `${role}.${problem}`);
  for (const file of files) {
    const io = checkerIoNameProblem(file.path, role);
    if (io) return `${role}.files: ${io}`;
  }
  return named(filesProblem(files, mainFileName, language)) ?? named(fileTreeProblem(files.map((file) => file.path)));
}

/** A checker judges the output itself: a built-in compare beside it would say nothing. */
export function checkerCompareProblem(compare: string): string | null {
  return compare === "" ? null : `check.compare ${JSON.stringify(compare.slice(0, 32))} does not apply with a checker: the checker judges the output`;
}
