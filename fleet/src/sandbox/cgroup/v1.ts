import { mkdirSync, readFileSync } from "node:fs";
import { mkdir, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CPU_PERIOD_USEC, CPU_SHARES_V1, formatCpuList, NODE_CORES, parseCpuList, quotaUsec, type CpuShare } from "./cpu-policy.ts";
import type { CgroupDriver, CgroupLimits, CgroupReadings, RunCgroup } from "./driver.ts";
import {
  cgroupFilesystemProblem, collect, KeptFiles, killPids, ownCgroupPath, readKeyed, readNumber, readPids, removeDirAndEmptyAncestors,
  removeStaleSiblingDirs, writeControl,
} from "./files.ts";

/**
 * The kernel charges a cgroup's memory in batches of 64 pages and keeps what a batch has not used
 * yet on the CPU that charged it, counted in `memory.usage_in_bytes`: up to this much per CPU stays
 * charged to an emptied cgroup, and the next run's first pages are taken from it.
 */
const CHARGE_BATCH_BYTES = 64 * 4096;

/**
 * The most a used cgroup may still have charged and be reused for the slot's next run: the unused
 * charge batches of the CPUs it ran on, and the kernel objects and the few pages a run leaves
 * (tens of KiB of dentries and inodes). More, and the cgroup is removed instead.
 */
export const REUSE_LEFTOVER_MAX_BYTES = NODE_CORES * CHARGE_BATCH_BYTES + 256 * 1024;

/**
 * The pages a used cgroup may still hold after force_empty (a few being written back or briefly
 * in use when it ran) and be reused. More is a tmpfs of the run not torn down yet.
 */
const PAGES_LEFTOVER_MAX_BYTES = 256 * 1024;

/** Pages charged to a v1 memory cgroup, in its memory.stat: page cache (tmpfs too), anonymous (huge pages too), swapped. */
const PAGE_KEYS = ["cache", "rss", "swap"];

/** Mount points of the v1 hierarchies this driver needs, e.g. { memory: "/sys/fs/cgroup/memory" }. */
export interface V1Mounts {
  memory: string;
  pids: string;
  cpuacct: string;
  /** cpu (shares, CFS quota) and cpuset: required for CPU isolation; problems() says when absent. */
  cpu?: string;
  cpuset?: string;
}

/** One directory per distinct mount point (co-mounted controllers such as cpu,cpuacct share one). */
function distinctMounts(mounts: V1Mounts): string[] {
  return [...new Set(Object.values(mounts).filter((mount): mount is string => typeof mount === "string"))];
}

/**
 * cgroup v1: memory, pids, cpuacct, cpu and cpuset live in separate hierarchies, so a run's
 * cgroup is one directory per hierarchy with the same relative path. There is no cgroup.kill and
 * no OOM event counter separate from oom_kill; see docs/sandbox.md.
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
    if (!this.#mounts.cpu) problems.push("cgroup v1: no cpu hierarchy (needed for CPU shares and quotas)");
    if (!this.#mounts.cpuset) problems.push("cgroup v1: no cpuset hierarchy (needed for dedicated cores)");
    for (const [controller, mount] of Object.entries(this.#mounts)) {
      const notCgroupfs = cgroupFilesystemProblem(mount, "v1");
      if (notCgroupfs) {
        problems.push(`cgroup v1 ${controller}: ${notCgroupfs}`);
        continue;
      }
      try {
        if (controller === "cpuset") prepareCpusetChain(mount, this.#parent);
        else mkdirSync(join(mount, this.#parent), { recursive: true });
      } catch (error) {
        problems.push(`cgroup v1 ${controller}: cannot create ${join(mount, this.#parent)}: ${(error as Error).message}`);
      }
    }
    return problems;
  }

  cpus(): number[] {
    if (!this.#mounts.cpuset) return [];
    return parseCpuList(readFileSync(join(this.#mounts.cpuset, this.#parent, "cpuset.effective_cpus"), "utf8"));
  }

  async create(name: string, limits: CgroupLimits): Promise<RunCgroup> {
    const dirs = distinctMounts(this.#mounts).map((mount) => join(mount, this.#parent, name));
    const made = await Promise.allSettled(dirs.map((dir) => mkdir(dir)));
    let cgroup: RunCgroupV1 | undefined;
    try {
      for (const result of made) if (result.status === "rejected") throw result.reason;
      const at = (mount: string | undefined) => (mount ? join(mount, this.#parent, name) : undefined);
      cgroup = new RunCgroupV1(name, dirs, {
        memory: at(this.#mounts.memory)!,
        pids: at(this.#mounts.pids)!,
        cpuacct: at(this.#mounts.cpuacct)!,
        cpu: at(this.#mounts.cpu),
        cpuset: at(this.#mounts.cpuset),
      }, this.#mounts);
      writeControl(join(cgroup.dirs.memory, "memory.swappiness"), 0);
      cgroup.setLimits(limits);
      return cgroup;
    } catch (error) {
      // a cgroup already made holds its kept files: destroy() closes them before the removal
      const created = dirs.filter((_, index) => made[index]?.status === "fulfilled");
      await (cgroup ? cgroup.destroy().catch(() => {}) : Promise.allSettled(created.map((dir) => rmdir(dir))));
      throw error;
    }
  }

  removeStaleSiblings(isStale: (name: string) => boolean): void {
    for (const mount of distinctMounts(this.#mounts)) removeStaleSiblingDirs(join(mount, this.#parent), isStale);
  }

  close(): void {
    for (const mount of distinctMounts(this.#mounts)) removeDirAndEmptyAncestors(mount, this.#parent);
  }
}

/**
 * A v1 cpuset cgroup accepts no task until its cpuset.cpus and cpuset.mems are set, and a new one
 * starts empty (cgroup.clone_children is 0 by default): copy them down from the parent at each level.
 */
