// The submission's `checker` and `interactor` (docs/api.md): their shape, and the checks zod cannot
// make (language, code size, files, no compare beside a checker); their run limits come from the
// key's plan. Every refusal is a 400 naming the field.
import { z } from "zod";
import { checkerCodeProblem, checkerIoNameProblem, type JudgeRole } from "../../../proto/checker-rules.ts";
import { CANONICAL_LANGUAGES, canonicalLanguage } from "../../../proto/languages.ts";
import { languageRefusalBody, unknownLanguage } from "../../../proto/language-errors.ts";
import { mainSourceFileName } from "../../../proto/source-names.ts";
import type { CheckerOptions } from "../contracts/submission.ts";
import { HttpError } from "../lib/http.ts";
import { checkerLimits, type Plan } from "../plans/plan-caps.ts";
import { bad, checkedFiles } from "./request-files.ts";

const encoding = z.enum(["utf8", "base64"]);

export const checkerShape = z.strictObject({
  language: z.string().max(32),
  code: z.string(),
  files: z.array(z.strictObject({ path: z.string().max(1024), content: z.string(), encoding: encoding.optional() })).optional(),
  version: z.string().min(1).max(64).optional(),
});
export type CheckerBody = z.infer<typeof checkerShape>;

/** What the node gets of a checker; `compare`/`float_epsilon` present beside it are refused. */
export function checkerOptions(checker: CheckerBody, judging: { compare?: string; float_epsilon?: number }, plan: Plan): CheckerOptions {
  if (judging.compare !== undefined) throw bad("compare", "compare does not apply with a checker: the checker judges the output");
  if (judging.float_epsilon !== undefined) throw bad("float_epsilon", "float_epsilon does not apply with a checker: the checker judges the output");
  return judgeOptions(checker, "checker", plan);
}

/**
 * What the node gets of an interactor: a checker's shape and plan limits (the node gives it at
 * least the program's wall time). `compare` may judge its output file when no checker does.
 */
export function interactorOptions(interactor: CheckerBody, plan: Plan): CheckerOptions {
  return judgeOptions(interactor, "interactor", plan);
}

function judgeOptions(judge: CheckerBody, role: JudgeRole, plan: Plan): CheckerOptions {
  const language = canonicalLanguage(judge.language);
  if (!language) throw new HttpError(400, languageRefusalBody(unknownLanguage(judge.language, CANONICAL_LANGUAGES, role)));
  const code = checkerCodeProblem(judge.code, role);
  if (code) throw bad(`${role}.code`, code);
  const ioName = (path: string) => checkerIoNameProblem(path, role);
  const files = judge.files ? checkedFiles(judge.files, `${role}.files`, language, mainSourceFileName(language, judge.code), ioName) : undefined;
  const limits = checkerLimits(plan);
  return {
    language,
    code: judge.code,
    ...(judge.version !== undefined ? { version: judge.version } : {}),
    ...(files ? { files } : {}),
    limits: { wall_time_ms: limits.wall_time_ms, cpu_time_ms: limits.cpu_time_ms, memory_bytes: limits.memory_mb * 1024 * 1024 },
  };
}
