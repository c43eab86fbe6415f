// The language vocabulary edge and fleet share: docs/api.md's accepted values and their canonical
// names (docs/api.md). The edge validates requests with it; a node maps them onto its language table.

/**
 * `multi-file`: a program made of scripts (Judge0's language 89): the code is its `run` script and
 * its files may hold a `compile` script; both run with bash (docs/languages.md).
 */
export const CANONICAL_LANGUAGES = ["python", "c", "cpp", "java", "javascript", "typescript", "go", "rust", "multi-file"] as const;

const ALIASES: Record<string, string> = {
  python: "python", py: "python",
  c: "c",
  cpp: "cpp", "c++": "cpp", cxx: "cpp", cc: "cpp",
  java: "java",
  javascript: "javascript", js: "javascript",
  typescript: "typescript", ts: "typescript",
  go: "go",
  rust: "rust", rs: "rust",
  "multi-file": "multi-file",
};

/** Canonical name for an accepted value, or null. Case-sensitive, as docs/api.md lists them. */
export function canonicalLanguage(value: string): string | null {
  return Object.hasOwn(ALIASES, value) ? (ALIASES[value] ?? null) : null;
}

/** Canonical names in the documented order (docs/api.md), keeping only those in `available`. */
export function orderLanguages(available: Iterable<string>): string[] {
  const set = new Set(available);
  return CANONICAL_LANGUAGES.filter((l) => set.has(l));
}

/**
 * The one language check of both sides: the canonical name when `value` is an accepted name and
 * `offered` (canonical names; every accepted language when omitted) includes it, else null.
 */
export function resolveLanguage(value: string, offered?: Iterable<string>): string | null {
  const canonical = canonicalLanguage(value);
  if (canonical === null || offered === undefined) return canonical;
  for (const name of offered) if (name === canonical) return canonical;
  return null;
}
