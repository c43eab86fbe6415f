// The curated libraries: importable without network, from Debian's packages installed by
// scripts/provision.sh into the system paths the sandbox already sees read-only (/usr). A library
// is listed (NodeInfo Language.libraries, GET /api/runtimes) only when its files are present.
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

export const CURATED_LIBRARIES: Record<string, CuratedLibrary[]> = {
  python: [{ name: "numpy", debianPackage: "python3-numpy", probe: "/usr/lib/python3/dist-packages/numpy/__init__.py" }],
};

/** The curated libraries of a language that are installed on this host. */
export function installedLibraries(language: string, catalog = CURATED_LIBRARIES): string[] {
  return (catalog[language] ?? []).filter((library) => existsSync(library.probe)).map((library) => library.name);
}
