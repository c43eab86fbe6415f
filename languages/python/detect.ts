// Python: Debian's python3, with the curated libraries that are installed.
import type { Toolchain } from "../kit/language-spec.ts";
import { installedLibraries } from "../kit/libraries.ts";
import manifest from "./manifest.ts";
import { executable, match, output, shortVersion } from "../kit/detect/host.ts";

export async function detectPython(): Promise<Toolchain[]> {
  const path = "/usr/bin/python3";
  if (!executable(path)) return [];
  const version = match(await output(path, ["--version"]), /Python (\S+)/);
  if (!version) return [];
  return [{ version, aliases: [shortVersion(version, 2), `Python ${version}`], binds: [], paths: { python: path }, libraries: installedLibraries(manifest.libraries) }];
}
