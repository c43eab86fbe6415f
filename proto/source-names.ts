// The file name a submission's main source gets in the sandbox: fixed for most languages, Java's
// after its classes; and the names a language's compile writes beside it. Both sides use them: a
// node names the files so; the edge refuses an extra file of such a name before anything is
// stored, and a node refuses it as a request error (submission-rules.ts).
import { loadedByNameProblem } from "./compile-inputs.ts";
import type { SourcePlan } from "../languages/schema.ts";
import { languageManifest } from "./languages.ts";

export { MAX_FILE_NAME_BYTES } from "./limits.ts";

/**
 * Why an extra file may not have this path: the main source's name, a name the language's compile
 * writes, a path that would make one of them a directory, or a file the compiler would load by its
 * name alone (compile-inputs.ts). Null when none (`language` canonical).
 */
export function takenNameProblem(path: string, language: string, mainFileName: string | null | undefined): string | null {
  const taken: [string, string][] = mainFileName ? [[mainFileName, "the main source's own file name"]] : [];
  const outputs = languageManifest(language)?.compile;
  if (outputs) {
    taken.push([outputs.artifact, "the name of the compiled program"]);
    for (const name of outputs.scratch) taken.push([name, `a name the ${language} compile itself uses in the work dir`]);
  }
  for (const [name, what] of taken) {
    if (path === name) return `${JSON.stringify(name)} is ${what}; choose another name`;
    if (path.startsWith(`${name}/`)) {
      return `${JSON.stringify(path.slice(0, 80))} would make ${JSON.stringify(name)}, ${what}, a directory; choose another name`;
    }
  }
  return loadedByNameProblem(language, path);
}

/** What a canonical language's main source becomes in /box (its manifest's rule), or null for no language. */
export function mainSourcePlan(language: string, code: string): SourcePlan | null {
  const source = languageManifest(language)?.source;
  if (!source) return null;
  return source.fromCode ? source.fromCode(code) : { fileName: source.fileName };
}

/** The main source's file name for a canonical language, or null for no language. */
export function mainSourceFileName(language: string, code: string): string | null {
  return mainSourcePlan(language, code)?.fileName ?? null;
}

export { javaSourcePlan, javaTokens, type JavaSourcePlan, type JavaToken } from "../languages/java/source-plan.ts";
