// The language table: adding a language is adding one entry. Every command (compilers included)
// runs inside the sandbox; `detect` runs on the host at start-up to decide whether the language is
// offered and where its toolchain lives. Flags and their reasons: docs/languages.md.
import { execFile } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { Bind, Limits } from "../sandbox/types.ts";
import { canonicalLanguage } from "../../../proto/languages.ts";
import { installedLibraries } from "./libraries.ts";

/** A toolchain found on the host: its version and how the sandbox sees it. */
export interface Toolchain {
  /** The version a request selects, the toolchain's own number ("12.2.0", "1.23.5"); part of the compile cache key. */
  version: string;
  /** Other names a request may use for it: a short form ("1.23") and the toolchain's own text ("go1.23.5"). */
  aliases: string[];
  /** Read-only binds of toolchain files outside /usr (never a whole home directory). */
  binds: Bind[];
  /** Paths inside the sandbox, e.g. { rustc: "/opt/rust/bin/rustc" }. */
  paths: Record<string, string>;
  /** Curated libraries importable without network (libraries.ts). */
  libraries?: string[];
}

/** What one submission's source becomes: its file name in /box and values derived from it. */
export interface SourcePlan {
  fileName: string;
  /** e.g. Java's main class. */
  entry?: string;
  /** Extra runtime flags the source needs (TypeScript syntax beyond type stripping). */
  runFlags?: string[];
  /** Why this source cannot be built at all, in words for the user (a compile error, nothing runs). */
  problem?: string;
}

export interface CommandContext {
  toolchain: Toolchain;
  source: SourcePlan;
  /** Run only: where the compiled artifact is inside the sandbox. */
  artifactPath: string;
  /** Run only: the run's limits (runtimes size their heaps and stacks from them). */
  limits: Limits;
}

export interface LanguageSpec {
  /** Canonical name (spec §2.5), carried by every record. */
  name: string;
  /** Host-side detection at start-up: every usable version, the default (today's) first; none = not offered. */
  detect(): Promise<Toolchain[]>;
  source(code: string): SourcePlan;
  /**
   * Absent for interpreted languages. `artifact` is the ONE file the compile leaves in /box; it is
   * copied out, cached, and bound read-only at `ARTIFACT_DIR/<artifact>` for the run.
   */
  compile?: {
    /**
     * `options`: the request's allowed compiler options (proto/compiler-options.ts) as argv words;
     * `files`: the paths of the request's other files (present in /box beside the source).
     */
    argv(context: Omit<CommandContext, "artifactPath" | "limits"> & { options: string[]; files: string[] }): string[];
    env?: Record<string, string>;
    artifact: string;
    executable: boolean;
    maxArtifactBytes: number;
    /** What to tell the user when the build succeeded but made no program (a library, an archive). */
    noProgramHint?: string;
  };
  run: { argv(context: CommandContext): string[]; env?: (context: CommandContext) => Record<string, string> };
}

/** Where a compiled artifact appears inside the sandbox for the run (read-only bind). */
export const ARTIFACT_DIR = "/opt/program";

const MiB = 1024 * 1024;

/** A mebibyte budget from a limit: `fraction` of it, at least `floorMiB`. */
const budgetMiB = (bytes: number, fraction: number, floorMiB = 16) => Math.max(floorMiB, Math.floor((bytes * fraction) / MiB));

// ---------------------------------------------------------------------------------------------
// Host-side helpers for detection (run once at start-up; trusted input only).

function output(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { encoding: "utf8", timeout: 10_000, env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } }, (error, stdout, stderr) => {
      resolve(error ? undefined : `${stdout}${stderr}`);
    });
  });
}