function prepareCpusetChain(mount: string, parent: string): void {
  let dir = mount;
  for (const part of parent.split("/").filter(Boolean)) {
    const child = join(dir, part);
    mkdirSync(child, { recursive: true });
    for (const file of ["cpuset.cpus", "cpuset.mems"]) {
      if (readFileSync(join(child, file), "utf8").trim() === "") writeControl(join(child, file), readFileSync(join(dir, file), "utf8").trim());
    }
    dir = child;
  }
}

class RunCgroupV1 implements RunCgroup {
  readonly name: string;
  readonly procsFiles: string[];
  readonly drainerProcsFiles: string[];
  readonly drainerReturnProcsFiles: string[];
  readonly initReturnProcsFiles: string[];
  readonly controls = ["memory_limit", "swap_disabled", "process_limit", "cpu_accounting"];
  readonly #all: string[];
  readonly #files: KeptFiles;
  /** The monotonic counters' values when this cgroup was last made ready for a run: that run's zero. */
  #baseline = { oomKills: 0, pidsLimitHits: 0 };
  readonly dirs: { memory: string; pids: string; cpuacct: string; cpu: string | undefined; cpuset: string | undefined };
  limits: CgroupLimits;

  constructor(name: string, all: string[], dirs: RunCgroupV1["dirs"], mounts: V1Mounts) {
    this.name = name;
    this.#all = all;
    this.dirs = dirs;
    this.limits = { memoryBytes: Number.POSITIVE_INFINITY, processes: 0 };
    this.procsFiles = all.map((dir) => join(dir, "cgroup.procs"));
    // the launcher drains the output: it joins the run's CPU hierarchies (cpu, cpuacct, cpuset)
    const cpuHierarchies = (["cpu", "cpuacct", "cpuset"] as const).filter((controller, index, list) => {
      const mount = mounts[controller];
      return mount && mount !== mounts.pids && mount !== mounts.memory && list.findIndex((other) => mounts[other] === mount) === index;
    });
    this.drainerProcsFiles = cpuHierarchies.map((controller) => join(dirs[controller]!, "cgroup.procs"));
    const own = readFileSync("/proc/self/cgroup", "utf8"); // the node's own cgroups, read once for all eight paths
    this.drainerReturnProcsFiles = cpuHierarchies.map((controller) => join(mounts[controller]!, ownCgroupPath(controller, own), "cgroup.procs"));
    // the run's init is in every hierarchy while the program lives, and returns to the node's own
    const controllerOf = (mount: string) => (Object.keys(mounts) as (keyof V1Mounts)[]).find((controller) => mounts[controller] === mount)!;
    this.initReturnProcsFiles = distinctMounts(mounts).map((mount) => join(mount, ownCgroupPath(controllerOf(mount), own), "cgroup.procs"));
    const { memory, pids, cpuacct } = dirs;
    this.#files = new KeptFiles([
      ...["memory.oom_control", "memory.limit_in_bytes", "memory.max_usage_in_bytes", "memory.usage_in_bytes", "memory.stat"].map((file) => join(memory, file)),
      ...["pids.current", "pids.events"].map((file) => join(pids, file)),
      join(cpuacct, "cpuacct.usage"),
    ]);
  }

  setLimits(limits: CgroupLimits): void {
    const memory = join(this.dirs.memory, "memory.limit_in_bytes");
    // memsw = memory + swap, equal to the memory limit: no swap at all. The kernel keeps
    // memsw >= memory at every step, so raise memsw first and lower it last.
    const memsw = join(this.dirs.memory, "memory.memsw.limit_in_bytes");
    if (limits.memoryBytes > this.limits.memoryBytes) {
      writeControl(memsw, limits.memoryBytes);
      writeControl(memory, limits.memoryBytes);
    } else if (limits.memoryBytes < this.limits.memoryBytes) {
      writeControl(memory, limits.memoryBytes);
      writeControl(memsw, limits.memoryBytes);
    }
    // one above the program's budget: the run's init is in it while the program lives
    if (limits.processes !== this.limits.processes) writeControl(join(this.dirs.pids, "pids.max"), limits.processes + 1);
    if (limits.cpu && limits.cpu !== this.limits.cpu) this.#applyCpu(limits.cpu);
    this.limits = { ...limits };
  }

  #applyCpu(share: CpuShare): void {
    const { cpu, cpuset } = this.dirs;
    if (!cpu || !cpuset) throw new Error("cpu isolation needs the cpu and cpuset hierarchies");
    const parentCpuset = join(cpuset, "..");
    writeControl(join(cpuset, "cpuset.mems"), readFileSync(join(parentCpuset, "cpuset.mems"), "utf8").trim());
    writeControl(join(cpuset, "cpuset.cpus"), formatCpuList(share.cpus));
    writeControl(join(cpu, "cpu.shares"), CPU_SHARES_V1);
    writeControl(join(cpu, "cpu.cfs_period_us"), CPU_PERIOD_USEC);
    writeControl(join(cpu, "cpu.cfs_quota_us"), quotaUsec(share) ?? -1);
    if (!this.controls.includes("cpu_isolation")) this.controls.push("cpu_isolation");
  }

  read(): CgroupReadings {
    const errors: string[] = [];
    const { memory } = this.dirs;
    const read = this.#files.read;
    const oomKills = collect(errors, "memory.oom_control", () => this.#oomKills() - this.#baseline.oomKills);
    return {
      memoryLimitBytes: collect(errors, "memory.limit_in_bytes", () => readNumber(join(memory, "memory.limit_in_bytes"), read)),
      memoryPeakBytes: collect(errors, "memory.max_usage_in_bytes", () => readNumber(join(memory, "memory.max_usage_in_bytes"), read)),
      oomEvents: oomKills,
      oomKillEvents: oomKills,
      cpuUsageUsec: collect(errors, "cpuacct.usage", () => this.cpuUsageUsec()),
      processCount: collect(errors, "pids.current", () => readNumber(join(this.dirs.pids, "pids.current"), read)),
      processLimit: this.limits.processes,
      pidsLimitHits: collect(errors, "pids.events", () => this.#pidsLimitHits() - this.#baseline.pidsLimitHits),
      errors,
    };
  }

  #oomKills(): number {
    return readKeyed(join(this.dirs.memory, "memory.oom_control"), this.#files.read).get("oom_kill") ?? NaN;
  }

  #pidsLimitHits(): number {
    return readKeyed(join(this.dirs.pids, "pids.events"), this.#files.read).get("max") ?? NaN;
  }

  /**
   * Readies this used, empty cgroup for the slot's next run instead of a removal and a new one,
   * whose five mkdirs and rmdirs cost the node about 2 ms a run: pages the run left charged here
   * are reclaimed, the peak and CPU usage restart from now, and the OOM-kill and pids.max
   * counters, which only grow, are read as the next run's zero. False when pages stay charged
   * past PAGES_LEFTOVER_MAX_BYTES or more than REUSE_LEFTOVER_MAX_BYTES does, or a file refuses:
   * the caller removes it.
   */
  async reuse(): Promise<boolean> {
    const { memory, cpuacct } = this.dirs;
    try {
      // force_empty drains every CPU's LRU batches and waits for it (about 1 ms here, and a
      // stop on every core, other slots' too): only when there are pages to reclaim
      if (this.#chargedPageBytes() > 0) {
        await writeFile(join(memory, "memory.force_empty"), "0");
        if (this.#chargedPageBytes() > PAGES_LEFTOVER_MAX_BYTES) return false;
      }
      if (readNumber(join(memory, "memory.usage_in_bytes"), this.#files.read) > REUSE_LEFTOVER_MAX_BYTES) return false;
      writeControl(join(memory, "memory.max_usage_in_bytes"), 0);
      writeControl(join(cpuacct, "cpuacct.usage"), 0);
      const baseline = { oomKills: this.#oomKills(), pidsLimitHits: this.#pidsLimitHits() };
      if (!Number.isFinite(baseline.oomKills) || !Number.isFinite(baseline.pidsLimitHits)) return false;
      this.#baseline = baseline;
      return true;
    } catch {
      return false;
    }
  }

  #chargedPageBytes(): number {
    const stat = readKeyed(join(this.dirs.memory, "memory.stat"), this.#files.read);
    return PAGE_KEYS.reduce((sum, key) => sum + (stat.get(key) ?? 0), 0);
  }

  cpuUsageUsec(): number {
    return Math.round(readNumber(join(this.dirs.cpuacct, "cpuacct.usage"), this.#files.read) / 1000);
  }

  /** The program's processes (the pids hierarchy holds them all; of the launcher's, only init while the program lives). */
  pids(): number[] {
    return readPids(join(this.dirs.pids, "cgroup.procs"));
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
    this.#files.close();
    const results = await Promise.allSettled(this.#all.map((dir) => rmdir(dir)));
    const failed = results.find((result) => result.status === "rejected" && (result.reason as NodeJS.ErrnoException).code !== "ENOENT");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }
}
