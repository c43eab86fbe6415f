// The shapes of the language table (table.ts): a language, the toolchains it detects, the plan
// for one submission's source, and what a command line is built from. A language folder's
// fleet.ts exports a LanguageRunner; table.ts joins it with the folder's manifest.
import type { LanguageManifest } from "../schema.ts";

/** A toolchain's file outside /usr, bound read-only into the sandbox (the sandbox's Bind). */
export interface Bind {
  hostPath: string;
  sandboxPath: string;
  /** A small file (at most 256 KiB) copied into the root instead: no mount shows its host path. */
  copy?: boolean;
}

/** What a runtime sizes its heap and stack from: the part of a run's limits a command reads. */
export interface RunLimits {
  memoryBytes: number;
  stackBytes: number;
}

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
  /** Why this source cannot be built at all, in words for the user (a compile error, nothing runs). */
  problem?: string;
}

export interface CommandContext {
  toolchain: Toolchain;
  source: SourcePlan;
  /** Run only: where the compiled artifact is inside the sandbox. */
  artifactPath: string;
  /** Run only: the run's limits (runtimes size their heaps and stacks from them). */
  limits: RunLimits;
}

export interface LanguageSpec {
  /** Canonical name (docs/api.md), carried by every record. */
  name: string;
  /** The folder's manifest (languages/<name>/manifest.ts). */
  manifest: LanguageManifest;
  /** Host-side detection at start-up: every usable version, the default (today's) first; none = not offered. */
  detect(): Promise<Toolchain[]>;
  source(code: string): SourcePlan;
  /**
   * Absent for interpreted languages. `artifact` is the ONE file the compile leaves in /box; it is
   * copied out, cached, and bound read-only at `ARTIFACT_DIR/<artifact>` for the run (or, with
   * `intoWorkDir`, written into the run's /box under that name).
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
    /** Other names the compile makes in /box (Java's `classes` directory): a request's file may not take them. */
    scratch?: string[];
    /**
     * The artifact is a source the run loads beside the request's files (TypeScript's emitted
     * JavaScript, whose relative imports name them): written into /box, not bound at ARTIFACT_DIR.
     */
    intoWorkDir?: boolean;
  };
  run: { argv(context: CommandContext): string[]; env?: (context: CommandContext) => Record<string, string> };
  /** Started once the node has detected the language's toolchains, stopped when it closes (Go keeps its std cache fresh). */
  maintain?(toolchains: Toolchain[]): { stop(): void };
}

/**
 * A language folder's fleet.ts: the node's part of the language. Its name, source file name and
 * compile outputs come from the manifest (table.ts joins them).
 */
export interface LanguageRunner {
  detect: LanguageSpec["detect"];
  compile?: Omit<NonNullable<LanguageSpec["compile"]>, "artifact" | "scratch">;
  run: LanguageSpec["run"];
  maintain?: LanguageSpec["maintain"];
}

/** Where a compiled artifact appears inside the sandbox for the run (read-only bind). */
export const ARTIFACT_DIR = "/opt/program";
