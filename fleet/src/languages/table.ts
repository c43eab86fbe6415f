// The language table: one entry per language folder (languages/<name>/), its manifest joined with
// its node part (fleet.ts), both listed by the generated index modules. Every command (compilers
// included) runs inside the sandbox; `detect` runs on the host at start-up to decide whether the
// language is offered and where its toolchain lives. Flags and their reasons: docs/languages.md.
import { RUNNERS } from "../../../languages/fleet.gen.ts";
import { MANIFESTS } from "../../../languages/index.gen.ts";
import type { LanguageManifest } from "../../../languages/schema.ts";
import { canonicalLanguage } from "../../../proto/languages.ts";
import type { LanguageRunner, LanguageSpec } from "../../../languages/kit/language-spec.ts";

// What this module exported before the split, still importable from here.
export { ARTIFACT_DIR, type CommandContext, type LanguageSpec, type SourcePlan, type Toolchain } from "../../../languages/kit/language-spec.ts";
export { compareVersionsDescending } from "../../../languages/kit/detect/host.ts";
export { TOOLCHAINS_DIR } from "../../../languages/kit/detect/node.ts";
export { javaSourcePlan as javaSource } from "../../../languages/java/source-plan.ts";

/** A language folder's manifest and node part as one table entry. */
export function languageSpec(manifest: LanguageManifest, runner: LanguageRunner): LanguageSpec {
  const { source } = manifest;
  if ((manifest.compile === undefined) !== (runner.compile === undefined)) {
    throw new Error(`languages/${manifest.name}: the manifest's compile and fleet.ts's compile must both be there or both be absent`);
  }
  return {
    name: manifest.name,
    manifest,
    detect: runner.detect,
    source: source.fromCode ?? (() => ({ fileName: source.fileName })),
    ...(runner.compile && manifest.compile
      ? { compile: { ...runner.compile, artifact: manifest.compile.artifact, ...(manifest.compile.scratch.length > 0 ? { scratch: manifest.compile.scratch } : {}) } }
      : {}),
    run: runner.run,
    ...(runner.maintain ? { maintain: runner.maintain } : {}),
  };
}

/** The table of these manifests, each with its folder's runner. */
export function languageTable(manifests: readonly LanguageManifest[], runners: Readonly<Record<string, LanguageRunner>>): LanguageSpec[] {
  return manifests.map((manifest) => {
    const runner = runners[manifest.name];
    if (!runner) throw new Error(`languages/${manifest.name} has no fleet.ts in the index: run npm run languages`);
    return languageSpec(manifest, runner);
  });
}

export const LANGUAGES: LanguageSpec[] = languageTable(MANIFESTS, RUNNERS);

/** The table entry for an accepted value of docs/api.md (canonical name or alias), if any. */
export function findLanguage(nameOrAlias: string, table: LanguageSpec[] = LANGUAGES): LanguageSpec | undefined {
  const canonical = canonicalLanguage(nameOrAlias);
  return table.find((language) => language.name === canonical);
}
