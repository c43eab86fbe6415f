// What a submission's source becomes in /box: its file name and what is read from the code itself
// (Java's class names, TypeScript syntax that needs Node's transform mode).
import type { SourcePlan } from "./types.ts";

/** A language whose source file always has the same name. */
export const fixed = (fileName: string) => (): SourcePlan => ({ fileName });

/** A Java identifier as javac reads it: any Unicode letter, `_` or `$` first. */
const JAVA_ID = String.raw`[\p{L}\p{Nl}\p{Sc}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Sc}]*`;
/** Linux file names are at most 255 bytes; javac writes `<Class>.class` (and `<Class>$1.class`…). */
const MAX_FILE_NAME_BYTES = 255;

/**
 * Java: the file is named after the public top-level class (javac requires it), else after the
 * class that runs; the class that runs is the public class with `static void main`, else the first
 * class with one (a main belongs to the nearest type declared before it), in its package if any.
 */
export function javaSource(code: string): SourcePlan {
  const stripped = code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
  const pkg = new RegExp(String.raw`^\s*package\s+(${JAVA_ID}(?:\s*\.\s*${JAVA_ID})*)\s*;`, "mu").exec(stripped)?.[1]?.replace(/\s+/g, "");
  const modifiers = String.raw`(?:(?:final|abstract|sealed|non-sealed|strictfp|static)\s+)*`;
  const declaration = new RegExp(String.raw`(?<![\p{L}\p{Nd}_$])(public\s+)?${modifiers}(?:class|interface|enum|record)\s+(${JAVA_ID})`, "gu");
  const types = [...stripped.matchAll(declaration)].map((m) => ({ name: m[2]!, isPublic: m[1] !== undefined, at: m.index, hasMain: false }));
  for (const main of stripped.matchAll(/\bstatic\s+(?:(?:public|final|synchronized|strictfp)\s+)*void\s+main\s*\(/g)) {
    const owner = types.findLast((type) => type.at < main.index);
    if (owner) owner.hasMain = true;
  }
  const publicType = types.find((type) => type.isPublic)?.name;
  const runs = types.find((type) => type.isPublic && type.hasMain) ?? types.find((type) => type.hasMain);
  const className = publicType ?? runs?.name ?? (types.some((type) => type.name === "Main") ? "Main" : types[0]?.name) ?? "Main";
  const entryClass = runs?.name ?? className;
  const fileName = `${className}.java`;
  const bytes = Buffer.byteLength(`${className}.class`);
  const problem =
    bytes > MAX_FILE_NAME_BYTES
      ? `the class name ${className.slice(0, 40)}… is too long: a class file name may be at most ${MAX_FILE_NAME_BYTES} bytes (this one is ${bytes} bytes in UTF-8); shorten the public class name`
      : undefined;
  return { fileName, entry: pkg ? `${pkg}.${entryClass}` : entryClass, ...(problem ? { problem } : {}) };
}

/**
 * TypeScript: plain type stripping unless the source may use syntax that needs code generation
 * (enum, namespace, parameter properties, `import x = require`, `export =`); then Node's
 * transform mode, which costs ~15 ms more at start-up. A false positive only costs that time.
 */
export function typescriptSource(code: string): SourcePlan {
  const transform = /\b(?:enum|namespace|module)\b|\b(?:public|private|protected|readonly|override)\s+[A-Za-z_$]|\bimport\s+[A-Za-z_$][\w$]*\s*=|\bexport\s*=/.test(code);
  return {
    fileName: "main.ts",
    runFlags: transform ? ["--experimental-transform-types", "--disable-warning=ExperimentalWarning"] : [],
  };
}
