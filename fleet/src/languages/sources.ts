// What a submission's source becomes in /box: its file name and what is read from the code itself
// (Java's class names, TypeScript syntax that needs Node's transform mode).
import { MAIN_SOURCE_FILES, javaSourcePlan } from "../../../proto/source-names.ts";
import type { SourcePlan } from "./language-spec.ts";

/** A language whose source file always has the same name. */
export const fixed = (fileName: string) => (): SourcePlan => ({ fileName });

/** Java: named after its classes (proto/source-names.ts, the rule the edge checks files against too). */
export const javaSource = (code: string): SourcePlan => javaSourcePlan(code);

/**
 * TypeScript: plain type stripping unless the source may use syntax that needs code generation
 * (enum, namespace, parameter properties, `import x = require`, `export =`); then Node's
 * transform mode, which costs ~15 ms more at start-up. A false positive only costs that time.
 */
export function typescriptSource(code: string): SourcePlan {
  const transform = /\b(?:enum|namespace|module)\b|\b(?:public|private|protected|readonly|override)\s+[A-Za-z_$]|\bimport\s+[A-Za-z_$][\w$]*\s*=|\bexport\s*=/.test(code);
  return {
    fileName: MAIN_SOURCE_FILES.typescript,
    runFlags: transform ? ["--experimental-transform-types", "--disable-warning=ExperimentalWarning"] : [],
  };
}
