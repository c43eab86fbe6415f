// Go on the node: every Go found, module-less builds, a read-only standard-library cache (Go ≥ 1.20).
import type { LanguageRunner } from "../kit/language-spec.ts";
import { budgetMiB } from "../kit/runtime-flags.ts";
import { detectGo } from "./detect.ts";
import { goStdCacheDirs, keepTrimmed } from "./std-cache.ts";

const go: LanguageRunner = {
  detect: detectGo,
  compile: {
    // The package is every .go file beside the source (as `go build` in a directory would take them).
    argv: ({ toolchain, source, files }) => [
      // The read-only standard-library cache replaces the compile's own (Go ≥ 1.20; see detect.ts).
      ...(toolchain.paths.stdCache ? ["/usr/bin/env", `GOCACHE=${toolchain.paths.stdCache}`] : []),
      toolchain.paths.go!,
      "build",
      "-o",
      "main",
      source.fileName,
      ...files.filter((path) => !path.includes("/") && path.endsWith(".go") && !path.endsWith("_test.go")),
    ],
    // Module-less; the build cache lives in this compile's own /tmp (nothing shared), or is the
    // read-only standard-library cache; Go < 1.20's standard library comes precompiled from the
    // read-only GOROOT.
    env: {
      GO111MODULE: "off",
      CGO_ENABLED: "0",
      GOCACHE: "/tmp/go-cache",
      GOPATH: "/tmp/go",
      GOTMPDIR: "/tmp",
      HOME: "/tmp",
      GOFLAGS: "",
      GOPROXY: "off",
      GOTOOLCHAIN: "local",
      GOTELEMETRY: "off",
    },
    executable: true,
    maxArtifactBytes: 128 * 1024 * 1024,
    noProgramHint: "the build produced no executable: is the package `main`, with a `func main()`?",
  },
  run: {
    argv: ({ artifactPath }) => [artifactPath],
    // Few OS threads (pids count threads); a soft memory limit makes the GC work before the cgroup kills.
    env: ({ limits }) => ({ GOMAXPROCS: "2", GOMEMLIMIT: `${budgetMiB(limits.memoryBytes, 0.8)}MiB` }),
  },
  // Go trims its build cache once a day, which a read-only cache cannot: keep it looking fresh.
  maintain: (toolchains) => keepTrimmed(goStdCacheDirs(toolchains)),
};

export default go;
