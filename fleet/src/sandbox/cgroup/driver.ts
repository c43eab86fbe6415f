// One run's cgroup, whatever the hierarchy. The v1 and v2 drivers differ only in file names
// and layout; the supervisor sees the same readings from both.

import type { CpuShare } from "./cpu-policy.ts";

export interface CgroupLimits {
  memoryBytes: number;
  processes: number;
  /** The slot's CPU controls (cpuset, weight, quota); written once, when the cgroup is made. */
  cpu?: CpuShare;
}

/** Raw counters read from the kernel at the end of a run. */
export interface CgroupReadings {
  memoryLimitBytes: number;
  memoryPeakBytes: number;
  oomEvents: number;
  oomKillEvents: number;
  cpuUsageUsec: number;
  processCount: number;
  processLimit: number;
  /** Times a fork/clone was refused because pids.max was reached. */
  pidsLimitHits: number;
  /** Files that could not be read; their counters are 0. */
  errors: string[];
}

export interface RunCgroup {
  readonly name: string;
  /** `cgroup.procs` files the program joins (one per v1 hierarchy, one for v2). */
  readonly procsFiles: string[];
  /**
   * `cgroup.procs` files the output drainer (the run's launcher process) joins: the run's CPU
   * accounting and share, not its process budget or memory (v1: cpu, cpuacct, cpuset; v2 has one
   * directory, whose pids.max is one above the program's budget for it).
   */
  readonly drainerProcsFiles: string[];
  /** Where the drainer goes back to before it reports the end (the node's own cgroups). */
  readonly drainerReturnProcsFiles: string[];
  /**
   * Where the run's init goes back to when the program has ended (the node's own cgroup in every
   * hierarchy of `procsFiles`). While the program lives init is in the run's cgroups (its work
   * answering the program's calls is the run's), so pids.max is one above the program's budget
   * for it on v1, two on v2 (init and the drainer).
   */
  readonly initReturnProcsFiles: string[];
  /** Controls this cgroup enforces, as evidence names. */
  readonly controls: string[];
  readonly limits: CgroupLimits;
  /** Rewrites the limits of a cgroup no process has used yet (a spare made for other limits). */
  setLimits(limits: CgroupLimits): void;
  read(): CgroupReadings;
  /** CPU time used so far by every process in the cgroup, in µs (throws when it cannot be read). */
  cpuUsageUsec(): number;
  /** Pids still in the cgroup. */
  pids(): number[];
  /** SIGKILL to every process in the cgroup. */
  killAll(): void;
  /**
   * Makes this used, empty cgroup ready for another run, its readings starting from zero (v1
   * only: v2's memory.peak cannot be reset before Linux 6.12); false when it cannot, and it is
   * then removed. Absent: never reused.
   */
  reuse?(): Promise<boolean>;
  /** Removes the cgroup directories; rejects if processes remain. */
  destroy(): Promise<void>;
}

export interface CgroupDriver {
  readonly version: "v1" | "v2";
  /** Why this driver cannot enforce limits here; empty when it can. */
  problems(): string[];
  /** Host CPU ids usable by run cgroups (after problems() prepared the parent). */
  cpus(): number[];
  /** Async: cgroupfs mkdir/rmdir can wait on the kernel, so they stay off the event loop. */
  create(name: string, limits: CgroupLimits): Promise<RunCgroup>;
  /** Removes the driver's parent cgroups (at shutdown; only when empty). */
  close(): void;
  /**
   * Removes sibling instance cgroups (beside this driver's parent) that `isStale` names, with
   * their empty run cgroups: what a node killed without a clean shutdown left behind.
   */
  removeStaleSiblings(isStale: (name: string) => boolean): void;
}
