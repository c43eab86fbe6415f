// Compile (when the language needs it) once, then run, both inside the sandbox. A compiled
// artifact goes through the compile cache: a hit skips the compiler; runs see the artifact as a
// read-only bind. One the cache does not keep (above its per-artifact cap, or no room in the
// tenant's share) is staged on the host for this request only and bound the same way: it never
// takes room in the run's work dir. The request's files sit beside the main source at compile and
// run time; names the language uses itself (the source's, the artifact's) are refused up front.
// With tests, judge/tests.ts runs the prepared program once per test. A custom checker is
// prepared the same way, once, after the program (judge/custom-checker.ts); a test set's checks
// go to a check server (judge/check-server.ts).
import type { EngineChecker, EngineRequest, ExecuteOutcome } from "../engine.ts";
import type { OutputChecks } from "../judge/check-pool.ts";
import { checkerJudge, checkerLimits, checkerNotPrepared, checkerRequest } from "../judge/custom-checker.ts";
import { withCheckServer } from "../judge/check-server.ts";
import { interactiveRunOnce, interactorLimits } from "../judge/interactor.ts";
import { judgeRun, runTests, type JudgeRun, type RunOnce } from "../judge/tests.ts";
import { testsBudgetMs } from "../judge/tests-budget.ts";
import type { JudgeRole } from "../../../proto/checker-rules.ts";
import type { Sandbox, StagedFile } from "../sandbox/sandbox.ts";
import { notRun } from "../sandbox/failed-setup.ts";
import { checkInputFiles, InputFileNameError, inputFileNameProblem } from "../sandbox/input-files.ts";
import { readFileNoFollowAsync } from "../sandbox/nofollow.ts";
import { formatBytes } from "../sandbox/program-fault.ts";
import { COMPILE_LIMITS, LIVE_RUN_LIMITS, RUN_LIMITS, narrowLimits } from "../sandbox/limits.ts";
import type { Bind, ExecutionRecord, InputFile, Limits } from "../sandbox/run-spec.ts";
import { compileInputProblem } from "../../../proto/compile-inputs.ts";
import { compilerOptionArgv, compilerOptionsProblem } from "../../../proto/compiler-options.ts";
import { takenNameProblem } from "../../../proto/source-names.ts";
import { CompileCache, type CacheLease } from "./cache.ts";
import { ARTIFACT_DIR, type LanguageSpec, type SourcePlan, type Toolchain } from "./language-spec.ts";

/** A program ready to run: what every run of it (the single run, or each test) shares. */
export interface PreparedProgram {
  argv: string[];
  env?: Record<string, string>;
  binds: Bind[];
  files: InputFile[];
  limits: Limits;
}

/** A language and the toolchain of the version chosen, resolved by the engine (node-engine.ts). */
export interface LanguageTarget {
  language: LanguageSpec;
  toolchain: Toolchain;
}

/** The languages of the request's checker and interactor, when it has them. */
export interface JudgeTargets {
  checker?: LanguageTarget;
  interactor?: LanguageTarget;
}

