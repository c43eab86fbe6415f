// A program's compile, inside the sandbox, through the compile cache: a hit skips the compiler.
// One the cache does not keep (above its per-artifact cap, or no room in the tenant's share) is
// staged on the host for this request only, so that it never takes room in the run's work dir.
// A build that fails, or makes no program or one too large, is the submission's compile error.
import type { EngineRequest } from "../engine.ts";
import { CompileCache, type CacheLease } from "../languages/cache.ts";
import type { LanguageSpec, SourcePlan, Toolchain } from "../../../languages/kit/language-spec.ts";
import { notRun } from "../sandbox/failed-setup.ts";
import { COMPILE_LIMITS, narrowLimits } from "../sandbox/limits.ts";
import { formatBytes } from "../sandbox/program-fault.ts";
import type { ExecutionRecord, InputFile, Limits } from "../sandbox/run-spec.ts";
import type { Sandbox, StagedFile } from "../sandbox/sandbox.ts";
import { compilerOptionArgv } from "../../../proto/compiler-options.ts";

/** `lease` holds the artifact's file (none only for an `intoWorkDir` artifact the cache did not keep); `content` its bytes when just compiled. */
export type Compiled = { failed: ExecutionRecord } | { lease?: CacheLease | StagedFile; hit: boolean; content?: Uint8Array };

/** A language that compiles. */
export type CompiledLanguage = LanguageSpec & { compile: NonNullable<LanguageSpec["compile"]> };

/** What one compile is given: the node's parts, the submission's code and files, the limits its runs will have. */
export interface CompileInput {
  sandbox: Sandbox;
  cache?: CompileCache;
  signal?: AbortSignal;
  request: EngineRequest;
  toolchain: Toolchain;
  code: string;
  source: SourcePlan;
  extraFiles: InputFile[];
  runLimits: Limits;
}

/** The compiled artifact: a compile-cache hit, or compiled now in the sandbox and stored (or kept for this request only). */
export async function compileOnce(language: CompiledLanguage, input: CompileInput): Promise<Compiled> {
  const { sandbox, cache, signal, request, toolchain, code, source, extraFiles } = input;
  const { compile } = language;
  const options = (request.compilerOptions ?? []).flatMap(compilerOptionArgv);
  const argv = compile.argv({ toolchain, source, options, files: extraFiles.map((file) => file.name) });
  // Scoped per tenant: a hit (a compile in milliseconds) would tell one tenant what another compiled.
  const key = CompileCache.key([
    request.tenantId ?? "", language.name, toolchain.version, argv, compile.env ?? {}, source.fileName, code,
    ...(extraFiles.length ? [filesDigest(extraFiles)] : []),
  ]);
  const hit = cache?.lookup(key);
  if (hit) return { lease: hit, hit: true };
  const compiled = await sandbox.run(
    {
      argv,
      env: compile.env,
      binds: toolchain.binds,
      files: [{ name: source.fileName, content: code }, ...extraFiles],
      outputFiles: [{ name: compile.artifact, maxBytes: compile.maxArtifactBytes }],
      limits: narrowLimits(COMPILE_LIMITS, request.compileLimits),
    },
    signal,
  );
  const artifact = compiled.outputFiles.get(compile.artifact);
  const tooLarge = compiled.outputFileFailures?.get(compile.artifact);
  if (compiled.result.verdict === "AC" && tooLarge?.reason === "too_large") {
    return { failed: artifactTooLarge(compiled.result, tooLarge.size, compile.maxArtifactBytes) };
  }
  if (compiled.result.verdict !== "AC" || !artifact) return { failed: compileFailure(compiled.result, artifact !== undefined) };
  if (compile.executable && !isProgramImage(artifact)) return { failed: noProgram(compiled.result, compile.noProgramHint) };
  const stored = await cache?.store(key, artifact, compile.executable, request.tenantId ?? "");
  if (stored) return { lease: stored, hit: false, content: artifact };
  if (compile.intoWorkDir) return { hit: false, content: artifact };
  return stageForRequest(sandbox, artifact, compile.executable, input.runLimits);
}

/**
 * Not cacheable (above the cache's per-artifact cap, the tenant's share in use, the cache's disk
 * full): kept for this request only, outside /box, and bound like a cached one.
 */
async function stageForRequest(sandbox: Sandbox, artifact: Uint8Array, executable: boolean, runLimits: Limits): Promise<Compiled> {
  try {
    return { lease: await sandbox.stageFile(artifact, executable), hit: false, content: artifact };
  } catch (error) {
    const message = `the node could not keep the compiled program (${formatBytes(artifact.byteLength)}) for its run: ${(error as Error).message}`;
    return { failed: notRun({ verdict: "IE", cause: "internal_error", actor: "supervisor", errorMessage: message }, [], runLimits).result };
  }
}

/** The files' paths and contents, for the compile cache key. */
function filesDigest(files: InputFile[]): string[] {
  return files.map((file) => `${file.name}\0${CompileCache.key(Buffer.from(file.content).toString("base64"))}`);
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

/** The build succeeded but its program is larger than the language allows: the submission's compile error. */
function artifactTooLarge(result: ExecutionRecord, size: number | undefined, maxBytes: number): ExecutionRecord {
  const actual = size !== undefined ? `${(size / (1024 * 1024)).toFixed(1)} MiB (${size} bytes)` : `larger than ${formatBytes(maxBytes)}`;
  const message = `the compiled program is ${actual}; at most ${formatBytes(maxBytes)}`;
  return {
    ...result,
    verdict: "RE",
    error_message: message,
    stderr: `${result.stderr}${message}\n`,
    evidence: { ...result.evidence, verdict_cause: "compile_error", verdict_actor: "runtime" },
  };
}

/** Refusals of the request's files (sandbox/program-fault.ts): the compile never started, nothing to add. */
const FILES_CAUSES = new Set(["work_dir_full", "invalid_file_name"]);

/** A compiler that did not produce the artifact is the user's compile error, unless the platform failed. */
function compileFailure(result: ExecutionRecord, hadArtifact: boolean): ExecutionRecord {
  if (result.verdict === "IE" || FILES_CAUSES.has(result.evidence.verdict_cause)) return result;
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
