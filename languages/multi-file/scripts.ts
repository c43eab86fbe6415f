// Multi-file programs (Judge0's language 89): the code is the `run` script; the request's files may
// hold a `compile` script and whatever the scripts use. Both scripts run with bash in the sandbox,
// in /box, like any language's compiler and program. The compile step (with compile limits) runs
// `compile` when there is one, then packs the work dir as it left it into one archive, the
// artifact (cached like any compiled program); each run unpacks it into its own /box and runs `run`
// with the request's arguments (with run limits). docs/languages.md, "multi-file".
import type { CommandContext, Toolchain } from "../kit/language-spec.ts";
import manifest from "./manifest.ts";

export const MULTI_FILE_ARCHIVE = manifest.compile.artifact;

/**
 * The compile step: the compile script's output, both streams, is its diagnostics (stderr, as
 * Judge0's compile_output holds both); a failing compile script is a compile error.
 */
export function multiFileCompileArgv(toolchain: Toolchain): string[] {
  const { bash, tar } = toolchain.paths;
  const script = [
    "exec 1>&2",
    `if [ -f ./compile ]; then ${bash} ./compile || exit; fi`,
    `exec ${tar} --create --file=${MULTI_FILE_ARCHIVE} --exclude=${MULTI_FILE_ARCHIVE} .`,
  ].join("\n");
  return [bash!, "-c", script, "compile"];
}

/** The run: the compile's work dir unpacked over the request's files, then `run` with the arguments (appended). */
export function multiFileRunArgv({ toolchain, artifactPath }: CommandContext): string[] {
  const { bash, tar } = toolchain.paths;
  const script = `${tar} --extract --file=${artifactPath} --overwrite --no-same-owner --warning=no-timestamp && exec ${bash} ./run "$@"`;
  return [bash!, "-c", script, "run"];
}