export async function compileAndRun(
  sandbox: Sandbox,
  language: LanguageSpec,
  toolchain: Toolchain,
  cache: CompileCache | undefined,
  checks: OutputChecks,
  request: EngineRequest,
  signal?: AbortSignal,
  judges: JudgeTargets = {},
): Promise<ExecuteOutcome> {
  const outcome = (result: ExecutionRecord, compileCacheHit = false, extra: Partial<ExecuteOutcome> = {}): ExecuteOutcome => ({
    language: language.name,
    result,
    compileCacheHit,
    ...(request.tests?.length ? { tests: [] } : {}),
    ...(request.version ? { version: request.version } : {}),
    ...extra,
  });
  const runLimits = narrowLimits(request.liveStdin ? LIVE_RUN_LIMITS : RUN_LIMITS, request.limits);
  if (language.compile) request.onStage?.("compile");
  const prepared = await prepare(sandbox, language, toolchain, cache, request, runLimits, signal);
  if ("failed" in prepared) return outcome(prepared.failed);
  const helpers: Prepared[] = [];
  try {
    const { program, compileCacheHit } = prepared;
    const prepareJudge = async (role: JudgeRole, spec: EngineChecker, target: LanguageTarget, limits: Limits) => {
      const ready = await prepare(sandbox, target.language, target.toolchain, cache, checkerRequest(request, spec, role), limits, signal);
      helpers.push(ready);
      return "failed" in ready ? { failed: checkerNotPrepared(ready.failed, role) } : ready;
    };
    let interactor: PreparedProgram | undefined;
    if (request.interactor && judges.interactor) {
      const ready = await prepareJudge("interactor", request.interactor, judges.interactor, interactorLimits(request.interactor, runLimits));
      if ("failed" in ready) return outcome(ready.failed, compileCacheHit);
      interactor = ready.program;
    }
    let judge: JudgeRun | undefined;
    let checker: PreparedProgram | undefined;
    if (request.checker && judges.checker) {
      const ready = await prepareJudge("checker", request.checker, judges.checker, checkerLimits(request.checker));
      if ("failed" in ready) return outcome(ready.failed, compileCacheHit);
      checker = ready.program;
      judge = checkerJudge(sandbox, checker, signal);
    }
    const { onOutput } = request;
    const runOnce: RunOnce = interactor ? interactiveRunOnce(sandbox, program, interactor, request, signal) : (stdin, test) =>
      sandbox.run(
        {
          ...program,
          stdin,
          ...(request.mergeStderr ? { mergeStderr: true } : {}),
          ...(request.liveStdin ? { liveStdin: request.liveStdin, ...(request.signals ? { signals: request.signals } : {}) } : {}),
          ...(onOutput ? { onOutput: (stream: "stdout" | "stderr", data: Uint8Array) => onOutput(stream, data, test) } : {}),
        },
        signal,
      );
    request.onStage?.("run");
    if (request.tests?.length) {
      const tests = request.tests.length;
      // A checker's checks go to a check server beside the test set (not beside an interactor: its partner slot is taken).
      const judged = checker && !interactor
        ? await withCheckServer(sandbox, checker, tests, testsBudgetMs(request), signal, (served) => runTests(runOnce, checks, request, signal, served))
        : await runTests(runOnce, checks, request, signal, judge);
      return outcome(judged.result, compileCacheHit, {
        tests: judged.tests, decidingTest: judged.decidingTest, stdoutBytes: judged.stdoutBytes, stderrBytes: judged.stderrBytes,
        ...(judged.score ? { score: judged.score } : {}),
      });
    }
    const ran = await runOnce(request.stdin, 0);
    const expected = request.check?.expected;
    const result = judge ? await judge(ran, request.stdin, expected) : await judgeRun(checks, ran.result, ran.stdoutBytes, expected, request.check);
    return outcome(result, compileCacheHit, { stdoutBytes: ran.stdoutBytes, stderrBytes: ran.stderrBytes });
  } finally {
    prepared.release();
    for (const helper of helpers) if (!("failed" in helper)) helper.release();
  }
}

type Prepared = { failed: ExecutionRecord } | { program: PreparedProgram; compileCacheHit: boolean; release(): void };

/** Compiles (or finds in the cache) and assembles the run command; a failure is the record to return. */
async function prepare(
  sandbox: Sandbox,
  language: LanguageSpec,
  toolchain: Toolchain,
  cache: CompileCache | undefined,
  request: EngineRequest,
  runLimits: Limits,
  signal?: AbortSignal,
): Promise<Prepared> {
  // A leading byte-order mark (Windows editors write one) is not part of the program; javac refuses it.
  const code = request.code.replace(/^\uFEFF/, "");
  const source = language.source(code);
  if (source.problem) return { failed: refused("compile_error", "runtime", source.problem, runLimits) };
  const extraFiles: InputFile[] = (request.files ?? []).map((file) => ({ name: file.path, content: file.content }));
  const namesProblem = filesProblem(extraFiles, language, source.fileName);
  if (namesProblem) return { failed: refused("invalid_file_name", "supervisor", namesProblem, runLimits) };
  // The node's request check refuses these first; the engine holds without it (what a compile loads).
  const optionsProblem = compilerOptionsProblem(language.name, request.compilerOptions ?? []);
  if (optionsProblem) return { failed: refused("compile_error", "runtime", optionsProblem, runLimits) };
  const files: InputFile[] = [...extraFiles];
  const binds: Bind[] = [...toolchain.binds];
  let artifactPath = "";
  let compileCacheHit = false;
  let lease: CacheLease | StagedFile | undefined;
  if (language.compile) {
    const { compile } = language;
    const program = await compileOnce(sandbox, { ...language, compile }, toolchain, cache, request, { code, source, extraFiles }, runLimits, signal);
    if ("failed" in program) return program;
    ({ lease, hit: compileCacheHit } = program);
    if (compile.intoWorkDir) {
      files.unshift({ name: compile.artifact, content: program.content ?? (await readFileNoFollowAsync(lease!.path, compile.maxArtifactBytes)) });
      artifactPath = compile.artifact;
    } else {
      artifactPath = `${ARTIFACT_DIR}/${compile.artifact}`;
      binds.push({ hostPath: lease!.path, sandboxPath: artifactPath });
    }
  } else {
    files.unshift({ name: source.fileName, content: code });
  }
  const context = { toolchain, source, artifactPath, limits: runLimits };
  const program: PreparedProgram = {
    argv: [...language.run.argv(context), ...(request.args ?? [])],
    env: language.run.env?.(context),
    binds,
    files,
    limits: runLimits,
  };
  return { program, compileCacheHit, release: () => lease?.release() };
}

