// One submission's checks before anything is stored or run: its fields against the key's plan
// (submit/validate.ts), its language, and its `version` against the runtimes the ready nodes offer.
import type { FleetStatus } from "../contracts/fleet.ts";
import { HttpError } from "../lib/http.ts";
import type { Plan } from "../plans/plan-caps.ts";
import { parseSubmit } from "./validate.ts";
import type { SubmitInput } from "./validate.ts";
import { languageRefusalBody, unknownLanguage, unknownVersion, type LanguageRefusal } from "../../../proto/language-errors.ts";
import { resolveVersion } from "../../../proto/runtimes.ts";
import { MAX_EXECUTE_REQUEST_BYTES } from "../../../proto/limits.ts";
import { oversizeFleetRequest } from "./fleet-request-size.ts";

/** The fleet's status, asked at most once however many submissions need it (a batch). */
export type StatusOnce = () => Promise<FleetStatus>;

export function statusOnce(load: () => Promise<FleetStatus>): StatusOnce {
  let status: Promise<FleetStatus> | null = null;
  return () => (status ??= load());
}

/** A 400 of proto/language-errors.ts's one shape: the message as `error`, what is available. */
export function languageRefusal(refusal: LanguageRefusal): HttpError {
  return new HttpError(400, languageRefusalBody(refusal));
}

export function unsupportedLanguage(requested: string, available: string[]): HttpError {
  return languageRefusal(unknownLanguage(requested, available));
}

/** The checked submission with its canonical language; a requested version becomes the listed one it names. */
export async function checkSubmission(body: Record<string, unknown>, plan: Plan, status: StatusOnce): Promise<SubmitInput> {
  const input = parseSubmit(body, plan);
  const language = input.canonical;
  if (!language) throw unsupportedLanguage(input.language, (await status()).languages);
  const requested = input.options?.version;
  if (requested !== undefined) {
    const runtimes = (await status()).runtimes;
    const runtime = resolveVersion(runtimes, language, requested);
    if (!runtime) throw languageRefusal(unknownVersion(language, requested, runtimes.filter((r) => r.language === language).map((r) => r.version)));
    input.options!.version = runtime.version;
    if (input.format) input.format.version = runtime.version;
  }
  for (const role of ["checker", "interactor"] as const) {
    const judge = input.options?.[role];
    if (judge?.version === undefined) continue;
    const runtimes = (await status()).runtimes;
    const runtime = resolveVersion(runtimes, judge.language, judge.version);
    if (!runtime) throw languageRefusal(unknownVersion(judge.language, judge.version, runtimes.filter((r) => r.language === judge.language).map((r) => r.version), role));
    judge.version = runtime.version;
  }
  const oversize = oversizeFleetRequest(language, input.code, input.stdin, input.options);
  if (oversize !== null) {
    throw new HttpError(400, {
      error: "submission too large",
      message: `the submission encodes to ${oversize} bytes for the fleet; at most ${MAX_EXECUTE_REQUEST_BYTES} are allowed (code, stdin, files, tests and expected outputs together)`,
    });
  }
  return { ...input, language };
}
