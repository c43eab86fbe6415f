import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Engine, EngineHealth, EngineOptions, ExecuteOutcome, EngineRequest, LanguageInfo } from "./engine.ts";
import { CheckPool } from "./judge/compare/check-pool.ts";
import { CompileCache } from "./languages/cache.ts";
import { grade } from "./judge/grader.ts";
import { findLanguage, LANGUAGES } from "./languages/table.ts";
import { detectToolchains } from "./languages/toolchains.ts";
import { LanguageRefused, resolveRun, type ResolvedLanguage } from "./languages/resolve.ts";
import { unknownVersion } from "../../proto/language-errors.ts";
import { SECCOMP_POLICY_VERSION } from "./sandbox/policy.ts";
import { REQUIRED_CONTROLS, Sandbox } from "./sandbox/sandbox.ts";

/** The node's engine: the language table and toolchains over one sandbox. */
export async function createEngine(options: Partial<EngineOptions> & Pick<EngineOptions, "stateDir">): Promise<Engine> {
  const slots = options.slots ?? availableParallelism();
  const { stateDir, cgroupParent, launcherPath, cpuPolicy } = options;
  const sandbox = await Sandbox.create({ slots, stateDir, cgroupParent, launcherPath, cpuPolicy });
  const toolchains = await detectToolchains();
  // What a language keeps up while the node runs (Go's read-only std cache looking freshly trimmed).
  const upkeep = LANGUAGES.flatMap((language) => {
    const detected = toolchains.get(language.name);
    return detected && language.maintain ? [language.maintain(detected.versions.map((version) => version.toolchain))] : [];
  });
  const compileCache = new CompileCache(join(options.stateDir, "compile-cache"), options.compileCacheBytes);
  // Output checks run in worker threads, started on the first check (judge/compare/check-pool.ts).
  const checks = new CheckPool();
  const languages = (): LanguageInfo[] => [...toolchains.values()].flatMap((detected) => detected.versions.map((version) => version.info));
  /** The table entry and toolchain of a resolved language (a canonical name and a listed version). */
  const target = ({ language, version }: ResolvedLanguage) => {
    const spec = findLanguage(language, LANGUAGES);
    const selected = toolchains.get(language)?.versions.find(({ info }) => info.version === version);
    if (!spec || !selected) throw new LanguageRefused(unknownVersion(language, version, languages().filter((l) => l.name === language).map((l) => l.version)));
    return { language: spec, toolchain: selected.toolchain };
  };
  return {
    slots,
    queue: sandbox.queue,
    languages,
    health(): EngineHealth {
      const health = sandbox.health();
      const reasons = [...health.reasons];
      if (toolchains.size === 0) reasons.push("no language toolchain found");
      const ready = health.ready && toolchains.size > 0;
      return {
        ready, reasons, enforcementMode: ready ? "strict" : "none", cgroupVersion: health.cgroupVersion, kernel: health.kernel,
        controls: ready ? [...REQUIRED_CONTROLS] : [], seccompPolicy: SECCOMP_POLICY_VERSION, cpuMode: health.cpuMode,
      };
    },
    async execute(request: EngineRequest, signal?: AbortSignal): Promise<ExecuteOutcome> {
      const resolved = request.resolved ?? resolveRun(languages(), request);
      const judges = {
        ...(resolved.checker ? { checker: target(resolved.checker) } : {}),
        ...(resolved.interactor ? { interactor: target(resolved.interactor) } : {}),
      };
      const outcome = await grade({ sandbox, program: target(resolved.program), judges, cache: compileCache, checks, request, signal });
      return { ...outcome, version: resolved.program.version };
    },
    async close() {
      for (const task of upkeep) task.stop();
      await Promise.all([sandbox.close(), checks.close()]);
    },
  };
}
