// An ExecuteRequest as the engine's request: proto defaults (0, "") become "the node's default".
import type { ExecuteRequest, RunLimits } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { EngineChecker, EngineRequest } from "../engine.ts";
import type { CompareMode } from "../../../proto/submission-rules.ts";
import type { Limits } from "../sandbox/run-spec.ts";

/** The request's limits; a zero field is absent (the node's default); the engine only narrows. */
export function requestedLimits(limits: RunLimits | undefined): Partial<Limits> {
  if (!limits) return {};
  const picked: Partial<Limits> = {};
  if (limits.wallTimeMs > 0) picked.wallTimeMs = limits.wallTimeMs;
  if (limits.cpuTimeMs > 0) picked.cpuTimeMs = limits.cpuTimeMs;
  if (limits.memoryBytes > 0) picked.memoryBytes = limits.memoryBytes;
  if (limits.processes > 0) picked.processes = limits.processes;
  if (limits.outputBytes > 0) picked.outputBytes = limits.outputBytes;
  if (limits.fileSizeBytes > 0) picked.fileSizeBytes = limits.fileSizeBytes;
  return picked;
}

function toEngineChecker(checker: NonNullable<ExecuteRequest["checker"]>): EngineChecker {
  return {
    language: checker.language,
    code: checker.code,
    limits: requestedLimits(checker.limits),
    ...(checker.files.length ? { files: checker.files.map((file) => ({ path: file.path, content: file.content })) } : {}),
    ...(checker.version ? { version: checker.version } : {}),
  };
}

export function toEngineRequest(request: ExecuteRequest, language: string): EngineRequest {
  const check = request.check;
  return {
    ...(request.checker ? { checker: toEngineChecker(request.checker) } : {}),
    ...(request.interactor ? { interactor: toEngineChecker(request.interactor) } : {}),
    language,
    code: request.code,
    stdin: request.stdinBytes ?? request.stdin,
    tenantId: request.tenantId,
    limits: requestedLimits(request.limits),
    ...(request.mergeStderr ? { mergeStderr: true } : {}),
    ...(request.compileLimits ? { compileLimits: requestedLimits(request.compileLimits) } : {}),
    ...(request.files.length ? { files: request.files.map((file) => ({ path: file.path, content: file.content })) } : {}),
    ...(request.args.length ? { args: request.args } : {}),
    ...(request.compilerOptions.length ? { compilerOptions: request.compilerOptions } : {}),
    ...(request.version ? { version: request.version } : {}),
    ...(check
      ? {
          check: {
            compare: (check.compare || "exact") as CompareMode,
            ...(check.floatEpsilon > 0 ? { floatEpsilon: check.floatEpsilon } : {}),
            ...(check.expectedOutput !== undefined ? { expected: check.expectedOutput } : {}),
          },
        }
      : {}),
    ...(request.tests.length
      ? {
          tests: request.tests.map((test) => ({
            name: test.name,
            stdin: test.stdin,
            ...(test.expectedOutput !== undefined ? { expected: test.expectedOutput } : {}),
            ...(test.points !== undefined ? { points: test.points } : {}),
          })),
          stopOnFirstFailure: request.stopOnFirstFailure,
          ...(request.testsWallBudgetMs ? { testsWallBudgetMs: request.testsWallBudgetMs } : {}),
        }
      : {}),
  };
}
