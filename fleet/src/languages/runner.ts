// Compile (when the language needs it) and run, both inside the sandbox. A compiled artifact goes
// through the compile cache: a hit skips the compiler; the run sees the artifact as a read-only bind.
import type { ExecuteOutcome, EngineRequest } from "../engine.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { notRun } from "../sandbox/failed-setup.ts";
import { COMPILE_LIMITS, RUN_LIMITS, narrowLimits } from "../sandbox/limits.ts";
import type { Bind, ExecutionRecord, InputFile } from "../sandbox/types.ts";
import { CompileCache, type CacheLease } from "./cache.ts";
import { ARTIFACT_DIR, type LanguageSpec, type Toolchain } from "./table.ts";

export async function compileAndRun(
  sandbox: Sandbox,
  language: LanguageSpec,
  toolchain: Toolchain,
  cache: CompileCache | undefined,
  request: EngineRequest,
  signal?: AbortSignal,
): Promise<ExecuteOutcome> {
  // A leading byte-order mark (Windows editors write one) is not part of the program; javac refuses it.
  const code = request.code.replace(/^\uFEFF/, "");
  const source = language.source(code);
  const runLimits = narrowLimits(RUN_LIMITS, request.limits);
  const files: InputFile[] = [];
  const binds: Bind[] = [...toolchain.binds];
  let artifactPath = "";
  let compileCacheHit = false;
  let lease: CacheLease | undefined;
  if (source.problem) {
    const refused = notRun({ verdict: "RE", cause: "compile_error", actor: "runtime", errorMessage: source.problem }, [], runLimits);
    return { language: language.name, result: { ...refused.result, stderr: `${source.problem}\n` }, compileCacheHit: false };
  }
  try {
    if (language.compile) {
      const { compile } = language;
      const argv = compile.argv({ toolchain, source });
      const key = CompileCache.key([language.name, toolchain.version, argv, compile.env ?? {}, source.fileName, code]);
      lease = cache?.lookup(key);
      compileCacheHit = lease !== undefined;
      if (!lease) {
        const compiled = await sandbox.run(
          {
            argv,
            env: compile.env,
            binds: toolchain.binds,
            files: [{ name: source.fileName, content: code }],
            outputFiles: [{ name: compile.artifact, maxBytes: compile.maxArtifactBytes }],
            limits: COMPILE_LIMITS,
          },
          signal,
        );
        const artifact = compiled.outputFiles.get(compile.artifact);
        if (compiled.result.verdict !== "AC" || !artifact) {
          return { language: language.name, result: compileFailure(compiled.result, artifact !== undefined), compileCacheHit: false };
        }
        if (compile.executable && !isProgramImage(artifact)) {
          return { language: language.name, result: noProgram(compiled.result, compile.noProgramHint), compileCacheHit: false };
        }
        lease = cache?.store(key, artifact, compile.executable, request.tenantId ?? "");
        if (!lease) {
          // Not cacheable (too big, disk full): this run gets a private copy instead.
          files.push({ name: compile.artifact, content: artifact, executable: compile.executable });
          artifactPath = `/box/${compile.artifact}`;
        }
      }
      if (lease) {
        artifactPath = `${ARTIFACT_DIR}/${compile.artifact}`;
        binds.push({ hostPath: lease.path, sandboxPath: artifactPath });
      }
    } else {
      files.push({ name: source.fileName, content: code });
    }
    const context = { toolchain, source, artifactPath, limits: runLimits };
    const ran = await sandbox.run(
      {
        argv: language.run.argv(context),
        env: language.run.env?.(context),
        binds,
        files,
        stdin: request.stdin,
        limits: runLimits,
        onOutput: request.onOutput,
      },
      signal,
    );
    return { language: language.name, result: ran.result, compileCacheHit };
  } finally {
    lease?.release();
  }
}

/** An ELF executable or position-independent executable: what a build of a program makes. */
export function isProgramImage(file: Uint8Array): boolean {
  const elf = file.length >= 18 && file[0] === 0x7f && file[1] === 0x45 && file[2] === 0x4c && file[3] === 0x46;
  const type = elf ? file[16]! | (file[17]! << 8) : 0;
  return type === 2 || type === 3;
}

/** The build succeeded but made something that cannot run (a Go non-main package, a Rust library). */
function noProgram(result: ExecutionRecord, hint = "the build produced no executable program"): ExecutionRecord {
  return {
    ...result,
    verdict: "RE",
    error_message: hint,
    evidence: { ...result.evidence, verdict_cause: "no_executable", verdict_actor: "runtime" },
  };
}

/** A compiler that did not produce the artifact is the user's compile error, unless the platform failed. */
function compileFailure(result: ExecutionRecord, hadArtifact: boolean): ExecutionRecord {
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
