// A request's languages resolved once, at the node's door: the program's, its checker's and its
// interactor's, each a canonical name and a listed version of what this node offers. The engine
// takes the resolved run (EngineRequest.resolved); a refusal is proto/language-errors.ts's one
// shape, which the edge sends too.
import { resolveRuntime, type LanguageRefusal, type LanguageRole } from "../../../proto/language-errors.ts";
import type { LanguageInfo } from "./language-info.ts";

/** One language of a run: canonical name and the listed version it runs. */
export interface ResolvedLanguage {
  language: string;
  version: string;
}

export interface ResolvedRun {
  program: ResolvedLanguage;
  checker?: ResolvedLanguage;
  interactor?: ResolvedLanguage;
}

/** What a request names: its language and version, and its checker's and interactor's. */
interface Named {
  language: string;
  version?: string;
}

export class LanguageRefused extends Error {
  readonly refusal: LanguageRefusal;
  constructor(refusal: LanguageRefusal) {
    super(refusal.message);
    this.name = "LanguageRefused";
    this.refusal = refusal;
  }
}

/** The request's run resolved against `offered` (engine.languages()); throws LanguageRefused. */
export function resolveRun(offered: readonly LanguageInfo[], request: Named & { checker?: Named; interactor?: Named }): ResolvedRun {
  const runtimes = offered.map((info) => ({ ...info, language: info.name }));
  const one = (named: Named, role: LanguageRole): ResolvedLanguage => {
    const found = resolveRuntime(runtimes, named.language, named.version ?? "", role);
    if ("refusal" in found) throw new LanguageRefused(found.refusal);
    return { language: found.runtime.language, version: found.runtime.version };
  };
  const program = one(request, "program");
  return {
    program,
    ...(request.checker ? { checker: one(request.checker, "checker") } : {}),
    ...(request.interactor ? { interactor: one(request.interactor, "interactor") } : {}),
  };
}
