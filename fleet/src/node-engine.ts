import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Engine, EngineChecker, EngineHealth, EngineOptions, ExecuteOutcome, EngineRequest, LanguageInfo } from "./engine.ts";
import { CheckPool } from "./judge/compare/check-pool.ts";
import { CompileCache } from "./languages/cache.ts";
import { grade } from "./judge/grader.ts";
import { findLanguage, LANGUAGES } from "./languages/table.ts";
import { detectToolchains, selectVersion } from "./languages/toolchains.ts";
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
  /** A language (the program's or its checker's) and the version asked for, else the error to throw. */
  const resolve = (requested: string, version = "") => {
    const language = findLanguage(requested, LANGUAGES);
    const detected = language && toolchains.get(language.name);
    if (!language || !detected) throw new UnsupportedLanguageError(requested, [...toolchains.keys()]);
    const selected = selectVersion(detected, version);
    if (!selected) throw new UnknownVersionError(language.name, version, detected.versions.map((v) => v.info.version));
    return { language, selected };
  };
  return {
    slots,
    queue: sandbox.queue,
    languages(): LanguageInfo[] {
      return [...toolchains.values()].flatMap((detected) => detected.versions.map((version) => version.info));
    },
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
      const { language, selected } = resolve(request.language, request.version);
      const target = (judge: EngineChecker | undefined) => {
        const found = judge ? resolve(judge.language, judge.version) : undefined;
        return found ? { language: found.language, toolchain: found.selected.toolchain } : undefined;
      };
      const [checker, interactor] = [target(request.checker), target(request.interactor)];
      const judges = { ...(checker ? { checker } : {}), ...(interactor ? { interactor } : {}) };
      const program = { language, toolchain: selected.toolchain };
      const outcome = await grade({ sandbox, program, judges, cache: compileCache, checks, request, signal });
      return { ...outcome, version: selected.info.version };
    },
    async close() {
      for (const task of upkeep) task.stop();
      await Promise.all([sandbox.close(), checks.close()]);
    },
  };
}

export class UnsupportedLanguageError extends Error {
  readonly available: string[];
  constructor(language: string, available: string[]) {
    super(`unsupported language "${language}"; available: ${available.join(", ")}`);
    this.name = "UnsupportedLanguageError";
    this.available = available;
  }
}

export class UnknownVersionError extends Error {
  readonly available: string[];
  constructor(language: string, version: string, available: string[]) {
    super(`unknown version "${version}" of ${language}; available: ${available.join(", ")}`);
    this.name = "UnknownVersionError";
    this.available = available;
  }
}
