// What several languages' run commands share: a budget from a limit, and Node's run flags
// (javascript and typescript). Flags and their reasons: docs/languages.md.
import type { CommandContext } from "./language-spec.ts";

const MiB = 1024 * 1024;

/** A mebibyte budget from a limit: `fraction` of it, at least `floorMiB`. */
export const budgetMiB = (bytes: number, fraction: number, floorMiB = 16) => Math.max(floorMiB, Math.floor((bytes * fraction) / MiB));

/**
 * Node flags for a run: a V8 heap below the memory limit (so the GC works before the cgroup would
 * kill) and a small V8 worker pool (pids count threads). No `--stack-size`: any such V8 flag makes
 * V8 reject Node's built-in code cache, +10 ms per run (measured); docs/languages.md has the
 * trade-off.
 */
export function nodeRunArgv(context: CommandContext, extra: string[], script: string): string[] {
  return [context.toolchain.paths.node!, `--max-old-space-size=${budgetMiB(context.limits.memoryBytes, 0.75)}`, "--v8-pool-size=2", ...extra, script];
}
