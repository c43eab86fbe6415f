// The file name a submission's main source gets in the sandbox: fixed for most languages, Java's
// after its classes. Both sides use it: a node names the file so; the edge refuses an extra file
// of that name before anything is stored.

/** Languages whose source file always has the same name. */
export const MAIN_SOURCE_FILES = {
  python: "main.py", c: "main.c", cpp: "main.cpp", javascript: "main.js", typescript: "main.ts", go: "main.go", rust: "main.rs",
} as const;

export interface JavaSourcePlan {
  fileName: string;
  /** The class that runs, with its package. */
  entry: string;
  /** Why the source cannot be built at all, in words for the user. */
  problem?: string;
}

/** A Java identifier as javac reads it: any Unicode letter, `_` or `$` first. */
const JAVA_ID = String.raw`[\p{L}\p{Nl}\p{Sc}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Sc}]*`;
/** Linux file names are at most 255 bytes; javac writes `<Class>.class` (and `<Class>$1.class`…). */
const MAX_FILE_NAME_BYTES = 255;

/**
 * Java: the file is named after the public top-level class (javac requires it), else after the
 * class that runs; the class that runs is the public class with `static void main`, else the first
 * class with one (a main belongs to the nearest type declared before it), in its package if any.
 */
export function javaSourcePlan(code: string): JavaSourcePlan {
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
  const bytes = new TextEncoder().encode(`${className}.class`).length;
  const problem =
    bytes > MAX_FILE_NAME_BYTES
      ? `the class name ${className.slice(0, 40)}… is too long: a class file name may be at most ${MAX_FILE_NAME_BYTES} bytes (this one is ${bytes} bytes in UTF-8); shorten the public class name`
      : undefined;
  return { fileName, entry: pkg ? `${pkg}.${entryClass}` : entryClass, ...(problem ? { problem } : {}) };
}

/** The main source's file name for a canonical language, or null for a language not listed here. */
export function mainSourceFileName(language: string, code: string): string | null {
  if (language === "java") return javaSourcePlan(code).fileName;
  return Object.hasOwn(MAIN_SOURCE_FILES, language) ? MAIN_SOURCE_FILES[language as keyof typeof MAIN_SOURCE_FILES] : null;
}
