// Rules for the parts of a submission beside its code (files, args, tests, checks) that both sides
// enforce: the edge answers 400, a node INVALID_ARGUMENT. Pure; each returns the problem in words
// naming the field, or null.
import { MAX_FILE_NAME_BYTES, takenNameProblem } from "./source-names.ts";

export const MAX_FILES = 32;
export const MAX_FILES_TOTAL_BYTES = 1024 * 1024;
export const MAX_FILE_PATH_DEPTH = 8;
export const MAX_ARGS = 64;
export const MAX_ARG_BYTES = 4096;
/** A node's own cap on tests per request (a plan may allow fewer, never more). */
export const MAX_TESTS = 100;
/** A node's own wall-time budget for a request's tests, counted as they run (a plan may narrow it). */
export const TESTS_WALL_BUDGET_MS = 120_000;
/**
 * The output checkers (fleet/src/judge/compare/checker.ts; docs/languages.md, "Judging"). Later rules are
 * appended: a request's rule names never change meaning.
 */
export const COMPARE_MODES = ["exact", "lines", "tokens", "float", "identical", "unordered", "float_abs", "float_rel", "tokens_ci"] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];
/** The rules `float_epsilon` applies to. */
export const FLOAT_MODES = ["float", "float_abs", "float_rel"] as const;

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * A relative path of [A-Za-z0-9._-] segments, no "." or "..", at most MAX_FILE_PATH_DEPTH levels,
 * each segment at most MAX_FILE_NAME_BYTES (Linux's limit on one name).
 */
export function filePathProblem(path: string): string | null {
  const shown = JSON.stringify(path.slice(0, 80));
  if (path === "") return "files: a path is empty";
  if (path.startsWith("/")) return `files: ${shown} is absolute; paths are relative to the program's directory`;
  const segments = path.split("/");
  if (segments.length > MAX_FILE_PATH_DEPTH) return `files: ${shown} is deeper than ${MAX_FILE_PATH_DEPTH} levels`;
  for (const segment of segments) {
    if (segment === "." || segment === "..") return `files: ${shown} has a "${segment}" segment`;
    const bytes = new TextEncoder().encode(segment).length;
    if (bytes > MAX_FILE_NAME_BYTES) return `files: ${shown} has a segment of ${bytes} bytes; at most ${MAX_FILE_NAME_BYTES} are allowed`;
    if (!SEGMENT.test(segment)) return `files: ${shown} has a segment outside [A-Za-z0-9._-] (or an empty one)`;
  }
  return null;
}

/**
 * Every path valid, none repeated, none the main source's or one the language's compile writes
 * (source-names.ts), within the count and total size caps.
 */
export function filesProblem(files: readonly { path: string; size: number }[], mainFileName?: string, language = ""): string | null {
  if (files.length > MAX_FILES) return `files has ${files.length} entries; at most ${MAX_FILES} are allowed`;
  const seen = new Set<string>();
  let total = 0;
  for (const file of files) {
    const problem = filePathProblem(file.path);
    if (problem) return problem;
    if (seen.has(file.path)) return `files: ${JSON.stringify(file.path)} appears twice`;
    const taken = takenNameProblem(file.path, language, mainFileName);
    if (taken) return `files: ${taken}`;
    seen.add(file.path);
    total += file.size;
  }
  if (total > MAX_FILES_TOTAL_BYTES) return `files total ${total} bytes; at most ${MAX_FILES_TOTAL_BYTES} are allowed`;
  return null;
}

/** A path that is a directory of another ("lib" and "lib/x.h") cannot both be files. */
export function fileTreeProblem(paths: readonly string[]): string | null {
  const set = new Set(paths);
  for (const path of paths) {
    const segments = path.split("/");
    for (let depth = 1; depth < segments.length; depth++) {
      const parent = segments.slice(0, depth).join("/");
      if (set.has(parent)) return `files: ${JSON.stringify(parent)} is both a file and the directory of ${JSON.stringify(path)}`;
    }
  }
  return null;
}

export function argsProblem(args: readonly string[]): string | null {
  if (args.length > MAX_ARGS) return `args has ${args.length} entries; at most ${MAX_ARGS} are allowed`;
  for (const [index, arg] of args.entries()) {
    if (arg.includes("\0")) return `args[${index}] contains a NUL character`;
    if (new TextEncoder().encode(arg).length > MAX_ARG_BYTES) return `args[${index}] is longer than ${MAX_ARG_BYTES} bytes`;
  }
  return null;
}

export function compareProblem(compare: string, floatEpsilon: number): string | null {
  if (compare !== "" && !(COMPARE_MODES as readonly string[]).includes(compare)) {
    return `check.compare ${JSON.stringify(compare.slice(0, 32))} is not one of ${COMPARE_MODES.join(", ")}`;
  }
  // 0 means the default; anything else must be in (0, 1].
  if (floatEpsilon !== 0 && !(floatEpsilon > 0 && floatEpsilon <= 1)) return `check.float_epsilon ${floatEpsilon} is outside (0, 1]`;
  return null;
}

/** A test's points (docs/languages.md, "Scoring"): a finite number, 0 or more. */
export function pointsProblem(points: number | undefined, index: number): string | null {
  if (points === undefined || (Number.isFinite(points) && points >= 0)) return null;
  return `tests[${index}].points ${points} is not a number of 0 or more`;
}
