import type { LanguageInfo } from "./language-info.ts";
import { LANGUAGES } from "./table.ts";
import type { LanguageSpec, Toolchain } from "../../../languages/kit/language-spec.ts";

export interface DetectedVersion {
  info: LanguageInfo;
  toolchain: Toolchain;
}

export interface DetectedLanguage extends DetectedVersion {
  /** Every version offered, the default (the one above) first. */
  versions: DetectedVersion[];
}

/**
 * Detects at start-up (all languages in parallel) which toolchains are present; only those
 * languages and versions are offered. Within a language, the first toolchain found is the default;
 * a version found twice is offered once, and an alias that names an earlier version (or is itself
 * a version) is dropped, so every name selects exactly one toolchain.
 */
export async function detectToolchains(table: LanguageSpec[] = LANGUAGES): Promise<Map<string, DetectedLanguage>> {
  const detected = await Promise.all(
    table.map(async (language) => {
      try {
        return { language, toolchains: await language.detect() };
      } catch {
        return { language, toolchains: [] }; // not installed: not offered
      }
    }),
  );
  const available = new Map<string, DetectedLanguage>();
  for (const { language, toolchains } of detected) {
    const versions = distinctVersions(toolchains).map((toolchain, index) => ({
      toolchain,
      info: {
        name: language.name,
        version: toolchain.version,
        aliases: toolchain.aliases,
        default: index === 0,
        compiled: language.compile !== undefined,
        libraries: toolchain.libraries ?? [],
      },
    }));
    if (versions.length > 0) available.set(language.name, { ...versions[0]!, versions });
  }
  return available;
}

function distinctVersions(toolchains: Toolchain[]): Toolchain[] {
  const unique: Toolchain[] = [];
  for (const toolchain of toolchains) {
    if (!unique.some((t) => t.version === toolchain.version)) unique.push(toolchain);
  }
  const versions = new Set(unique.map((t) => t.version));
  const taken = new Set<string>();
  return unique.map((toolchain) => {
    const aliases = [...new Set(toolchain.aliases)].filter((alias) => !versions.has(alias) && !taken.has(alias));
    for (const alias of aliases) taken.add(alias);
    return { ...toolchain, aliases };
  });
}
