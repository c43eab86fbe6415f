// The language of a source file, from its extension (codecell run FILE without --lang).
import { extname } from "node:path";

export const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = {
  ".py": "python",
  ".c": "c",
  ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp",
  ".java": "java",
  ".js": "javascript", ".mjs": "javascript",
  ".ts": "typescript",
  ".go": "go",
  ".rs": "rust",
};

/** The language for `file`, or undefined when its extension is not one we know. */
export function languageOf(file: string): string | undefined {
  return LANGUAGE_BY_EXTENSION[extname(file).toLowerCase()];
}
