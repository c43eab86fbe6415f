import type { Limits } from "./run-spec.ts";

const MiB = 1024 * 1024;

/** Server-side defaults for a program run (docs/api.md, Limits). */
export const RUN_LIMITS: Readonly<Limits> = Object.freeze({
  wallTimeMs: 10_000,
  cpuTimeMs: 10_000,
  memoryBytes: 256 * MiB,
  processes: 64,
  fileSizeBytes: 16 * MiB,
  workDirBytes: 64 * MiB,
  outputBytes: 1 * MiB,
  openFiles: 256,
  stackBytes: 64 * MiB,
});

/**
 * A live session's program (docs/live-sessions.md): a run's limits, but its wall time is the
 * session's longest life, since it mostly waits for its client; CPU stays a run's.
 */
export const LIVE_RUN_LIMITS: Readonly<Limits> = Object.freeze({ ...RUN_LIMITS, wallTimeMs: 300_000 });

/** Compilers run in the same sandbox with larger limits (docs/languages.md). */
export const COMPILE_LIMITS: Readonly<Limits> = Object.freeze({
  wallTimeMs: 30_000,
  cpuTimeMs: 60_000,
  memoryBytes: 1024 * MiB,
  processes: 256,
  fileSizeBytes: 256 * MiB,
  workDirBytes: 512 * MiB,
  outputBytes: 1 * MiB,
  openFiles: 1024,
  stackBytes: 64 * MiB,
});

/** Applies a caller's requested limits, which may only narrow the server's. */
export function narrowLimits(base: Readonly<Limits>, requested: Partial<Limits> = {}): Limits {
  const narrowed = { ...base };
  for (const key of Object.keys(base) as (keyof Limits)[]) {
    const value = requested[key];
    if (typeof value === "number" && Number.isFinite(value) && value > 0) {
      narrowed[key] = Math.min(base[key], Math.floor(value));
    }
  }
  return narrowed;
}
