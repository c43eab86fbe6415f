// The submission's `checker` (docs/api.md): its shape, and the checks zod cannot make (language,
// code size, files, no compare beside it); its run limits come from the key's plan. Every refusal
// is a 400 naming the field.
import { z } from "zod";
import { checkerCodeProblem, checkerIoNameProblem } from "../../../proto/checker-rules.ts";
import { canonicalLanguage } from "../../../proto/languages.ts";
import { mainSourceFileName } from "../../../proto/source-names.ts";
import type { CheckerOptions } from "../contracts/submission.ts";
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
  const language = canonicalLanguage(checker.language);
  if (!language) throw bad("checker.language", `checker.language '${checker.language}' is not a language of the API (see GET /api/languages)`);
  const code = checkerCodeProblem(checker.code);
  if (code) throw bad("checker.code", code);
  const files = checker.files ? checkedFiles(checker.files, "checker.files", language, mainSourceFileName(language, checker.code), checkerIoNameProblem) : undefined;
  const limits = checkerLimits(plan);
  return {
    language,
    code: checker.code,
    ...(checker.version !== undefined ? { version: checker.version } : {}),
    ...(files ? { files } : {}),
    limits: { wall_time_ms: limits.wall_time_ms, cpu_time_ms: limits.cpu_time_ms, memory_bytes: limits.memory_mb * 1024 * 1024 },
  };
}
