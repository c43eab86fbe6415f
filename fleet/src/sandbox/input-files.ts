// The names of files placed into /box: relative paths the launcher can create without a lookup
// that a hostile name could steer (no "..", no absolute path, no name twice, no file where
// another file needs a directory).
//
// The public API is stricter (segments of [A-Za-z0-9._-] in the files a request adds, checked
// before a request reaches the sandbox); the sandbox accepts every name its launcher can create
// safely, because the language layer names sources after the program (Java's `public class 你好`
// is 你好.java, `class $Dollar_1` is $Dollar_1.java).
import type { InputFile } from "./run-spec.ts";

export const MAX_INPUT_FILE_DEPTH = 8;
/**
 * What the launcher refuses in a name (fleet/launcher valid_name): whitespace and control
 * characters (they would break its status lines), `:` (its argument separator), `/` (a separator
 * here), and a lone UTF-16 surrogate (no UTF-8 encoding: it would silently become U+FFFD).
 */
const UNSAFE_CHARACTER = /[\s\p{Cc}:\/]|\p{Cs}/u;
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
    const unsafe = UNSAFE_CHARACTER.exec(segment);
    if (unsafe) return `segment ${JSON.stringify(segment)} has a character not allowed in a file name (${JSON.stringify(unsafe[0])})`;
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `segment longer than ${MAX_SEGMENT_BYTES} bytes`;
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
