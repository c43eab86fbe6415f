import { mkdirSync, readFileSync } from "node:fs";
import { mkdir, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { CPU_PERIOD_USEC, CPU_WEIGHT_V2, formatCpuList, parseCpuList, quotaUsec, type CpuShare } from "./cpu-policy.ts";
import type { CgroupDriver, CgroupLimits, CgroupReadings, RunCgroup } from "./driver.ts";
import {
  cgroupFilesystemProblem, collect, KeptFiles, ownCgroupPath, readKeyed, readNumber, readPids, removeDirAndEmptyAncestors, removeStaleSiblingDirs,
  writeControl,
} from "./files.ts";

const CONTROLLERS = ["memory", "pids", "cpu", "cpuset"] as const;

/**
 * cgroup v2 (unified): one directory per run. Controllers must be enabled in every ancestor's
 * cgroup.subtree_control; the parent holds no processes (the "no internal processes" rule).
 */
export class CgroupV2Driver implements CgroupDriver {
  readonly version = "v2";
  readonly #mount: string;
  readonly #parent: string;
  readonly #verifyFilesystem: boolean;

  /** `verifyFilesystem: false` only for tests against a fake cgroupfs tree. */
  constructor(mount: string, parent: string, options: { verifyFilesystem?: boolean } = {}) {
    this.#mount = mount;
    this.#parent = parent;
    this.#verifyFilesystem = options.verifyFilesystem ?? true;
  }

  problems(): string[] {
    const problems: string[] = [];
    const notCgroupfs = this.#verifyFilesystem ? cgroupFilesystemProblem(this.#mount, "v2") : undefined;
    if (notCgroupfs) return [`cgroup v2: ${notCgroupfs}`];
    try {
      const available = readFileSync(join(this.#mount, "cgroup.controllers"), "utf8").trim().split(/\s+/);
      for (const controller of CONTROLLERS) {
        if (!available.includes(controller)) problems.push(`cgroup v2: controller ${controller} not available at ${this.#mount}`);
      }
      if (problems.length > 0) return problems;
      const enable = CONTROLLERS.map((controller) => `+${controller}`).join(" ");
      let dir = this.#mount;
      for (const part of this.#parent.split("/").filter(Boolean)) {
        writeControl(join(dir, "cgroup.subtree_control"), enable);
        dir = join(dir, part);
        mkdirSync(dir, { recursive: true });
      }
      writeControl(join(dir, "cgroup.subtree_control"), enable);
    } catch (error) {
      problems.push(`cgroup v2: cannot prepare ${join(this.#mount, this.#parent)}: ${(error as Error).message}`);
    }
    return problems;
  }

  cpus(): number[] {
    return parseCpuList(readFileSync(join(this.#mount, this.#parent, "cpuset.cpus.effective"), "utf8"));
  }

  async create(name: string, limits: CgroupLimits): Promise<RunCgroup> {
    const dir = join(this.#mount, this.#parent, name);
    await mkdir(dir);
    let cgroup: RunCgroupV2 | undefined;
    try {
      writeControl(join(dir, "memory.swap.max"), 0);
      cgroup = new RunCgroupV2(name, dir, { memoryBytes: 0, processes: 0 }, join(this.#mount, ownCgroupPath(""), "cgroup.procs"));
      cgroup.setLimits(limits);
      return cgroup;
    } catch (error) {
      // a cgroup already made holds its kept files: destroy() closes them before the removal
      await (cgroup ? cgroup.destroy() : rmdir(dir));
      throw error;
    }
  }

  removeStaleSiblings(isStale: (name: string) => boolean): void {
    removeStaleSiblingDirs(join(this.#mount, this.#parent), isStale);
  }

  close(): void {
    removeDirAndEmptyAncestors(this.#mount, this.#parent);
  }
}

class RunCgroupV2 implements RunCgroup {
  readonly name: string;
  readonly procsFiles: string[];
  /** The drainer (the launcher) and init share the one directory; pids.max is two above the program's budget for them. */
  readonly drainerProcsFiles: string[];
  readonly drainerReturnProcsFiles: string[];
  readonly initReturnProcsFiles: string[];
  readonly controls = ["memory_limit", "swap_disabled", "process_limit", "cpu_accounting"];
  readonly #dir: string;
  readonly #files: KeptFiles;
  limits: CgroupLimits;

  constructor(name: string, dir: string, limits: CgroupLimits, returnProcsFile: string) {
    this.name = name;
    this.#dir = dir;
    this.limits = limits;
    this.procsFiles = [join(dir, "cgroup.procs")];
    this.drainerProcsFiles = this.procsFiles;
    this.drainerReturnProcsFiles = [returnProcsFile];
    this.initReturnProcsFiles = [returnProcsFile];
    this.#files = new KeptFiles(["memory.events", "memory.max", "memory.peak", "cpu.stat", "pids.current", "pids.events"].map((file) => join(dir, file)));
  }

  setLimits(limits: CgroupLimits): void {
    if (limits.memoryBytes !== this.limits.memoryBytes) writeControl(join(this.#dir, "memory.max"), limits.memoryBytes);
    if (limits.processes !== this.limits.processes) writeControl(join(this.#dir, "pids.max"), limits.processes + 2);
    if (limits.cpu && limits.cpu !== this.limits.cpu) this.#applyCpu(limits.cpu);
    this.limits = { ...limits };
  }

  #applyCpu(share: CpuShare): void {
    writeControl(join(this.#dir, "cpuset.cpus"), formatCpuList(share.cpus));
    writeControl(join(this.#dir, "cpu.weight"), CPU_WEIGHT_V2);
    writeControl(join(this.#dir, "cpu.max"), `${quotaUsec(share) ?? "max"} ${CPU_PERIOD_USEC}`);
    if (!this.controls.includes("cpu_isolation")) this.controls.push("cpu_isolation");
  }

  read(): CgroupReadings {
    const errors: string[] = [];
    const file = (name: string) => join(this.#dir, name);
    const read = this.#files.read;
    const events = (() => {
      try {
        return readKeyed(file("memory.events"), read);
      } catch (error) {
        errors.push(`memory.events: ${(error as Error).message}`);
        return new Map<string, number>();
      }
    })();
    return {
      memoryLimitBytes: collect(errors, "memory.max", () => readNumber(file("memory.max"), read)),
      memoryPeakBytes: collect(errors, "memory.peak", () => readNumber(file("memory.peak"), read)),
      oomEvents: collect(errors, "memory.events oom", () => events.get("oom") ?? NaN),
      oomKillEvents: collect(errors, "memory.events oom_kill", () => events.get("oom_kill") ?? NaN),
      cpuUsageUsec: collect(errors, "cpu.stat", () => this.cpuUsageUsec()),
      processCount: collect(errors, "pids.current", () => readNumber(file("pids.current"), read)),
      processLimit: this.limits.processes,
      pidsLimitHits: collect(errors, "pids.events", () => readKeyed(file("pids.events"), read).get("max") ?? NaN),
      errors,
    };
  }

  cpuUsageUsec(): number {
    const usage = readKeyed(join(this.#dir, "cpu.stat"), this.#files.read).get("usage_usec");
    if (usage === undefined || !Number.isFinite(usage)) throw new Error("cpu.stat has no usage_usec");
    return usage;
  }

  pids(): number[] {
    return readPids(join(this.#dir, "cgroup.procs"));
  }

  killAll(): void {
    writeControl(join(this.#dir, "cgroup.kill"), 1);
  }

  async destroy(): Promise<void> {
    this.#files.close();
    await rmdir(this.#dir);
  }
}