const executable = (path: string) => {
  try {
    return statSync(path).isFile() && (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

const match = (text: string | undefined, pattern: RegExp) => (text ? pattern.exec(text)?.[1] : undefined);

const readText = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** "1.23.5" → "1.23"; "17.0.15" → "17" (`parts` leading numbers). */
const shortVersion = (version: string, parts: number) => version.split(".").slice(0, parts).join(".");

/** Newest first by numeric components ("1.23.5" before "1.9.2"). */
export function compareVersionsDescending(a: string, b: string): number {
  const x = a.split(/[.+-]/).map(Number);
  const y = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (y[i] || 0) - (x[i] || 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Entries of a directory (none if it is missing). */
const entries = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Host directories outside /usr that a toolchain's symlinks point into (Debian's /etc/java-N-openjdk). */
function symlinkTargetsOutsideUsr(paths: string[]): string[] {
  const dirs = new Set<string>();
  for (const path of paths) {
    try {
      const target = readlinkSync(path);
      const parts = target.split("/");
      if (target.startsWith("/etc/") && parts.length > 3) dirs.add(parts.slice(0, 3).join("/"));
    } catch {
      // not a symlink
    }
  }
  return [...dirs].filter((dir) => existsSync(dir));
}

/** Where scripts/provision.sh puts toolchains that come from the npm registry (Node 22). */
export const TOOLCHAINS_DIR = "/opt/codecell-toolchains";

/** Oldest Node offered: type stripping (TypeScript) without a flag since 22.18. */
const MIN_NODE = [22, 18];

/**
 * A file under TOOLCHAINS_DIR is trusted (run on the host at start-up, bound into sandboxes) only
 * if root owns it and every directory from it up to TOOLCHAINS_DIR, and only root can write them.
 */
function rootOnly(path: string): boolean {
  const chain = [path];
  while (chain.at(-1) !== TOOLCHAINS_DIR && chain.at(-1)!.startsWith(`${TOOLCHAINS_DIR}/`)) chain.push(dirname(chain.at(-1)!));
  if (chain.at(-1) !== TOOLCHAINS_DIR) return false;
  try {
    return chain.every((p) => {
      const stat = lstatSync(p);
      return !stat.isSymbolicLink() && stat.uid === 0 && (stat.mode & 0o022) === 0;
    });
  } catch {
    return false;
  }
}

/**
 * The project's own Node 24 (the `node` dev dependency, the default), else the one running this
 * process; then the extra versions scripts/provision.sh installs, newest first.
 */
function nodeCandidates(): string[] {
  const projectNode = join(import.meta.dirname, "..", "..", "..", "node_modules", "node", "bin", "node");
  const extras = entries(TOOLCHAINS_DIR)
    .filter((name) => /^node-\d+$/.test(name))
    .sort((a, b) => compareVersionsDescending(a.slice(5), b.slice(5)))
    .map((name) => join(TOOLCHAINS_DIR, name, "bin", "node"))
    .filter(rootOnly);
  return [projectNode, process.execPath, "/usr/bin/node", "/usr/local/bin/node", ...extras];
}

async function nodeToolchain(hostPath: string): Promise<Toolchain | undefined> {
  const version = match(await output(hostPath, ["--version"]), /^v(\d+\.\d+\.\d+)/);
  const [major = 0, minor = 0] = version?.split(".").map(Number) ?? [];
  if (!version || major < MIN_NODE[0]! || (major === MIN_NODE[0] && minor < MIN_NODE[1]!)) return undefined;
  return {
    version,
    aliases: [String(major), shortVersion(version, 2), `v${version}`],
    binds: [{ hostPath, sandboxPath: "/opt/node/bin/node" }],
    paths: { node: "/opt/node/bin/node" },
  };
}

let nodeDetection: Promise<Toolchain[]> | undefined;
/** Shared by javascript and typescript: the node binary alone, bound at /opt/node/bin/node. */
function detectNode(): Promise<Toolchain[]> {
  nodeDetection ??= (async () => {
    const binaries = [...new Set(nodeCandidates().filter(executable).map((path) => realpathSync(path)))];
    const found = await Promise.all(binaries.map(nodeToolchain));
    return found.filter((toolchain): toolchain is Toolchain => toolchain !== undefined);
  })();
  return nodeDetection;
}

/**
 * Node flags for a run: a V8 heap below the memory limit (so the GC works before the cgroup would
 * kill) and a small V8 worker pool (pids count threads). No `--stack-size`: any such V8 flag makes
 * V8 reject Node's built-in code cache, +10 ms per JavaScript run and +30 ms per TypeScript run
 * (measured); docs/languages.md has the trade-off.
 */
function nodeRunArgv(context: CommandContext, extra: string[]): string[] {
  return [
    context.toolchain.paths.node!,
    `--max-old-space-size=${budgetMiB(context.limits.memoryBytes, 0.75)}`,
    "--v8-pool-size=2",
    ...extra,
    context.source.fileName,
  ];
}

function rustToolchainDirs(): string[] {
  const homes = [process.env.RUSTUP_HOME, join(homedir(), ".rustup"), "/root/.rustup"].filter((home): home is string => !!home);
  const found: string[] = [];
  for (const home of new Set(homes)) {
    let preferred: string | undefined;
    try {
      preferred = match(readFileSync(join(home, "settings.toml"), "utf8"), /^default_toolchain\s*=\s*"([^"]+)"/m);
    } catch {
      // no rustup settings
    }
    let names: string[] = [];
    try {
      names = readdirSync(join(home, "toolchains"));
    } catch {
      continue;
    }
    const ordered = [
      ...(preferred ? names.filter((name) => name === preferred) : []),
      ...names.filter((name) => name.startsWith("stable-")),
      ...names,
    ];
    for (const name of ordered) found.push(join(home, "toolchains", name));
  }
  return [...new Set(found)];
}

/** A Java identifier as javac reads it: any Unicode letter, `_` or `$` first. */
const JAVA_ID = String.raw`[\p{L}\p{Nl}\p{Sc}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Sc}]*`;
/** Linux file names are at most 255 bytes; javac writes `<Class>.class` (and `<Class>$1.class`…). */
const MAX_FILE_NAME_BYTES = 255;

/**
 * Java: the file is named after the public top-level class (javac requires it), else after the
 * class that runs; the class that runs is the public class with `static void main`, else the first
 * class with one (a main belongs to the nearest type declared before it), in its package if any.
 */
export function javaSource(code: string): SourcePlan {
  const stripped = code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
  const pkg = new RegExp(String.raw`^\s*package\s+(${JAVA_ID}(?:\s*\.\s*${JAVA_ID})*)\s*;`, "mu").exec(stripped)?.[1]?.replace(/\s+/g, "");
  const modifiers = String.raw`(?:(?:final|abstract|sealed|non-sealed|strictfp|static)\s+)*`;
  const declaration = new RegExp(String.raw`(?<![\p{L}\p{Nd}_$])(public\s+)?${modifiers}(?:class|interface|enum|record)\s+(${JAVA_ID})`, "gu");
  const types = [...stripped.matchAll(declaration)].map((m) => ({ name: m[2]!, isPublic: m[1] !== undefined, at: m.index, hasMain: false }));
  for (const main of stripped.matchAll(/\bstatic\s+(?:(?:public|final|synchronized|strictfp)\s+)*void\s+main\s*\(/g)) {
    const owner = types.findLast((type) => type.at < main.index);
    if (owner) owner.hasMain = true;
  }
  const publicType = types.find((type) => type.isPublic)?.name;
  const runs = types.find((type) => type.isPublic && type.hasMain) ?? types.find((type) => type.hasMain);
  const className = publicType ?? runs?.name ?? (types.some((type) => type.name === "Main") ? "Main" : types[0]?.name) ?? "Main";
  const entryClass = runs?.name ?? className;
  const fileName = `${className}.java`;
  const bytes = Buffer.byteLength(`${className}.class`);
  const problem =
    bytes > MAX_FILE_NAME_BYTES
      ? `the class name ${className.slice(0, 40)}… is too long: a class file name may be at most ${MAX_FILE_NAME_BYTES} bytes (this one is ${bytes} bytes in UTF-8); shorten the public class name`
      : undefined;
  return { fileName, entry: pkg ? `${pkg}.${entryClass}` : entryClass, ...(problem ? { problem } : {}) };
}

// ---------------------------------------------------------------------------------------------

/** javac's own JVM: C1 only, serial GC, no perf file. Keep equal to JAVAC_FLAGS in scripts/provision.sh. */
const JAVAC_JVM_FLAGS = ["-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-J-XX:-UsePerfData", "-J-Xmx640m", "-J-XX:ActiveProcessorCount=2"];
const JAVAC_CDS_ROOT = "/var/cache/codecell/javac-cds";
/** Keep equal to PCH_FLAGS in scripts/provision.sh. */
const CPP_FLAGS = ["-std=c++20", "-O2", "-pipe"];
const PCH_ROOT = "/var/cache/codecell/pch";

/**
 * TypeScript: plain type stripping unless the source may use syntax that needs code generation
 * (enum, namespace, parameter properties, `import x = require`, `export =`); then Node's
 * transform mode, which costs ~15 ms more at start-up. A false positive only costs that time.
 */
export function typescriptSource(code: string): SourcePlan {
  const transform = /\b(?:enum|namespace|module)\b|\b(?:public|private|protected|readonly|override)\s+[A-Za-z_$]|\bimport\s+[A-Za-z_$][\w$]*\s*=|\bexport\s*=/.test(code);
  return {
    fileName: "main.ts",
    runFlags: transform ? ["--experimental-transform-types", "--disable-warning=ExperimentalWarning"] : [],
  };
}

/** The system default JDK (Debian's alternatives) first, then every JDK under /usr/lib/jvm, newest first. */
function jdkHomes(): string[] {
  const homes: string[] = [];
  try {
    homes.push(dirname(dirname(realpathSync("/usr/bin/javac"))));
  } catch {
    // no alternative set
  }
  const others = entries("/usr/lib/jvm").flatMap((name) => {
    try {
      return [realpathSync(join("/usr/lib/jvm", name))];
    } catch {
      return [];
    }
  });
  const release = (home: string) => match(readText(join(home, "release")), /^JAVA_VERSION="([^"]+)"/m) ?? "0";
  homes.push(...others.sort((a, b) => compareVersionsDescending(release(a), release(b))));
  return homes;
}

/** A JDK home as a toolchain: its version from the `release` file (no JVM start), else from javac. */
async function jdkToolchain(home: string): Promise<Toolchain | undefined> {
  const javac = join(home, "bin", "javac");
  const java = join(home, "bin", "java");
  if (!home.startsWith("/usr/") || !executable(javac) || !executable(java) || !executable("/usr/bin/zip")) return undefined;
  const releaseFile = readText(join(home, "release"));
  const version =
    match(releaseFile, /^JAVA_VERSION="(\d[^"]*)"/m) ??
    match(await output(javac, ["-J-Xshare:auto", "-J-XX:TieredStopAtLevel=1", "-version"]), /javac (\S+)/);
  if (!version) return undefined;
  const runtimeVersion = match(releaseFile, /^JAVA_RUNTIME_VERSION="([^"]+)"/m);
  const links = ["conf", "lib", "lib/security"].flatMap((dir) => entries(join(home, dir)).map((name) => join(home, dir, name)));
  // Debian's JDK keeps its configuration in /etc/java-N-openjdk: bound read-only at the same path.
  const binds = symlinkTargetsOutsideUsr(links).map((dir) => ({ hostPath: dir, sandboxPath: dir }));
  const paths: Record<string, string> = { javac, java, zip: "/usr/bin/zip" };
  // javac's class-data-sharing archive from scripts/provision.sh, if made by this JDK with our flags.
  try {
    const cds = join(JAVAC_CDS_ROOT, `${basename(home)}-${runtimeVersion}`);
    if (runtimeVersion && readFileSync(join(cds, "flags"), "utf8") === JAVAC_JVM_FLAGS.join(" ") && statSync(join(cds, "javac.jsa")).isFile()) {
      binds.push({ hostPath: cds, sandboxPath: "/opt/javac-cds" });
      paths.javacCds = "/opt/javac-cds/javac.jsa";
    }
  } catch {
    // no archive: javac starts slower, same results
  }
  const aliases = [shortVersion(version, 1), ...(runtimeVersion && runtimeVersion !== version ? [runtimeVersion] : [])];
  return { version, aliases, binds, paths };
}

/** Keep equal to GO_STD_CACHE_ENV in scripts/provision.sh: the compile environment that the std cache was built with. */
const GO_STD_CACHE_ENV = "CGO_ENABLED=0 GO111MODULE=off";
const GO_STD_CACHE_ROOT = "/var/cache/codecell/go-build";

/**
 * A Go installation as a toolchain: its version from GOROOT/VERSION (no process), else from
 * `go version`. Go ≥ 1.20 ships no precompiled standard library: scripts/provision.sh builds it
 * once per version into a build cache that compiles read (read-only, at /opt/go-cache), if made
 * with our environment; without it each compile rebuilds the packages it imports (seconds).
 */
async function goToolchain(go: string): Promise<Toolchain | undefined> {
  const version = match(readText(join(dirname(dirname(go)), "VERSION")), /^go(\d\S*)/) ?? match(await output(go, ["version"]), /go version go(\S+)/);
  if (!version) return undefined;
  const toolchain: Toolchain = { version, aliases: [shortVersion(version, 2), `go${version}`], binds: [], paths: { go } };
  const stdCache = join(GO_STD_CACHE_ROOT, `go${version}`);
  if (readText(join(stdCache, "flags")) === GO_STD_CACHE_ENV && statSync(join(stdCache, "cache"), { throwIfNoEntry: false })?.isDirectory()) {
    toolchain.binds.push({ hostPath: join(stdCache, "cache"), sandboxPath: "/opt/go-cache" });
    toolchain.paths.stdCache = "/opt/go-cache";
  }
  return toolchain;
}

async function rustToolchain(): Promise<Toolchain | undefined> {
  const named = (version: string) => ({ version, aliases: [shortVersion(version, 2), `rustc ${version}`] });
  for (const dir of rustToolchainDirs()) {
    const rustc = join(dir, "bin", "rustc");
    if (!executable(rustc)) continue;
    const version = match(await output(rustc, ["--version"]), /^rustc (\S+)/);
    // The toolchain directory alone is bound, at a neutral path: never the home directory.
    if (version) return { ...named(version), binds: [{ hostPath: realpathSync(dir), sandboxPath: "/opt/rust" }], paths: { rustc: "/opt/rust/bin/rustc" } };
  }
  if (executable("/usr/bin/rustc")) {
    const version = match(await output("/usr/bin/rustc", ["--version"]), /^rustc (\S+)/);
    if (version) return { ...named(version), binds: [], paths: { rustc: "/usr/bin/rustc" } };
  }
  return undefined;
}

const fixed = (fileName: string) => (): SourcePlan => ({ fileName });

async function gccFamily(compiler: "gcc" | "g++"): Promise<Toolchain | undefined> {
  const path = `/usr/bin/${compiler}`;
  if (!executable(path)) return undefined;
  const version = match(await output(path, ["-dumpfullversion"]), /^(\S+)/);
  return version ? { version, aliases: [shortVersion(version, 1), `${compiler} ${version}`], binds: [], paths: { [compiler]: path } } : undefined;
}

/** The one toolchain of a language offered in a single version, as a list. */
const one = async (toolchain: Promise<Toolchain | undefined>): Promise<Toolchain[]> => {
  const found = await toolchain;
  return found ? [found] : [];
};

export const LANGUAGES: LanguageSpec[] = [
  {
    name: "python",
    async detect() {
      const path = "/usr/bin/python3";
      if (!executable(path)) return [];
      const version = match(await output(path, ["--version"]), /Python (\S+)/);
      if (!version) return [];
      return [{ version, aliases: [shortVersion(version, 2), `Python ${version}`], binds: [], paths: { python: path }, libraries: installedLibraries("python") }];
    },
    source: fixed("main.py"),
    run: {
      argv: ({ toolchain, source }) => [toolchain.paths.python!, "-B", source.fileName],
      env: () => ({ PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1", PYTHONHASHSEED: "0" }),
    },
  },
  {
    name: "c",
    detect: () => one(gccFamily("gcc")),
    source: fixed("main.c"),
    compile: {
      argv: ({ toolchain, source, options }) => [toolchain.paths.gcc!, "-std=c17", "-O2", "-pipe", "-o", "main", source.fileName, ...options, "-lm"],
      artifact: "main",
      executable: true,
      maxArtifactBytes: 64 * MiB,
    },
    run: { argv: ({ artifactPath }) => [artifactPath] },
  },
  {
    name: "cpp",
    async detect() {
      const toolchain = await gccFamily("g++");
      if (!toolchain) return [];
      // The precompiled <bits/stdc++.h> that scripts/provision.sh builds, if its flags are ours.
      const pch = join(PCH_ROOT, `g++-${toolchain.version}`);
      try {
        if (readFileSync(join(pch, "flags"), "utf8") === CPP_FLAGS.join(" ") && statSync(join(pch, "bits", "stdc++.h.gch")).isFile()) {
          toolchain.binds.push({ hostPath: pch, sandboxPath: "/opt/pch" });
          toolchain.paths.pch = "/opt/pch";
        }
      } catch {
        // no precompiled header: slower compiles of <bits/stdc++.h>, same results
      }
      return [toolchain];
    },
    source: fixed("main.cpp"),
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
      artifact: "main",
      executable: true,
      maxArtifactBytes: 64 * MiB,
    },
    run: { argv: ({ artifactPath }) => [artifactPath] },
  },
  {
    name: "java",
    async detect() {
      const homes = [...new Set(jdkHomes())];
      const found = await Promise.all(homes.map(jdkToolchain));
      return found.filter((toolchain): toolchain is Toolchain => toolchain !== undefined);
    },
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
        "-encoding",
        "UTF-8",
        "-Xlint:none",
        ...options,
        "-d",
        "classes",
        source.fileName,
      ],
      artifact: "main.jar",
      executable: false,
      maxArtifactBytes: 64 * MiB,
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
    source: fixed("main.js"),
    run: { argv: (context) => nodeRunArgv(context, []) },
  },
  {
    name: "typescript",
    detect: detectNode,
    source: typescriptSource,
    // Node 24's own type stripping (no type check): docs/languages.md says why.
    run: { argv: (context) => nodeRunArgv(context, context.source.runFlags ?? []) },
  },
  {
    name: "go",
    async detect() {
      // Debian's golang-go (the default, /usr/bin/go → /usr/lib/go-1.19), then every /usr/lib/go-<version>.
      const candidates = ["/usr/lib/go/bin/go", "/usr/bin/go", "/usr/local/go/bin/go", ...entries("/usr/lib").filter((name) => /^go-\d/.test(name)).sort((a, b) => compareVersionsDescending(a.slice(3), b.slice(3))).map((name) => `/usr/lib/${name}/bin/go`)];
      const binaries = [...new Set(candidates.filter(executable).map((path) => realpathSync(path)).filter((path) => path.startsWith("/usr/")))];
      const found = await Promise.all(binaries.map(goToolchain));
      return found.filter((toolchain): toolchain is Toolchain => toolchain !== undefined);
    },
    source: fixed("main.go"),
    compile: {
      // The package is every .go file beside the source (as `go build` in a directory would take them).
      argv: ({ toolchain, source, files }) => [
        // The read-only standard-library cache replaces the compile's own (Go ≥ 1.20; see goToolchain).
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
      artifact: "main",
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
    detect: () => one(rustToolchain()),
    source: fixed("main.rs"),
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
      artifact: "main",
      executable: true,
      maxArtifactBytes: 128 * MiB,
      noProgramHint: "the build produced no executable: a library crate (`crate_type = \"lib\"`) has no `fn main()` to run",
    },
    run: { argv: ({ artifactPath }) => [artifactPath] },
  },
];

/** The table entry for an accepted value of spec §2.5 (canonical name or alias), if any. */
export function findLanguage(nameOrAlias: string, table: LanguageSpec[] = LANGUAGES): LanguageSpec | undefined {
  const canonical = canonicalLanguage(nameOrAlias);
  return table.find((language) => language.name === canonical);
}
