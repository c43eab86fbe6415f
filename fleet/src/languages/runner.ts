// Compile (when the language needs it) and run, both inside the sandbox.
import type { ExecuteOutcome, ExecuteRequest } from "../engine.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { COMPILE_LIMITS, RUN_LIMITS, narrowLimits } from "../sandbox/limits.ts";
import type { ExecutionResult, InputFile } from "../sandbox/types.ts";
import type { LanguageSpec } from "./table.ts";

export async function compileAndRun(
  sandbox: Sandbox,
  language: LanguageSpec,
  request: ExecuteRequest,
  signal?: AbortSignal,
): Promise<ExecuteOutcome> {
  const source: InputFile = { name: language.sourceFile, content: request.code };
  const runLimits = narrowLimits(RUN_LIMITS, request.limits);
  let files: InputFile[] = [source];
  if (language.compile) {
    const compiled = await sandbox.run(
      {
        argv: language.compile.argv,
        env: language.env,
        binds: language.binds,
        files: [source],
        outputFiles: [{ name: language.compile.artifact, maxBytes: language.compile.maxArtifactBytes }],
        limits: COMPILE_LIMITS,
      },
      signal,
    );
    const artifact = compiled.outputFiles.get(language.compile.artifact);
    if (compiled.result.verdict !== "AC" || !artifact) {
      return { language: language.name, result: compileFailure(compiled.result, artifact !== undefined), compileCacheHit: false };
    }
    files = [{ name: language.compile.artifact, content: artifact, executable: true }];
  }
  const ran = await sandbox.run(
    { argv: language.run.argv, env: language.env, binds: language.binds, files, stdin: request.stdin, limits: runLimits },
    signal,
  );
  return { language: language.name, result: ran.result, compileCacheHit: false };
}

/** A compiler that did not produce the artifact is the user's compile error, unless the platform failed. */
function compileFailure(result: ExecutionResult, hadArtifact: boolean): ExecutionResult {
  if (result.verdict === "IE") return result;
  const reason =
    result.verdict === "AC" && !hadArtifact
      ? "the compiler produced no program"
      : result.verdict === "TLE"
        ? "compilation exceeded the compile time limit"
        : result.verdict === "MLE"
          ? "compilation exceeded the compile memory limit"
          : "compilation failed";
  return {
    ...result,
    verdict: "RE",
    error_message: `${reason}; see stderr for the compiler's diagnostics`,
    evidence: { ...result.evidence, verdict_cause: "compile_error", verdict_actor: "runtime" },
  };
}
