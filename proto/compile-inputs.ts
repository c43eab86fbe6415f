// Files a compiler would load by their name alone, instead of or beside the sources it was given:
// a request may not send them (docs/languages.md, "What a compile loads"). Shared by both sides,
// like the compiler-option allow-list; pure.

interface LoadedByName {
  suffix: string;
  what: string;
}

const GCC: LoadedByName[] = [
  // gcc reads `x.h.gch` (a file, or a directory of them) in place of `x.h`: a binary image of the
  // compiler's own memory, trusted as such.
  { suffix: ".gch", what: "a precompiled header, which gcc would load in place of the header it names" },
];

/** Per canonical language: the names its compiler would load by themselves. */
const LOADED_BY_NAME: Readonly<Record<string, LoadedByName[]>> = { c: GCC, cpp: GCC };

/** Why one file path may not be sent for this language; null when it may. */
export function loadedByNameProblem(language: string, path: string): string | null {
  const rules = Object.hasOwn(LOADED_BY_NAME, language) ? LOADED_BY_NAME[language]! : [];
  for (const { suffix, what } of rules) {
    if (path.split("/").some((segment) => segment.endsWith(suffix))) {
      return `${JSON.stringify(path.slice(0, 80))} is ${what}; ${language} files may not be named *${suffix}`;
    }
  }
  return null;
}

/** Why one of the request's file paths may not be sent for this language; null when none is refused. */
export function compileInputProblem(language: string, paths: readonly string[]): string | null {
  for (const path of paths) {
    const problem = loadedByNameProblem(language, path);
    if (problem) return `files: ${problem}`;
  }
  return null;
}
