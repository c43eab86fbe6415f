// A program made ready to run, the submission's own or its checker's or interactor's: compiled
// once when the language needs it (compile.ts), its artifact a read-only bind or, `intoWorkDir`,
// a file in /box; the request's files beside the main source at compile and run time. Names the
// language uses itself (the source's, the artifact's) are refused up front.
import type { EngineRequest } from "../engine.ts";
import type { CacheLease, CompileCache } from "../languages/cache.ts";
import { ARTIFACT_DIR, type LanguageSpec, type Toolchain } from "../../../languages/kit/language-spec.ts";
import { notRun } from "../sandbox/failed-setup.ts";
import { checkInputFiles, InputFileNameError, inputFileNameProblem } from "../sandbox/input-files.ts";
import { readFileNoFollowAsync } from "../sandbox/nofollow.ts";
import type { Bind, ExecutionRecord, InputFile, Limits } from "../sandbox/run-spec.ts";
import type { Sandbox, StagedFile } from "../sandbox/sandbox.ts";
import { compileInputProblem } from "../../../proto/compile-inputs.ts";
import { compilerOptionsProblem } from "../../../proto/compiler-options.ts";
import { takenNameProblem } from "../../../proto/source-names.ts";
import { compileOnce, type CompileInput } from "./compile.ts";

/** A language and the toolchain of the version chosen, resolved by the engine (node-engine.ts). */
export interface LanguageTarget {
  language: LanguageSpec;
  toolchain: Toolchain;
}

/** The node's parts a program is prepared with. */
export interface PrepareParts {
  sandbox: Sandbox;
  cache?: CompileCache;
  signal?: AbortSignal;
}

/** A program ready to run: what every run of it (the single run, or each test) shares. */
export interface PreparedProgram {
  argv: string[];
  env?: Record<string, string>;
  binds: Bind[];
  files: InputFile[];
  limits: Limits;
}

export type Prepared = { failed: ExecutionRecord } | { program: PreparedProgram; compileCacheHit: boolean; release(): void };

/**
 * Compiles (or finds in the cache) and assembles the run command of `request`'s code in
 * `target`'s language; a failure is the record to return.
 */
export async function prepare(parts: PrepareParts, target: LanguageTarget, request: EngineRequest, runLimits: Limits): Promise<Prepared> {
  const { language, toolchain } = target;
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
    const { sandbox, cache, signal } = parts;
    const input: CompileInput = { sandbox, cache, signal, request, toolchain, code, source, extraFiles, runLimits };
    const program = await compileOnce({ ...language, compile }, input);
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
  const runContext = { toolchain, source, artifactPath, limits: runLimits };
  const program: PreparedProgram = {
    argv: [...language.run.argv(runContext), ...(request.args ?? [])],
    env: language.run.env?.(runContext),
    binds,
    files,
    limits: runLimits,
  };
  return { program, compileCacheHit, release: () => lease?.release() };
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
