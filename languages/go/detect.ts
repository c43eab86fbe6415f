// Go: Debian's golang-go and every /usr/lib/go-<version>, each with the read-only standard-library
// build cache from scripts/provision.sh when it matches.
import { realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { GO_STD_CACHE_PATH } from "./std-cache.ts";
import type { Toolchain } from "../kit/language-spec.ts";
import { compareVersionsDescending, entries, executable, match, output, present, readText, shortVersion } from "../kit/detect/host.ts";

/** Keep equal to GO_STD_CACHE_ENV in scripts/provision.sh: the compile environment that the std cache was built with. */
const GO_STD_CACHE_ENV = "CGO_ENABLED=0 GO111MODULE=off";
const GO_STD_CACHE_ROOT = "/var/cache/codecell/go-build";

/**
 * A Go installation as a toolchain: its version from GOROOT/VERSION (no process), else from
 * `go version`. Go ≥ 1.20 ships no precompiled standard library: scripts/provision.sh builds it
 * once per version into a build cache that compiles read (read-only, at /opt/go-cache), if made
 * with our environment; without it each compile rebuilds the packages it imports (seconds). The
 * node keeps that cache from looking due for a trim (go-std-cache.ts).
 */
async function goToolchain(go: string): Promise<Toolchain | undefined> {
  const version = match(readText(join(dirname(dirname(go)), "VERSION")), /^go(\d\S*)/) ?? match(await output(go, ["version"]), /go version go(\S+)/);
  if (!version) return undefined;
  const toolchain: Toolchain = { version, aliases: [shortVersion(version, 2), `go${version}`], binds: [], paths: { go } };
  const stdCache = join(GO_STD_CACHE_ROOT, `go${version}`);
  if (readText(join(stdCache, "flags")) === GO_STD_CACHE_ENV && statSync(join(stdCache, "cache"), { throwIfNoEntry: false })?.isDirectory()) {
    toolchain.binds.push({ hostPath: join(stdCache, "cache"), sandboxPath: GO_STD_CACHE_PATH });
    toolchain.paths.stdCache = GO_STD_CACHE_PATH;
  }
  return toolchain;
}

export async function detectGo(): Promise<Toolchain[]> {
  // Debian's golang-go (the default, /usr/bin/go → /usr/lib/go-1.19), then every /usr/lib/go-<version>.
  const versioned = entries("/usr/lib")
    .filter((name) => /^go-\d/.test(name))
    .sort((a, b) => compareVersionsDescending(a.slice(3), b.slice(3)))
    .map((name) => `/usr/lib/${name}/bin/go`);
  const candidates = ["/usr/lib/go/bin/go", "/usr/bin/go", "/usr/local/go/bin/go", ...versioned];
  const binaries = [...new Set(candidates.filter(executable).map((path) => realpathSync(path)).filter((path) => path.startsWith("/usr/")))];
  return present(await Promise.all(binaries.map(goToolchain)));
}
