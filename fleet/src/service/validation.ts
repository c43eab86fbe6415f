// Request validation that needs no engine call: submission ids, sizes, languages and versions (docs/api.md),
// and the judge fields (files, args, compiler options, tests, checks; proto/submission-rules.ts).
import type { ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { compilerOptionsProblem } from "../../../proto/compiler-options.ts";
import { MAX_CODE_BYTES, MAX_STDIN_BYTES, UUID_PATTERN } from "../../../proto/limits.ts";
import { MAX_TESTS, argsProblem, compareProblem, fileTreeProblem, filesProblem, pointsProblem } from "../../../proto/submission-rules.ts";
import { LanguageRefused, resolveRun, type ResolvedRun } from "../languages/resolve.ts";
import type { LanguageInfo } from "../engine.ts";
import { ServiceError, Status } from "./errors.ts";

/** An expected output longer than the capture cap could never match. */
const MAX_EXPECTED_BYTES = 1024 * 1024;

/** Returns the id in canonical (lower-case) form. */
export function parseSubmissionId(value: string): string {
  if (!UUID_PATTERN.test(value)) throw new ServiceError(Status.INVALID_ARGUMENT, "submission_id must be a UUID");
  return value.toLowerCase();
}

/** The request's languages and versions among the node's (languages/resolve.ts), else INVALID_ARGUMENT with the shared refusal's message. */
export function resolveLanguages(request: ExecuteRequest, offered: readonly LanguageInfo[]): ResolvedRun {
  try {
    return resolveRun(offered, request);
  } catch (error) {
    if (error instanceof LanguageRefused) throw new ServiceError(Status.INVALID_ARGUMENT, error.message);
    throw error;
  }
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

/**
 * The judge fields of a request (files, args, compiler options, tests, check, stdin bytes): each
 * problem is INVALID_ARGUMENT naming the field. `mainFileName` is the main source's file name.
 */
export function checkJudgeFields(request: ExecuteRequest, language: string, mainFileName: string | undefined): void {
  const problem =
    (request.stdinBytes && request.stdinBytes.byteLength > MAX_STDIN_BYTES ? `stdin_bytes exceeds ${MAX_STDIN_BYTES} bytes` : null) ??
    filesProblem(request.files.map((file) => ({ path: file.path, size: file.content.byteLength })), mainFileName, language) ??
    fileTreeProblem(request.files.map((file) => file.path)) ??
    argsProblem(request.args) ??
    compilerOptionsProblem(language, request.compilerOptions) ??
    testsProblem(request) ??
    compareProblem(request.check?.compare ?? "", request.check?.floatEpsilon ?? 0);
  if (problem !== null) throw new ServiceError(Status.INVALID_ARGUMENT, problem);
}

function testsProblem(request: ExecuteRequest): string | null {
  const { tests } = request;
  if (tests.length > MAX_TESTS) return `tests has ${tests.length} entries; at most ${MAX_TESTS} are allowed`;
  if (tests.length > 0 && request.check?.expectedOutput !== undefined) {
    return "check.expected_output is for a run without tests; put each test's expected output in the test";
  }
  for (const [index, test] of tests.entries()) {
    if (test.stdin.byteLength > MAX_STDIN_BYTES) return `tests[${index}].stdin exceeds ${MAX_STDIN_BYTES} bytes`;
    if ((test.expectedOutput?.byteLength ?? 0) > MAX_EXPECTED_BYTES) return `tests[${index}].expected_output exceeds ${MAX_EXPECTED_BYTES} bytes`;
    if (Buffer.byteLength(test.name) > 256) return `tests[${index}].name is longer than 256 bytes`;
    const points = pointsProblem(test.points, index);
    if (points) return points;
  }
  if ((request.check?.expectedOutput?.byteLength ?? 0) > MAX_EXPECTED_BYTES) return `check.expected_output exceeds ${MAX_EXPECTED_BYTES} bytes`;
  return null;
}

/** A live stdin feeds one run: not a test set's, not an interactor's conversation. */
export function checkLiveStdin(request: ExecuteRequest): void {
  if (!request.liveStdin) return;
  if (request.tests.length > 0) throw new ServiceError(Status.INVALID_ARGUMENT, "live_stdin: a live stdin feeds a single run, not tests");
  if (request.interactor) throw new ServiceError(Status.INVALID_ARGUMENT, "live_stdin: the interactor is the program's stdin; not together with a live stdin");
}
