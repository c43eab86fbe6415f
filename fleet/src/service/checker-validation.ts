// A request's custom checker, checked before anything runs (proto/checker-rules.ts): its language
// and version among the node's, its code and files, and no built-in compare beside it. Each
// problem is INVALID_ARGUMENT naming the field.
import type { ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { checkerCodeProblem, checkerCompareProblem, checkerFilesProblem } from "../../../proto/checker-rules.ts";
import { resolveLanguage as resolve } from "../../../proto/languages.ts";
import { resolveVersion as resolveRuntime } from "../../../proto/runtimes.ts";
import type { LanguageInfo } from "../engine.ts";
import { findLanguage } from "../languages/table.ts";
import { ServiceError, Status } from "./errors.ts";

export function checkChecker(request: ExecuteRequest, offered: readonly LanguageInfo[]): void {
  const { checker } = request;
  if (!checker) return;
  const problem = checkerProblem(checker, request.check?.compare ?? "", offered);
  if (problem !== null) throw new ServiceError(Status.INVALID_ARGUMENT, problem);
}

function checkerProblem(checker: NonNullable<ExecuteRequest["checker"]>, compare: string, offered: readonly LanguageInfo[]): string | null {
  const names = [...new Set(offered.map((info) => info.name))];
  const language = resolve(checker.language, names);
  if (language === null) return `checker.language: unsupported language "${checker.language.slice(0, 32)}"; available: ${names.join(", ")}`;
  const runtimes = offered.map((info) => ({ ...info, language: info.name }));
  if (resolveRuntime(runtimes, language, checker.version) === null) {
    const available = runtimes.filter((r) => r.language === language).map((r) => r.version);
    return `checker.version: unknown version "${checker.version.slice(0, 32)}" of ${language}; available: ${available.join(", ")}`;
  }
  const mainFileName = findLanguage(language)?.source(checker.code).fileName;
  return (
    checkerCodeProblem(checker.code) ??
    checkerFilesProblem(checker.files.map((file) => ({ path: file.path, size: file.content.byteLength })), mainFileName, language) ??
    checkerCompareProblem(compare)
  );
}
