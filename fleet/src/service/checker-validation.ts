// A request's custom checker and interactor, checked before anything runs (proto/checker-rules.ts):
// language and version among the node's, code and files, and no built-in compare beside a checker. Each
// problem is INVALID_ARGUMENT naming the field.
import type { Checker, ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { checkerCodeProblem, checkerCompareProblem, checkerFilesProblem, type JudgeRole } from "../../../proto/checker-rules.ts";
import { resolveLanguage as resolve } from "../../../proto/languages.ts";
import { resolveVersion as resolveRuntime } from "../../../proto/runtimes.ts";
import type { LanguageInfo } from "../engine.ts";
import { findLanguage } from "../languages/table.ts";
import { ServiceError, Status } from "./errors.ts";

/** The request's checker and interactor (same rules; a compare only beside an interactor alone). */
export function checkChecker(request: ExecuteRequest, offered: readonly LanguageInfo[]): void {
  const { checker, interactor } = request;
  const problem =
    (checker ? judgeProblem(checker, "checker", offered) ?? checkerCompareProblem(request.check?.compare ?? "") : null) ??
    (interactor ? judgeProblem(interactor, "interactor", offered) : null);
  if (problem !== null) throw new ServiceError(Status.INVALID_ARGUMENT, problem);
}

function judgeProblem(judge: Checker, role: JudgeRole, offered: readonly LanguageInfo[]): string | null {
  const names = [...new Set(offered.map((info) => info.name))];
  const language = resolve(judge.language, names);
  if (language === null) return `${role}.language: unsupported language "${judge.language.slice(0, 32)}"; available: ${names.join(", ")}`;
  const runtimes = offered.map((info) => ({ ...info, language: info.name }));
  if (resolveRuntime(runtimes, language, judge.version) === null) {
    const available = runtimes.filter((r) => r.language === language).map((r) => r.version);
    return `${role}.version: unknown version "${judge.version.slice(0, 32)}" of ${language}; available: ${available.join(", ")}`;
  }
  const mainFileName = findLanguage(language)?.source(judge.code).fileName;
  const files = judge.files.map((file) => ({ path: file.path, size: file.content.byteLength }));
  return checkerCodeProblem(judge.code, role) ?? checkerFilesProblem(files, mainFileName, language, role);
}
