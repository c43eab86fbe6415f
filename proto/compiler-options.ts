// Compiler options a request may add, per language: one allow-list both sides check (the edge
// answers 400, a node INVALID_ARGUMENT). Each option is one string; `compilerOptionArgv` splits
// the one spelled with a space ("-C opt-level=2") into the compiler's argv words.

export const MAX_COMPILER_OPTIONS = 32;

const GCC_STANDARDS = ["c89", "c99", "c11", "c17", "c2x", "gnu11", "gnu17", "c++11", "c++14", "c++17", "c++20", "c++23", "gnu++17", "gnu++20"];
const GCC_FIXED = new Set(["-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-Wall", "-Wextra", "-Werror", "-w", "-pedantic", "-lm", "-lpthread", "-pthread"]);
const GCC_DEFINE = /^-D[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.]*)?$/;

const gcc = (option: string): boolean =>
  GCC_FIXED.has(option) || GCC_DEFINE.test(option) || (option.startsWith("-std=") && GCC_STANDARDS.includes(option.slice(5)));

const RUST_EDITION = /^--edition=(2015|2018|2021|2024)$/;
const RUST_OPT_LEVEL = /^-C ?opt-level=[0123sz]$/;
const rust = (option: string): boolean => option === "-O" || RUST_EDITION.test(option) || RUST_OPT_LEVEL.test(option);

const JAVA = new Set(["-Xlint", "-Xlint:all", "-g"]);
const java = (option: string): boolean => JAVA.has(option);

const none = (): boolean => false;

/** Per canonical language: whether one option is allowed. */
export const COMPILER_OPTION_ALLOWED: Readonly<Record<string, (option: string) => boolean>> = {
  c: gcc,
  cpp: gcc,
  rust,
  java,
  go: none,
  typescript: none,
  python: none,
  javascript: none,
};

/** The options the language does not allow (all of them for an unknown language), in order. */
export function disallowedCompilerOptions(language: string, options: readonly string[]): string[] {
  const allowed = COMPILER_OPTION_ALLOWED[language] ?? none;
  return options.filter((option) => !allowed(option));
}

/** One allowed option as compiler argv words. */
export function compilerOptionArgv(option: string): string[] {
  return option.startsWith("-C ") ? ["-C", option.slice(3)] : [option];
}

/** Why a list of options is refused, in words naming the field; null when it is fine. */
export function compilerOptionsProblem(language: string, options: readonly string[]): string | null {
  if (options.length > MAX_COMPILER_OPTIONS) return `compiler_options has ${options.length} entries; at most ${MAX_COMPILER_OPTIONS} are allowed`;
  const refused = disallowedCompilerOptions(language, options);
  if (refused.length === 0) return null;
  const shown = refused.slice(0, 3).map((option) => JSON.stringify(option.slice(0, 64))).join(", ");
  return `compiler_options: ${shown} not allowed for ${language} (see docs/languages.md for the allow-list)`;
}
