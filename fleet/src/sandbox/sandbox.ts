// The sandbox supervisor: slots, per-run cgroups, the launcher, the wall timer, output capture,
// evidence and the verdict. One run = one call to `run()`. `Sandbox` composes its readiness
// (readiness.ts: probes, faults, recovery) and the run pipeline (run-pipeline.ts: one run's steps).
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { release } from "node:os";
import { join } from "node:path";
import type { CgroupDriver, CgroupReadings } from "./cgroup/driver.ts";
import { pairShare, planCpus, type CpuPolicyName, type CpuShare } from "./cgroup/cpu-policy.ts";
import { detectCgroupDriver } from "./cgroup/detect.ts";
import { mountFavorDynmods, unmountFavorDynmods } from "./cgroup/favor-dynmods.ts";
import { HeldSlots } from "./held-slots.ts";
import { FAVOR_DYNMODS_DIR, removeNetns, removeStaleRunDirs } from "./housekeeping.ts";
import { checkRunSpec } from "./run-spec-check.ts";
import { LAUNCHER_PATH, LauncherZygote } from "./launcher.ts";
import { RUN_LIMITS } from "./limits.ts";
import { probeHost, Readiness, type SandboxHealth } from "./readiness.ts";
import { baseRootLayout, writeSandboxEtc } from "./rootfs.ts";
import { RunPipeline } from "./run-pipeline.ts";
import type { Slot } from "./slot.ts";
import { SlotCgroups } from "./slot-cgroups.ts";
import type { SlotQueue } from "./slot-queue.ts";
import { StagedFiles, type StagedFile } from "./staged-files.ts";
import type { InteractiveOutcome, RunOutcome, RunSpec } from "./run-spec.ts";

export { REQUIRED_CONTROLS } from "./controls.ts";
export type { SandboxHealth } from "./readiness.ts";
export type { StagedFile } from "./staged-files.ts";

export interface SandboxOptions {
  slots: number;
  /** Host-only state (staging files, persisted network namespaces); never visible to programs. */
  stateDir: string;
  /** Cgroup (in every hierarchy) under which this instance makes its run cgroups. */
  cgroupParent?: string;
  /** uid/gid of slot 0; slot N runs as firstId + N. */
  firstId?: number;
  launcherPath?: string;
  /** How slots share the CPUs (docs/sandbox.md, "CPU isolation"); default auto. */
  cpuPolicy?: CpuPolicyName;
  /** Replaces detection (tests of the fail-closed path use a driver that cannot apply limits). */
  cgroupDriver?: CgroupDriver;
}

let instanceCounter = 0;

export class Sandbox {
  readonly slots: number;
  readonly #slots: HeldSlots;
  readonly #driver: CgroupDriver | undefined;
  readonly #launcherPath: string;
  readonly #etcDir: string;
  readonly #readiness: Readiness;
  readonly #pipeline: RunPipeline;
  #socketPath = "";
  readonly #stagedFiles = new StagedFiles();
  readonly #allSlots: Slot[] = [];
  readonly #cgroups: SlotCgroups;
  #zygote: LauncherZygote | undefined;
  #favorDynmodsPath: string | undefined;
  /** Controls that hold for every run on this kernel without a step of the launcher's own. */
  readonly #kernelControls: string[] = [];
  /** How the slots share the CPUs, and the node's CPUs no slot has (every run's teardown goes there). */
  #cpu: { mode: string; housekeeping: number[] } = { mode: "none", housekeeping: [] };

