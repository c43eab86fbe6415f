// A request's custom checker and interactor, checked before anything runs (proto/checker-rules.ts):
// their code and files (their language and version were resolved with the program's, at the
// door), and no built-in compare beside a checker. Each problem is INVALID_ARGUMENT naming the field.
import type { Checker, ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { checkerCodeProblem, checkerCompareProblem, checkerFilesProblem, type JudgeRole } from "../../../proto/checker-rules.ts";
import { mainSourceFileName } from "../../../proto/source-names.ts";
import type { ResolvedRun } from "../languages/resolve.ts";
import { ServiceError, Status } from "./errors.ts";

/** The request's checker and interactor (same rules; a compare only beside an interactor alone). */
export function checkChecker(request: ExecuteRequest, resolved: ResolvedRun): void {
  const { checker, interactor } = request;
  const problem =
    (checker && resolved.checker ? judgeProblem(checker, resolved.checker.language, "checker") ?? checkerCompareProblem(request.check?.compare ?? "") : null) ??
    (interactor && resolved.interactor ? judgeProblem(interactor, resolved.interactor.language, "interactor") : null);
  if (problem !== null) throw new ServiceError(Status.INVALID_ARGUMENT, problem);
}

/** `language`: the judge's, already resolved (canonical) at the node's door. */
function judgeProblem(judge: Checker, language: string, role: JudgeRole): string | null {
  const mainFileName = mainSourceFileName(language, judge.code) ?? undefined;
  const files = judge.files.map((file) => ({ path: file.path, size: file.content.byteLength }));
  return checkerCodeProblem(judge.code, role) ?? checkerFilesProblem(files, mainFileName, language, role);
}
