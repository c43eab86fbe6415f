// The language table: adding a language is adding one entry. Every command (compilers included)
// runs inside the sandbox; `detect` runs on the host at start-up to decide whether the language is
// offered and where its toolchain lives (detect/, one file per toolchain family). Flags and their
// reasons: docs/languages.md.
import { COMPILE_OUTPUTS, MAIN_SOURCE_FILES } from "../../../proto/source-names.ts";
import { canonicalLanguage } from "../../../proto/languages.ts";
import { CPP_FLAGS, detectGcc, detectGxx } from "./detect/gcc.ts";
import { detectBash } from "./detect/bash.ts";
import { detectGo } from "./detect/go.ts";
import { detectJdks, JAVAC_JVM_FLAGS } from "./detect/jdk.ts";
import { detectNode } from "./detect/node.ts";
import { detectPython } from "./detect/python.ts";
import { detectRust } from "./detect/rust.ts";
import { MULTI_FILE_ARCHIVE, multiFileCompileArgv, multiFileRunArgv } from "./multi-file.ts";
import { fixed, javaSource } from "./sources.ts";
import { typescriptEmitArgv } from "./typescript-emit.ts";
import type { CommandContext, LanguageSpec } from "./language-spec.ts";

// What this module exported before the split, still importable from here.
export { ARTIFACT_DIR, type CommandContext, type LanguageSpec, type SourcePlan, type Toolchain } from "./language-spec.ts";
export { compareVersionsDescending } from "./detect/host.ts";
export { TOOLCHAINS_DIR } from "./detect/node.ts";
export { javaSource } from "./sources.ts";

const MiB = 1024 * 1024;

/** A mebibyte budget from a limit: `fraction` of it, at least `floorMiB`. */
const budgetMiB = (bytes: number, fraction: number, floorMiB = 16) => Math.max(floorMiB, Math.floor((bytes * fraction) / MiB));

/**
 * Node flags for a run: a V8 heap below the memory limit (so the GC works before the cgroup would
 * kill) and a small V8 worker pool (pids count threads). No `--stack-size`: any such V8 flag makes
 * V8 reject Node's built-in code cache, +10 ms per run (measured); docs/languages.md has the
 * trade-off.
 */
function nodeRunArgv(context: CommandContext, extra: string[], script: string): string[] {
  return [context.toolchain.paths.node!, `--max-old-space-size=${budgetMiB(context.limits.memoryBytes, 0.75)}`, "--v8-pool-size=2", ...extra, script];
}