  private constructor(options: SandboxOptions, driver: CgroupDriver | string) {
    this.slots = options.slots;
    this.#slots = new HeldSlots(options.slots);
    this.#launcherPath = options.launcherPath ?? LAUNCHER_PATH;
    this.#etcDir = join(options.stateDir, "etc");
    this.#readiness = new Readiness({
      restartLauncher: () => this.#restartLauncher(),
      canary: () => this.run({ argv: ["/usr/bin/true"], limits: { ...RUN_LIMITS, wallTimeMs: 30_000 } }),
      outside: (attempt) => this.#slots.outside(attempt),
    });
    if (typeof driver === "string") this.#readiness.failPermanently("cgroup", driver);
    else this.#driver = driver;
    this.#cgroups = new SlotCgroups(this.#driver, (reason) => this.#readiness.problem(reason));
    this.#pipeline = new RunPipeline({
      layout: baseRootLayout(this.#etcDir),
      cgroups: this.#cgroups,
      readiness: this.#readiness,
      kernelControls: this.#kernelControls,
      zygote: () => this.#zygote,
    });
  }

  static async create(options: SandboxOptions): Promise<Sandbox> {
    const instance = `i${process.pid}-${instanceCounter++}`;
    const parent = `${options.cgroupParent ?? "codecell"}/${instance}`;
    const sandbox = new Sandbox(options, options.cgroupDriver ?? detectCgroupDriver(parent));
    const runDir = sandbox.#prepare(options, instance);
    if (sandbox.#readiness.problem("launcher") !== undefined) return sandbox;
    sandbox.#socketPath = join(runDir, "launcher.sock");
    try {
      sandbox.#zygote = await LauncherZygote.start(sandbox.#socketPath, sandbox.#launcherPath, sandbox.#cpu.housekeeping);
    } catch (error) {
      sandbox.#readiness.markNotReady("launcher", `cannot start the launcher: ${(error as Error).message}`);
    }
    if (sandbox.#readiness.faultless) await sandbox.selfCheck();
    return sandbox;
  }

  #prepare(options: SandboxOptions, instance: string): string {
    const firstId = options.firstId ?? 60_000;
    this.#kernelControls.push(...probeHost(this.#readiness, this.#launcherPath, this.#driver));
    const cpuShares = this.#planCpu(options.cpuPolicy ?? "auto");
    if (process.getuid?.() !== 0) {
      this.#readiness.failPermanently("privileges", "the fleet node must run as root (namespaces, cgroups, pivot_root)");
    }
    removeStaleRunDirs(join(options.stateDir, "run"));
    const runDir = join(options.stateDir, "run", instance);
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    this.#stagedFiles.open(join(runDir, "artifacts"));
    if (this.#driver && this.#readiness.faultless) {
      this.#favorDynmodsPath = join(runDir, FAVOR_DYNMODS_DIR);
      const problem = mountFavorDynmods(this.#favorDynmodsPath);
      if (problem) this.#readiness.warnings.push(problem);
    }
    writeSandboxEtc(this.#etcDir, Array.from({ length: 2 * this.slots }, (_, index) => firstId + index));
    for (let index = 0; index < this.slots; index++) {
      const cpu = Array.isArray(cpuShares) ? cpuShares[index] : undefined;
      const slot = this.#newSlot(runDir, index, firstId + index, cpu);
      // An interactor's slot: the same CPU share, everything else its own (uid, netns, staging, cgroups).
      slot.partner = this.#newSlot(runDir, this.slots + index, firstId + this.slots + index, cpu);
      this.#slots.add(slot);
    }
    return runDir;
  }

  #newSlot(runDir: string, index: number, id: number, cpu: CpuShare | undefined): Slot {
    const slot: Slot = { index, id, netnsPath: join(runDir, `netns-${index}`), stagingDir: join(runDir, `staging-${index}`), spares: [], cpu };
    mkdirSync(slot.stagingDir, { mode: 0o700 });
    if (this.#readiness.faultless) this.#createNetns(slot);
    this.#allSlots.push(slot);
    return slot;
  }

  #planCpu(policy: CpuPolicyName): CpuShare[] | undefined {
    if (!this.#driver || this.#readiness.problem("cgroup") !== undefined) return undefined;
    const plan = planCpus(policy, this.slots, () => this.#driver!.cpus());
    if (typeof plan === "string") {
      this.#readiness.failPermanently("cpu_isolation", plan);
      return undefined;
    }
    this.#cpu = { mode: plan.shares[0]?.mode ?? "none", housekeeping: plan.housekeeping };
    return plan.shares;
  }

  /**
   * Each slot keeps one empty network namespace (no interfaces, loopback down) for all its runs:
   * making one per run costs about a millisecond. Nothing outlives a run in it: sockets die with
   * their processes, and an unprivileged program cannot configure the namespace.
   */
  #createNetns(slot: Slot): void {
    try {
      execFileSync(this.#launcherPath, ["--create-netns", slot.netnsPath], { stdio: ["ignore", "ignore", "pipe"], env: {} });
    } catch (error) {
      const message = `cannot create the network namespace of slot ${slot.index}: ${(error as Error).message}`;
      this.#readiness.failPermanently("network_namespace", message);
    }
  }

  /** A fresh launcher zygote when the old one died (a recovery's first step); the problem when it cannot start. */
  async #restartLauncher(): Promise<string | undefined> {
    if (this.#zygote && !this.#zygote.problem) return undefined;
    await this.#zygote?.close().catch(() => {});
    try {
      this.#zygote = await LauncherZygote.start(this.#socketPath, this.#launcherPath, this.#cpu.housekeeping);
      return undefined;
    } catch (error) {
      return `cannot restart the launcher: ${(error as Error).message}`;
    }
  }

  /** The node's one queue for its slots: every run and every service submission waits here. */
  get queue(): SlotQueue {
    return this.#slots.queue;
  }

  health(): SandboxHealth {
    const zygoteProblem = this.#readiness.closed ? undefined : this.#zygote?.problem;
    if (zygoteProblem) this.#readiness.markNotReady("launcher", zygoteProblem);
    return {
      ready: this.#readiness.ready,
      reasons: this.#readiness.reasons(),
      warnings: [...this.#readiness.warnings],
      cgroupVersion: this.#driver?.version ?? "none",
      kernel: release(),
      cpuMode: this.#cpu.mode,
    };
  }

  /** Runs `true` through the whole sandbox: the node is ready only if every control applies (readiness.ts). */
  selfCheck(): Promise<boolean> {
    return this.#readiness.selfCheck();
  }

  /** A compiled program too large for the compile cache, kept for its request only (staged-files.ts). */
  stageFile(content: Uint8Array, executable: boolean): Promise<StagedFile> {
    return this.#stagedFiles.stage(content, executable);
  }

  /**
   * Runs in the slot the calling job holds (a service submission: its compile and tests, one at a
   * time), else waits in the queue for a slot of its own. Rejects at once, before anything runs,
   * when an input file's name is not a safe relative path.
   */
  async run(spec: RunSpec, signal?: AbortSignal): Promise<RunOutcome> {
    checkRunSpec(spec);
    return this.#slots.inSlot((slot) => this.#pipeline.runInSlot(slot, spec, signal));
  }

  /** Runs `work` as a job holding one slot for all its runs (HeldSlots.inJob). */
  inJob<T>(work: () => Promise<T>): Promise<T> {
    return this.#slots.inJob(work);
  }

  /**
   * A run in the job's slot's partner beside the job's own runs (the check server); `started`
   * gets its cgroup's readings. With shared CPUs it gets half a quota, as an interactive pair's
   * side does: the job and its partner run together take no more than one slot's share.
   */
  runBeside(spec: RunSpec, signal?: AbortSignal, started?: (read: () => CgroupReadings) => void): Promise<RunOutcome> {
    checkRunSpec(spec);
    return this.#slots.inPartner((partner) => this.#pipeline.runInSlot(partner, spec, signal, started, pairShare(partner.cpu)));
  }

  /** An interactive pair (docs/sandbox.md): the program in the job's slot, the interactor in its partner. */
  async runInteractive(program: RunSpec, interactor: RunSpec, signal?: AbortSignal): Promise<InteractiveOutcome> {
    [program, interactor].forEach(checkRunSpec);
    return this.#slots.inPair((slot, partner) => this.#pipeline.runPair(slot, partner, program, interactor, signal));
  }

  async close(): Promise<void> {
    if (this.#readiness.closed) return;
    this.#readiness.close();
    await this.#cgroups.close(this.#allSlots);
    this.#stagedFiles.removeAll();
    for (const slot of this.#allSlots) removeNetns(slot.netnsPath);
    this.#driver?.close();
    await this.#zygote?.close();
    if (this.#favorDynmodsPath) unmountFavorDynmods(this.#favorDynmodsPath);
  }
}
