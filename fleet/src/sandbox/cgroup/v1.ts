import { mkdirSync } from "node:fs";
import { mkdir, rmdir } from "node:fs/promises";
import { join } from "node:path";
import type { CgroupDriver, CgroupLimits, CgroupReadings, RunCgroup } from "./driver.ts";
import { cgroupFilesystemProblem, collect, killPids, readKeyed, readNumber, readPids, removeDirAndEmptyAncestors, removeStaleSiblingDirs, writeControl } from "./files.ts";

/** Mount points of the v1 hierarchies this driver needs, e.g. { memory: "/sys/fs/cgroup/memory" }. */
export interface V1Mounts {
  memory: string;
  pids: string;
  cpuacct: string;
}

/**
 * cgroup v1: memory, pids and cpuacct live in separate hierarchies, so a run's cgroup is three
 * directories with the same relative path. There is no cgroup.kill and no OOM event counter
 * separate from oom_kill; see docs/sandbox.md.
 */
export class CgroupV1Driver implements CgroupDriver {
  readonly version = "v1";
  readonly #mounts: V1Mounts;
  readonly #parent: string;

  constructor(mounts: V1Mounts, parent: string) {
    this.#mounts = mounts;
    this.#parent = parent;
  }

  problems(): string[] {
    const problems: string[] = [];
    for (const [controller, mount] of Object.entries(this.#mounts)) {
      const notCgroupfs = cgroupFilesystemProblem(mount, "v1");
      if (notCgroupfs) {
        problems.push(`cgroup v1 ${controller}: ${notCgroupfs}`);
        continue;
      }
      try {
        mkdirSync(join(mount, this.#parent), { recursive: true });
      } catch (error) {
        problems.push(`cgroup v1 ${controller}: cannot create ${join(mount, this.#parent)}: ${(error as Error).message}`);
      }
    }
    return problems;
  }

  async create(name: string, limits: CgroupLimits): Promise<RunCgroup> {
    const dirs = {
      memory: join(this.#mounts.memory, this.#parent, name),
      pids: join(this.#mounts.pids, this.#parent, name),
      cpuacct: join(this.#mounts.cpuacct, this.#parent, name),
    };
    const made = await Promise.allSettled(Object.values(dirs).map((dir) => mkdir(dir)));
    try {
      for (const result of made) if (result.status === "rejected") throw result.reason;
      writeControl(join(dirs.memory, "memory.swappiness"), 0);
      const cgroup = new RunCgroupV1(name, dirs, { memoryBytes: Number.POSITIVE_INFINITY, processes: 0 });
      cgroup.setLimits(limits);
      return cgroup;
    } catch (error) {
      const created = Object.values(dirs).filter((_, index) => made[index]?.status === "fulfilled");
      await Promise.allSettled(created.map((dir) => rmdir(dir)));
      throw error;
    }
  }

  removeStaleSiblings(isStale: (name: string) => boolean): void {
    for (const mount of Object.values(this.#mounts)) removeStaleSiblingDirs(join(mount, this.#parent), isStale);
  }

  close(): void {
    for (const mount of Object.values(this.#mounts)) removeDirAndEmptyAncestors(mount, this.#parent);
  }
}

class RunCgroupV1 implements RunCgroup {
  readonly name: string;
  readonly procsFiles: string[];
  readonly controls = ["memory_limit", "swap_disabled", "process_limit", "cpu_accounting"];
  readonly #dirs: V1Mounts;
  limits: CgroupLimits;

  constructor(name: string, dirs: V1Mounts, limits: CgroupLimits) {
    this.name = name;
    this.#dirs = dirs;
    this.limits = limits;
    this.procsFiles = [dirs.memory, dirs.pids, dirs.cpuacct].map((dir) => join(dir, "cgroup.procs"));
  }

  setLimits(limits: CgroupLimits): void {
    const memory = join(this.#dirs.memory, "memory.limit_in_bytes");
    // memsw = memory + swap, equal to the memory limit: no swap at all. The kernel keeps
    // memsw >= memory at every step, so raise memsw first and lower it last.
    const memsw = join(this.#dirs.memory, "memory.memsw.limit_in_bytes");
    if (limits.memoryBytes > this.limits.memoryBytes) {
      writeControl(memsw, limits.memoryBytes);
      writeControl(memory, limits.memoryBytes);
    } else if (limits.memoryBytes < this.limits.memoryBytes) {
      writeControl(memory, limits.memoryBytes);
      writeControl(memsw, limits.memoryBytes);
    }
    if (limits.processes !== this.limits.processes) writeControl(join(this.#dirs.pids, "pids.max"), limits.processes);
    this.limits = { ...limits };
  }

  read(): CgroupReadings {
    const errors: string[] = [];
    const { memory, pids, cpuacct } = this.#dirs;
    const oomKills = collect(errors, "memory.oom_control", () => readKeyed(join(memory, "memory.oom_control")).get("oom_kill") ?? NaN);
    return {
      memoryLimitBytes: collect(errors, "memory.limit_in_bytes", () => readNumber(join(memory, "memory.limit_in_bytes"))),
      memoryPeakBytes: collect(errors, "memory.max_usage_in_bytes", () => readNumber(join(memory, "memory.max_usage_in_bytes"))),
      oomEvents: oomKills,
      oomKillEvents: oomKills,
      cpuUsageUsec: Math.round(collect(errors, "cpuacct.usage", () => readNumber(join(cpuacct, "cpuacct.usage"))) / 1000),
      processCount: collect(errors, "pids.current", () => readNumber(join(pids, "pids.current"))),
      processLimit: this.limits.processes,
      pidsLimitHits: collect(errors, "pids.events", () => readKeyed(join(pids, "pids.events")).get("max") ?? NaN),
      errors,
    };
  }

  pids(): number[] {
    return readPids(join(this.#dirs.pids, "cgroup.procs"));
  }

  killAll(): void {
    // No cgroup.kill in v1: kill what is listed until nothing is (forks racing the loop are
    // bounded by pids.max, and the pid namespace's init dying takes the rest).
    for (let round = 0; round < 16; round++) {
      const pids = this.pids();
      if (pids.length === 0) return;
      killPids(pids);
    }
  }

  async destroy(): Promise<void> {
    const results = await Promise.allSettled([this.#dirs.memory, this.#dirs.pids, this.#dirs.cpuacct].map((dir) => rmdir(dir)));
    const failed = results.find((result) => result.status === "rejected" && (result.reason as NodeJS.ErrnoException).code !== "ENOENT");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }
}
