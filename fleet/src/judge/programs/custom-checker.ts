// A testlib-style custom checker (docs/languages.md, "Custom checkers"): tenant code like the
// program, so it is prepared the same way (compiled once per submission through the compile
// cache, files beside its source) and runs in its own sandbox after each test the kernel judged
// AC, as `checker input.txt output.txt answer.txt`: a test set's checks by one check server
// (check-server.ts), a single run's in a fresh sandbox. Its exit code is the verdict
// (checker-verdict.ts).
import type { EngineChecker, EngineRequest } from "../../engine.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import { RUN_LIMITS, narrowLimits } from "../../sandbox/limits.ts";
import type { ExecutionRecord, Limits, RunSpec } from "../../sandbox/run-spec.ts";
import { CHECKER_IO_FILES, CHECKER_LIMIT_DEFAULTS, INTERACTOR_IO_FILES, type JudgeRole } from "../../../../proto/checker-rules.ts";
import { checkerFailed, checkerMessage, checkerVerdict } from "./checker-verdict.ts";
import type { JudgeRun } from "../tests.ts";

const MiB = 1024 * 1024;

/** The checker as prepared like a program (judge/prepare.ts): what each of its runs shares. */
export type PreparedChecker = Pick<RunSpec, "argv" | "env" | "binds" | "files" | "limits">;

/** A checker's run limits on a node: a program's, with the checker's own time and memory. */
export const CHECKER_LIMITS: Readonly<Limits> = Object.freeze({
  ...RUN_LIMITS,
  wallTimeMs: CHECKER_LIMIT_DEFAULTS.wall_time_ms,
  cpuTimeMs: CHECKER_LIMIT_DEFAULTS.cpu_time_ms,
  memoryBytes: CHECKER_LIMIT_DEFAULTS.memory_mb * MiB,
});

export function checkerLimits(checker: EngineChecker): Limits {
  return narrowLimits(CHECKER_LIMITS, checker.limits);
}

/** The checker (interactor) as a request of its own, for the program's preparation (judge/prepare.ts). */
export function checkerRequest(request: EngineRequest, checker: EngineChecker, role: JudgeRole = "checker"): EngineRequest {
  return {
    language: checker.language,
    code: checker.code,
    stdin: "",
    ...(request.tenantId !== undefined ? { tenantId: request.tenantId } : {}),
    ...(request.compileLimits ? { compileLimits: request.compileLimits } : {}),
    ...(checker.files?.length ? { files: checker.files } : {}),
    args: role === "checker" ? [...CHECKER_IO_FILES] : [...INTERACTOR_IO_FILES],
  };
}

/**
 * The record of a submission whose checker could not be prepared (it did not compile, its files
 * were refused): nothing was judged, so no test ran. A platform failure (IE) stays the platform's.
 */
export function checkerNotPrepared(failed: ExecutionRecord, role: JudgeRole = "checker"): ExecutionRecord {
  if (failed.verdict === "IE") return { ...failed, error_message: `the ${role} could not be prepared: ${failed.error_message ?? "internal error"}` };
  const diagnostics = checkerMessage(new TextEncoder().encode(failed.stderr)) || failed.error_message || "";
  const cause = failed.evidence.verdict_cause;
  const base: ExecutionRecord = { ...failed, stdout: "", stderr: "", exit_code: null, signal: null, cpu_time_secs: 0, wall_time_secs: 0, memory_peak_bytes: 0 };
  const why = cause === "compile_error" ? `the ${role} did not compile` : `the ${role} could not be prepared (${cause})`;
  return checkerFailed(base, why, { exit_code: null, cause, message: diagnostics, points: null }, role);
}

/** What checks a run instead of a fresh sandbox while it can (check-server.ts); undefined: it cannot now. */
export interface CheckService {
  check(
    input: Uint8Array | string,
    output: Uint8Array | string,
    answer: Uint8Array | string,
  ): Promise<{ record: ExecutionRecord; stderr: Uint8Array } | undefined>;
}

/**
 * Judges each run the kernel judged AC with the prepared checker: by `server` while it serves
 * (check-server.ts), else in a fresh sandbox of its own.
 */
export function checkerJudge(sandbox: Sandbox, checker: PreparedChecker, signal?: AbortSignal, server?: CheckService): JudgeRun {
  return async (ran, stdin, expected) => {
    if (ran.result.verdict !== "AC") return ran.result;
    const served = await server?.check(stdin, ran.stdoutBytes, expected ?? "");
    if (served) return checkerVerdict(ran.result, served.record, served.stderr);
    const [input, output, answer] = CHECKER_IO_FILES;
    const checked = await sandbox.run(
      {
        ...checker,
        stdin: "",
        files: [
          ...(checker.files ?? []),
          { name: input, content: stdin },
          { name: output, content: ran.stdoutBytes },
          { name: answer, content: expected ?? "" },
        ],
      },
      signal,
    );
    return checkerVerdict(ran.result, checked.result, checked.stderrBytes);
  };
}
