// The curated libraries: importable without network, from Debian's packages installed by
// scripts/provision.sh into the system paths the sandbox already sees read-only (/usr). Each
// language's manifest lists its own (languages/<name>/manifest.ts); a library is listed (NodeInfo
// Language.libraries, GET /api/runtimes) only when its files are present.
// Adding one: docs/languages.md, "Versions and libraries".
import { existsSync } from "node:fs";

export interface CuratedLibrary {
  /** The name a program imports, as listed. */
  name: string;
  /** The Debian package that provides it (installed by scripts/provision.sh). */
  debianPackage: string;
  /** A file whose presence means the library is installed. */
  probe: string;
}

/** The curated libraries (a language's manifest's) that are installed on this host. */
export function installedLibraries(curated: readonly CuratedLibrary[]): string[] {
  return curated.filter((library) => existsSync(library.probe)).map((library) => library.name);
}
