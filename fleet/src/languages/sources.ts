// What a submission's source becomes in /box: its file name and what is read from the code itself
// (Java's class names).
import { MAIN_SOURCE_FILES, javaSourcePlan } from "../../../proto/source-names.ts";
import type { SourcePlan } from "./language-spec.ts";

/** A language whose source file always has the same name. */
export const fixed = (fileName: string) => (): SourcePlan => ({ fileName });

/** Java: named after its classes (proto/source-names.ts, the rule the edge checks files against too). */
export const javaSource = (code: string): SourcePlan => javaSourcePlan(code);
