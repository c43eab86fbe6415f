// The language vocabulary edge and fleet share: docs/api.md's accepted values and their canonical
// names, read from the language folders (languages/<name>/manifest.ts, listed by the generated
// languages/index.gen.ts). The edge validates requests with it; a node maps them onto its table.
import { MANIFESTS } from "../languages/index.gen.ts";
import type { LanguageManifest } from "../languages/schema.ts";

/** Canonical names in the documented order (each manifest's `order`). */
export const CANONICAL_LANGUAGES: readonly string[] = MANIFESTS.map((manifest) => manifest.name);

const BY_NAME = new Map<string, LanguageManifest>(MANIFESTS.flatMap((m) => [m.name, ...m.aliases].map((name) => [name, m] as const)));

/** The manifest of a canonical name or alias, if any. */
export function languageManifest(value: string): LanguageManifest | undefined {
  return BY_NAME.get(value);
}

/** Canonical name for an accepted value, or null. Case-sensitive, as docs/api.md lists them. */
export function canonicalLanguage(value: string): string | null {
  return BY_NAME.get(value)?.name ?? null;
}

/** Every accepted value, each canonical name followed by its aliases, in the documented order. */
export function acceptedLanguageNames(): string[] {
  return MANIFESTS.flatMap((m) => [m.name, ...m.aliases]);
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
