// bash, the interpreter of multi-file programs' `compile` and `run` scripts (Judge0 runs them with
// bash too), and tar, which carries the work dir a compile leaves to each run. Both are the
// system's, in /usr, which every sandbox root holds.
import type { Toolchain } from "../kit/language-spec.ts";
import { executable, match, output, shortVersion } from "../kit/detect/host.ts";

export async function detectBash(): Promise<Toolchain[]> {
  const bash = "/usr/bin/bash";
  const tar = "/usr/bin/tar";
  if (!executable(bash) || !executable(tar)) return [];
  const version = match(await output(bash, ["--version"]), /version (\d+\.\d+(?:\.\d+)?)/);
  if (!version) return [];
  return [{ version, aliases: [shortVersion(version, 2), `bash ${version}`], binds: [], paths: { bash, tar } }];
}
