// Runtimes: the versions of each language the fleet offers (GET /api/runtimes) and the one rule
// that turns a request's `version` into a listed version. Both sides use it: the edge answers an
// unknown version with a 400, a node refuses it with INVALID_ARGUMENT.

export interface Runtime {
  /** Canonical language name. */
  language: string;
  /** The version a request names, e.g. "1.23.4". */
  version: string;
  /** Other accepted names: a short form ("1.23"), the toolchain's own text ("go1.23.4"). */
  aliases: string[];
  /** The version a request without `version` gets. */
  default: boolean;
  compiled: boolean;
  /** Libraries importable without network. */
  libraries: string[];
}

/**
 * The runtime a request gets: `requested` matched against versions, then aliases; the default
 * one when `requested` is empty. null when no listed runtime of the language matches.
 */
export function resolveVersion(runtimes: readonly Runtime[], language: string, requested = ""): Runtime | null {
  const candidates = runtimes.filter((r) => r.language === language);
  if (requested === "") return candidates.find((r) => r.default) ?? candidates[0] ?? null;
  return candidates.find((r) => r.version === requested) ?? candidates.find((r) => r.aliases.includes(requested)) ?? null;
}

/** One entry per (language, version), in language order then as first seen; default if any node says so. */
export function mergeRuntimes(lists: Iterable<readonly Runtime[]>, languageOrder: readonly string[]): Runtime[] {
  const byKey = new Map<string, Runtime>();
  for (const list of lists) {
    for (const r of list) {
      const key = `${r.language}\0${r.version}`;
      const known = byKey.get(key);
      if (!known) byKey.set(key, { ...r, aliases: [...r.aliases], libraries: [...r.libraries] });
      else {
        known.default ||= r.default;
        for (const a of r.aliases) if (!known.aliases.includes(a)) known.aliases.push(a);
        for (const l of r.libraries) if (!known.libraries.includes(l)) known.libraries.push(l);
      }
    }
  }
  const rank = (l: string) => {
    const i = languageOrder.indexOf(l);
    return i < 0 ? languageOrder.length : i;
  };
  return [...byKey.values()].sort((a, b) => rank(a.language) - rank(b.language));
}