export const LANGUAGES: LanguageSpec[] = [
  {
    name: "python",
    detect: detectPython,
    source: fixed(MAIN_SOURCE_FILES.python),
    run: {
      argv: ({ toolchain, source }) => [toolchain.paths.python!, "-B", source.fileName],
      env: () => ({ PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1", PYTHONHASHSEED: "0" }),
    },
  },
  {
    name: "c",
    detect: detectGcc,
    source: fixed(MAIN_SOURCE_FILES.c),
    compile: {
      argv: ({ toolchain, source, options }) => [toolchain.paths.gcc!, "-std=c17", "-O2", "-pipe", "-o", "main", source.fileName, ...options, "-lm"],
      artifact: COMPILE_OUTPUTS.c.artifact,
      executable: true,
      maxArtifactBytes: 64 * MiB,
    },
    run: { argv: ({ artifactPath }) => [artifactPath] },
  },
  {
    name: "cpp",
    detect: detectGxx,
    source: fixed(MAIN_SOURCE_FILES.cpp),
    compile: {
      argv: ({ toolchain, source, options }) => [
        toolchain.paths["g++"]!,
        ...CPP_FLAGS,
        ...(toolchain.paths.pch ? ["-I", toolchain.paths.pch] : []),
        "-o",
        "main",
        source.fileName,
        ...options,
        "-lm",
      ],
      artifact: COMPILE_OUTPUTS.cpp.artifact,
      executable: true,
      maxArtifactBytes: 64 * MiB,
    },
    run: { argv: ({ artifactPath }) => [artifactPath] },
  },
  {
    name: "java",
    detect: detectJdks,
    source: javaSource,
    compile: {
      // javac is itself a JVM: C1 only, serial GC and CDS start it about twice as fast. One jar
      // (zipped with Info-ZIP, ~2 ms, instead of `jar`, another JVM start) is the artifact.
      argv: ({ toolchain, source, options }) => [
        "/bin/sh",
        "-c",
        `"$@" && cd classes && exec ${toolchain.paths.zip} -q -r -X ../main.jar .`,
        "javac",
        toolchain.paths.javac!,
        ...JAVAC_JVM_FLAGS,
        "-J-Xshare:auto",
        ...(toolchain.paths.javacCds ? [`-J-XX:SharedArchiveFile=${toolchain.paths.javacCds}`] : []),
        // No annotation processing, and no processor path: javac would otherwise load processors
        // (tenant code) from its class path, /box (JDK < 23 by default; docs/languages.md).
        "-proc:none",
        "-processorpath",
        "",
        "-encoding",
        "UTF-8",
        "-Xlint:none",
        ...options,
        "-d",
        "classes",
        source.fileName,
      ],
      artifact: COMPILE_OUTPUTS.java.artifact,
      executable: false,
      maxArtifactBytes: 64 * MiB,
      scratch: [...COMPILE_OUTPUTS.java.scratch],
    },
    run: {
      argv: ({ toolchain, source, artifactPath, limits }) => [
        toolchain.paths.java!,
        "-XX:+UseG1GC",
        "-XX:ParallelGCThreads=2",
        "-XX:ConcGCThreads=1",
        "-Xshare:auto",
        "-XX:-UsePerfData",
        "-XX:ActiveProcessorCount=2",
        "-XX:CICompilerCount=2",
        `-Xmx${budgetMiB(limits.memoryBytes, 0.7)}m`,
        `-Xss${Math.max(1, Math.floor((limits.stackBytes / MiB) * 0.25))}m`,
        "-XX:ReservedCodeCacheSize=48m",
        "-XX:MaxMetaspaceSize=96m",
        "-Dfile.encoding=UTF-8",
        "-cp",
        artifactPath,
        source.entry ?? "Main",
      ],
    },
  },
  {
    name: "javascript",
    detect: detectNode,
    source: fixed(MAIN_SOURCE_FILES.javascript),
    run: { argv: (context) => nodeRunArgv(context, [], context.source.fileName) },
  },
  {
    name: "typescript",
    detect: detectNode,
    source: fixed(MAIN_SOURCE_FILES.typescript),
    // Node's own transpiler, once per source (no type check): docs/languages.md says why.
    compile: {
      argv: ({ toolchain, source }) => typescriptEmitArgv(toolchain.paths.node!, source.fileName, COMPILE_OUTPUTS.typescript.artifact),
      artifact: COMPILE_OUTPUTS.typescript.artifact,
      executable: false,
      maxArtifactBytes: 16 * MiB,
      intoWorkDir: true,
    },
    // Stack traces through the emitted code's source map, if it has one (measured: free without).
    run: { argv: (context) => nodeRunArgv(context, ["--enable-source-maps"], context.artifactPath) },
  },
  {
    name: "go",
    detect: detectGo,
    source: fixed(MAIN_SOURCE_FILES.go),
    compile: {
      // The package is every .go file beside the source (as `go build` in a directory would take them).
      argv: ({ toolchain, source, files }) => [
        // The read-only standard-library cache replaces the compile's own (Go ≥ 1.20; see detect/go.ts).
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
      artifact: COMPILE_OUTPUTS.go.artifact,
      executable: true,
      maxArtifactBytes: 128 * MiB,
      noProgramHint: "the build produced no executable: is the package `main`, with a `func main()`?",
    },
    run: {
      argv: ({ artifactPath }) => [artifactPath],
      // Few OS threads (pids count threads); a soft memory limit makes the GC work before the cgroup kills.
      env: ({ limits }) => ({ GOMAXPROCS: "2", GOMEMLIMIT: `${budgetMiB(limits.memoryBytes, 0.8)}MiB` }),
    },
  },
  {
    name: "rust",
    detect: detectRust,
    source: fixed(MAIN_SOURCE_FILES.rust),
    compile: {
      // rustc refuses an edition or an optimisation level given twice: a request's replaces ours.
      argv: ({ toolchain, source, options }) => [
        toolchain.paths.rustc!,
        ...(options.some((o) => o.startsWith("--edition")) ? [] : ["--edition", "2021"]),
        ...(options.some((o) => o === "-O" || o.includes("opt-level")) ? [] : ["-O"]),
        ...options,
        "-C",
        "strip=debuginfo",
        "-o",
        "main",
        source.fileName,
      ],
      artifact: COMPILE_OUTPUTS.rust.artifact,
      executable: true,
      maxArtifactBytes: 128 * MiB,
      noProgramHint: "the build produced no executable: a library crate (`crate_type = \"lib\"`) has no `fn main()` to run",
    },
    run: { argv: ({ artifactPath }) => [artifactPath] },
  },
  {
    // Judge0's language 89: scripts run with bash (multi-file.ts; docs/languages.md).
    name: "multi-file",
    detect: detectBash,
    source: fixed(MAIN_SOURCE_FILES["multi-file"]),
    compile: {
      argv: ({ toolchain }) => multiFileCompileArgv(toolchain),
      artifact: MULTI_FILE_ARCHIVE,
      executable: false,
      // At most what a run's work dir holds.
      maxArtifactBytes: 64 * MiB,
    },
    run: { argv: multiFileRunArgv },
  },
];

/** The table entry for an accepted value of docs/api.md (canonical name or alias), if any. */
export function findLanguage(nameOrAlias: string, table: LanguageSpec[] = LANGUAGES): LanguageSpec | undefined {
  const canonical = canonicalLanguage(nameOrAlias);
  return table.find((language) => language.name === canonical);
}
