// The deadlock watch of an interactive pair (docs/languages.md, "Interactors"): the program and
// the interactor each read what the other writes, so when both wait to read, neither ever will.
// While both live, the supervisor reads the two cgroups' CPU counters; when neither moved for
// IDLE_WINDOW_MS, both are killed and the program's verdict is TLE, cause `idleness`. A pair only
// waits on each other or computes: a side that sleeps counts as waiting.

/** How long both sides may use no CPU at all before the pair counts as deadlocked. */
export const IDLE_WINDOW_MS = 1_000;
const POLL_MS = 100;

export interface IdleSide {
  /** The side's program has started (its launcher said "started"). */
  started(): boolean;
  /** The side's program has ended (its launcher reported the exit). */
  ended(): boolean;
  /** The side's cgroup CPU usage so far, µs; throws when it cannot be read. */
  cpuUsageUsec(): number;
}

export interface IdleWatch {
  /** Aborted when the pair was found waiting on each other. */
  signal: AbortSignal;
  stop(): void;
}

export function watchIdleness(sides: readonly IdleSide[], windowMs = IDLE_WINDOW_MS): IdleWatch {
  const controller = new AbortController();
  let last = -1;
  let quietSince = 0;
  const timer = setInterval(() => {
    if (!sides.every((side) => side.started()) || sides.some((side) => side.ended())) {
      last = -1;
      return;
    }
    let usage: number;
    try {
      usage = sides.reduce((sum, side) => sum + side.cpuUsageUsec(), 0);
    } catch {
      return; // each side's own CPU watch reports an unreadable counter
    }
    const now = performance.now();
    if (usage !== last) {
      last = usage;
      quietSince = now;
    } else if (now - quietSince >= windowMs) {
      clearInterval(timer);
      controller.abort();
    }
  }, POLL_MS);
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}
