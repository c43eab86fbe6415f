import { execFileSync } from "node:child_process";
import type { LanguageInfo } from "../engine.ts";
import { LANGUAGES, type LanguageSpec } from "./table.ts";

/** Detects at start-up which toolchains are present; only those languages are offered. */
export function detectToolchains(table: LanguageSpec[] = LANGUAGES): Map<string, LanguageInfo> {
  const available = new Map<string, LanguageInfo>();
  for (const language of table) {
    const [command, ...args] = language.detect.argv;
    if (!command) continue;
    try {
      const output = execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 });
      const version = language.detect.version(output);
      if (version) available.set(language.name, { name: language.name, version });
    } catch {
      // not installed: not offered
    }
  }
  return available;
}
