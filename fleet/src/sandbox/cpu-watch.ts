// The CPU-time limit of a whole run (every process and thread), enforced from the cgroup's CPU
// accounting. It counts from the program's execve, like the wall timer: the reading taken then
// (the launcher's setup in the run's cgroup) is the baseline. The supervisor polls adaptively: it
// sleeps as long as the run could not possibly reach its limit, assuming every core it may use
// is busy, so an idle or short program costs one reading and one timer, and a run near its limit
// is checked every MIN_POLL_MS.
import type { CpuShare } from "./cgroup/cpu-policy.ts";

/** The shortest sleep between readings: how far past its limit a run can get, per core. */
export const MIN_POLL_MS = 2;

export interface CpuWatchOptions {
  limitMs: number;
  /** How many cores the run can keep busy at once (an upper bound: a higher one polls sooner). */
  cores: number;
  /** The cgroup's CPU usage so far, µs; throws when it cannot be read. */
  readUsageUsec: () => number;
  /** The program reached its limit (called at most once, with its CPU time then, µs). */
  onExceeded: (usedUsec: number) => void;
  /** The usage could not be read: the limit cannot be enforced (called at most once). */
  onUnreadable: (message: string) => void;
}

/** A run's CPU-time limit must be a positive number of ms (a caller's bug otherwise: nothing runs). */
export function checkCpuLimit(limitMs: unknown): void {
  if (typeof limitMs !== "number" || !Number.isFinite(limitMs) || limitMs <= 0) {
    throw new Error(`limits.cpuTimeMs must be a positive number of milliseconds, not ${String(limitMs)}`);
  }
}

/** How long to sleep before the next reading, given the CPU time still left. */
export function nextPollDelayMs(remainingUsec: number, cores: number): number {
  return Math.max(MIN_POLL_MS, Math.floor(remainingUsec / 1000 / Math.max(1, cores)));
}

/** Cores a run may keep busy at once under its slot's share (cpuset size, or the quota if lower). */
export function busyCoresBound(share: CpuShare | undefined, fallback: number): number {
  if (!share) return fallback;
  const quota = share.quotaCores === undefined ? share.cpus.length : Math.ceil(share.quotaCores);
  return Math.max(1, Math.min(share.cpus.length, quota));
}

export class CpuWatch {
  readonly #options: CpuWatchOptions;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** The cgroup's usage when the watch started (µs): not the program's. */
  baselineUsec = 0;

  constructor(options: CpuWatchOptions) {
    this.#options = options;
  }

  /** Takes the baseline reading and starts polling. */
  start(): void {
    if (this.#stopped) return;
    try {
      this.baselineUsec = this.#read();
    } catch (error) {
      this.#unreadable(error);
      return;
    }
    this.#schedule(this.#options.limitMs * 1000);
  }

  /** The program's CPU time (µs) in a reading of the cgroup's usage. */
  programUsec(usageUsec: number): number {
    return usageUsec - this.baselineUsec;
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #check(): void {
    if (this.#stopped) return;
    let used: number;
    try {
      used = this.programUsec(this.#read());
    } catch (error) {
      this.#unreadable(error);
      return;
    }
    const remaining = this.#options.limitMs * 1000 - used;
    if (remaining <= 0) {
      this.stop();
      this.#options.onExceeded(used);
      return;
    }
    this.#schedule(remaining);
  }

  #read(): number {
    const usage = this.#options.readUsageUsec();
    if (!Number.isFinite(usage)) throw new Error(`CPU usage reading ${usage} is not a number`);
    return usage;
  }

  #schedule(remainingUsec: number): void {
    this.#timer = setTimeout(() => this.#check(), nextPollDelayMs(remainingUsec, this.#options.cores));
  }

  #unreadable(error: unknown): void {
    this.stop();
    this.#options.onUnreadable(error instanceof Error ? error.message : String(error));
  }
}
