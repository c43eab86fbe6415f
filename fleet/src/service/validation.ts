// Request validation that needs no engine call: submission ids, sizes, language aliases (spec §2.5).
import { resolveLanguage as resolve } from "../../../proto/languages.ts";
import { MAX_CODE_BYTES, MAX_STDIN_BYTES, UUID_PATTERN } from "../../../proto/limits.ts";
import { resolveVersion as resolveRuntime } from "../../../proto/runtimes.ts";
import type { LanguageInfo } from "../engine.ts";
import { ServiceError, Status } from "./errors.ts";

/** Returns the id in canonical (lower-case) form. */
export function parseSubmissionId(value: string): string {
  if (!UUID_PATTERN.test(value)) throw new ServiceError(Status.INVALID_ARGUMENT, "submission_id must be a UUID");
  return value.toLowerCase();
}

/** Resolves an alias to the canonical name, if this node has that language. */
export function resolveLanguage(requested: string, available: readonly string[]): string {
  const canonical = resolve(requested, available);
  if (canonical === null) {
    throw new ServiceError(
      Status.INVALID_ARGUMENT,
      `unsupported language "${requested.slice(0, 32)}"; available: ${available.join(", ")}`,
    );
  }
  return canonical;
}

/** The listed version a request's `version` names ("" = the language's default), else INVALID_ARGUMENT. */
export function resolveVersion(language: string, requested: string, offered: readonly LanguageInfo[]): string {
  const runtimes = offered.map((info) => ({ ...info, language: info.name }));
  const chosen = resolveRuntime(runtimes, language, requested);
  if (chosen === null) {
    const available = runtimes.filter((r) => r.language === language).map((r) => r.version);
    throw new ServiceError(Status.INVALID_ARGUMENT, `unknown version "${requested.slice(0, 32)}" of ${language}; available: ${available.join(", ")}`);
  }
  return chosen.version;
}

export function checkSource(code: string, stdin: string): void {
  if (code.length === 0) throw new ServiceError(Status.INVALID_ARGUMENT, "code must not be empty");
  if (Buffer.byteLength(code, "utf8") > MAX_CODE_BYTES) {
    throw new ServiceError(Status.INVALID_ARGUMENT, `code exceeds ${MAX_CODE_BYTES} bytes`);
  }
  if (Buffer.byteLength(stdin, "utf8") > MAX_STDIN_BYTES) {
    throw new ServiceError(Status.INVALID_ARGUMENT, `stdin exceeds ${MAX_STDIN_BYTES} bytes`);
  }
}