/** `lease` holds the artifact's file (none only for an `intoWorkDir` artifact the cache did not keep); `content` its bytes when just compiled. */
type Compiled = { failed: ExecutionRecord } | { lease?: CacheLease | StagedFile; hit: boolean; content?: Uint8Array };

/** What one submission gives its compile. */
interface CompileInput {
  code: string;
  source: SourcePlan;
  extraFiles: InputFile[];
}

/** The compiled artifact: a compile-cache hit, or compiled now in the sandbox and stored (or kept for this request only). */
async function compileOnce(
  sandbox: Sandbox,
  language: LanguageSpec & { compile: NonNullable<LanguageSpec["compile"]> },
  toolchain: Toolchain,
  cache: CompileCache | undefined,
  request: EngineRequest,
  { code, source, extraFiles }: CompileInput,
  runLimits: Limits,
  signal?: AbortSignal,
): Promise<Compiled> {
  const { compile } = language;
  const options = (request.compilerOptions ?? []).flatMap(compilerOptionArgv);
  const argv = compile.argv({ toolchain, source, options, files: extraFiles.map((file) => file.name) });
  // Scoped per tenant: a hit (a compile in milliseconds) would tell one tenant what another compiled.
  const key = CompileCache.key([request.tenantId ?? "", language.name, toolchain.version, argv, compile.env ?? {}, source.fileName, code, ...(extraFiles.length ? [filesDigest(extraFiles)] : [])]);
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
  if (compiled.result.verdict === "AC" && tooLarge?.reason === "too_large") return { failed: artifactTooLarge(compiled.result, tooLarge.size, compile.maxArtifactBytes) };
  if (compiled.result.verdict !== "AC" || !artifact) return { failed: compileFailure(compiled.result, artifact !== undefined) };
  if (compile.executable && !isProgramImage(artifact)) return { failed: noProgram(compiled.result, compile.noProgramHint) };
  const stored = await cache?.store(key, artifact, compile.executable, request.tenantId ?? "");
  if (stored) return { lease: stored, hit: false, content: artifact };
  if (compile.intoWorkDir) return { hit: false, content: artifact };
  // Not cacheable (above the cache's per-artifact cap, the tenant's share in use, the cache's
  // disk full): kept for this request only, outside /box, and bound like a cached one.
  try {
    return { lease: await sandbox.stageFile(artifact, compile.executable), hit: false, content: artifact };
  } catch (error) {
    const message = `the node could not keep the compiled program (${formatBytes(artifact.byteLength)}) for its run: ${(error as Error).message}`;
    return { failed: notRun({ verdict: "IE", cause: "internal_error", actor: "supervisor", errorMessage: message }, [], runLimits).result };
  }
}

/** A request refused before anything ran: its message in stderr too (clients that show only stderr). */
function refused(cause: string, actor: "runtime" | "supervisor", message: string, limits: Limits): ExecutionRecord {
  const record = notRun({ verdict: "RE", cause, actor, errorMessage: message }, [], limits).result;
  return { ...record, stderr: `${message}\n` };
}

/**
 * Why the request's files cannot be placed beside the main source in /box: a name the sandbox
 * cannot create safely (input-files.ts), one given twice or a file where another needs a
 * directory, or a name the language uses itself there (the main source, the compiled artifact,
 * the compile's own scratch names). The edge refuses most of these before a request is stored;
 * a node must hold without that.
 */
export function filesProblem(files: readonly InputFile[], language: LanguageSpec, sourceFileName: string): string | undefined {
  const shown = (name: string) => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  const loaded = compileInputProblem(language.name, files.map((file) => file.name));
  if (loaded) return loaded;
  for (const file of files) {
    const problem = inputFileNameProblem(file.name);
    if (problem) return `files: ${shown(file.name)}: ${problem}`;
    const taken = takenNameProblem(file.name, language.name, sourceFileName);
    if (taken) return `files: ${taken}`;
  }
  try {
    checkInputFiles(files);
  } catch (error) {
    if (error instanceof InputFileNameError) return `files: ${error.message.replace(/^input file name /, "")}`;
    throw error;
  }
  return undefined;
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
