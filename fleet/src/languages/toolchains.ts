import type { LanguageInfo } from "../engine.ts";
import { LANGUAGES, type LanguageSpec, type Toolchain } from "./table.ts";

export interface DetectedLanguage {
  info: LanguageInfo;
  toolchain: Toolchain;
}

/** Detects at start-up (in parallel) which toolchains are present; only those languages are offered. */
export async function detectToolchains(table: LanguageSpec[] = LANGUAGES): Promise<Map<string, DetectedLanguage>> {
  const detected = await Promise.all(
    table.map(async (language) => {
      try {
        return { language, toolchain: await language.detect() };
      } catch {
        return { language, toolchain: undefined }; // not installed: not offered
      }
    }),
  );
  const available = new Map<string, DetectedLanguage>();
  for (const { language, toolchain } of detected) {
    if (toolchain) available.set(language.name, { info: { name: language.name, version: toolchain.version }, toolchain });
  }
  return available;
}
