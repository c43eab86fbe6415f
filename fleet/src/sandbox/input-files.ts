// The names of files placed into /box: relative paths the launcher can create without a lookup
// that a hostile name could steer (no "..", no absolute path, no name twice, no file where
// another file needs a directory).
import type { InputFile } from "./types.ts";

export const MAX_INPUT_FILE_DEPTH = 8;
const SEGMENT = /^[A-Za-z0-9._-]+$/;
/** NAME_MAX of the work dir's filesystem. */
const MAX_SEGMENT_BYTES = 255;

export class InputFileNameError extends Error {
  constructor(name: unknown, problem: string) {
    super(`input file name ${JSON.stringify(name)}: ${problem}`);
    this.name = "InputFileNameError";
  }
}

/** Why `name` is not a usable relative path inside /box, or undefined when it is. */
export function inputFileNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name.length === 0) return "must be a non-empty string";
  if (name.startsWith("/")) return "must be relative to /box (no leading /)";
  const segments = name.split("/");
  if (segments.length > MAX_INPUT_FILE_DEPTH) return `more than ${MAX_INPUT_FILE_DEPTH} levels`;
  for (const segment of segments) {
    if (segment === "") return "empty path segment (// or a trailing /)";
    if (segment === "." || segment === "..") return `"${segment}" segment`;
    if (!SEGMENT.test(segment)) return `segment "${segment}" has characters outside [A-Za-z0-9._-]`;
    if (segment.length > MAX_SEGMENT_BYTES) return `segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

/** Throws InputFileNameError for the first bad, repeated or conflicting name. */
export function checkInputFiles(files: readonly InputFile[]): void {
  const names = new Set<string>();
  for (const file of files) {
    const problem = inputFileNameProblem(file.name);
    if (problem) throw new InputFileNameError(file.name, problem);
    if (names.has(file.name)) throw new InputFileNameError(file.name, "given twice");
    names.add(file.name);
  }
  for (const name of names) {
    const segments = name.split("/");
    for (let depth = 1; depth < segments.length; depth++) {
      const directory = segments.slice(0, depth).join("/");
      if (names.has(directory)) throw new InputFileNameError(directory, `is a file, but "${name}" needs it to be a directory`);
    }
  }
}
