// The sandbox supervisor: slots, per-run cgroups, the launcher, the wall timer, output capture,
// evidence and the verdict. One run = one call to `run()`.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { release } from "node:os";
import { join } from "node:path";
import type { CgroupDriver, CgroupReadings, RunCgroup } from "./cgroup/driver.ts";
import { pairShare, planCpus, type CpuPolicyName, type CpuShare } from "./cgroup/cpu-policy.ts";
import { detectCgroupDriver } from "./cgroup/detect.ts";
import { mountFavorDynmods, unmountFavorDynmods } from "./cgroup/favor-dynmods.ts";
import { CGROUP_CONTROLS, REQUIRED_CONTROLS } from "./controls.ts";
import { failedSetup } from "./failed-setup.ts";
import { HeldSlots } from "./held-slots.ts";
import { ia32Control, probeIa32Entry } from "./ia32.ts";
import { Recovery } from "./recovery.ts";
import { FAVOR_DYNMODS_DIR, isDeadInstance, removeNetns, removeStaleRunDirs } from "./housekeeping.ts";
import { checkRunSpec } from "./run-spec-check.ts";
import { launcherConfig } from "./launcher-config.ts";
import { endedFirst } from "./launcher-report.ts";
import { LAUNCHER_PATH, LIVE_STDIN, LauncherZygote, PAIR_STDIN, launcherProblems, type ProgramSignal } from "./launcher.ts";
import { RUN_LIMITS } from "./limits.ts";
import { launcherPolicyProblem } from "./policy.ts";
import { baseRootLayout, type RootLayout, writeSandboxEtc } from "./rootfs.ts";
import { completeReport, decideRun, findFaults, type LaunchedRun, runRecord } from "./run-outcome.ts";
import { watchRun } from "./run-watch.ts";
import { watchIdleness } from "./idle-watch.ts";
import type { ReadySlot, Slot, SlotRun } from "./slot.ts";
import { reapCgroup, SlotCgroups } from "./slot-cgroups.ts";
import type { SlotQueue } from "./slot-queue.ts";
import { collectOutputFiles, stageRun } from "./staging.ts";
import { StagedFiles, type StagedFile } from "./staged-files.ts";
import type { InteractiveOutcome, RunOutcome, RunSpec } from "./run-spec.ts";

export { REQUIRED_CONTROLS } from "./controls.ts";
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

export interface SandboxHealth {
  ready: boolean;
  reasons: string[];
  /** What works but slower than it should (not a readiness problem). */
  warnings: string[];
  cgroupVersion: "v1" | "v2" | "none";
  kernel: string;
  /** "dedicated" or "shared" once planned (see cgroup/cpu-policy.ts). */
  cpuMode: string;
}

let instanceCounter = 0;

export class Sandbox {
  readonly slots: number;
  readonly #slots: HeldSlots;
  readonly #driver: CgroupDriver | undefined;
  readonly #launcherPath: string;
  readonly #etcDir: string;
  readonly #layout: RootLayout;
  readonly #notReady = new Map<string, string>();
  /** Reasons found at start-up that no retry can fix (they need an operator and a restart). */
  readonly #permanent = new Set<string>();
  /** The canary runs outside whatever job scheduled it: it queues for a slot of its own. */
  readonly #recovery = new Recovery(() => this.#slots.outside(() => this.#recover()));
  #socketPath = "";
  readonly #stagedFiles = new StagedFiles();
  readonly #allSlots: Slot[] = [];
  readonly #cgroups: SlotCgroups;
  #zygote: LauncherZygote | undefined;
  #favorDynmodsPath: string | undefined;
  readonly #warnings: string[] = [];
  /** Controls that hold for every run on this kernel without a step of the launcher's own. */
  readonly #kernelControls: string[] = [];
  #closed = false;
  /** How the slots share the CPUs, and the node's CPUs no slot has (every run's teardown goes there). */
  #cpu: { mode: string; housekeeping: number[] } = { mode: "none", housekeeping: [] };

  private constructor(options: SandboxOptions, driver: CgroupDriver | string) {
    this.slots = options.slots;
    this.#slots = new HeldSlots(options.slots);
    this.#launcherPath = options.launcherPath ?? LAUNCHER_PATH;
    this.#etcDir = join(options.stateDir, "etc");
    this.#layout = baseRootLayout(this.#etcDir);
    if (typeof driver === "string") this.#failPermanently("cgroup", driver);
    else this.#driver = driver;
    this.#cgroups = new SlotCgroups(this.#driver, (reason) => this.#notReady.get(reason));
  }

  static async create(options: SandboxOptions): Promise<Sandbox> {
    const instance = `i${process.pid}-${instanceCounter++}`;
    const parent = `${options.cgroupParent ?? "codecell"}/${instance}`;
    const sandbox = new Sandbox(options, options.cgroupDriver ?? detectCgroupDriver(parent));
    const runDir = sandbox.#prepare(options, instance);
    if (sandbox.#notReady.has("launcher")) return sandbox;
    sandbox.#socketPath = join(runDir, "launcher.sock");
    try {
      sandbox.#zygote = await LauncherZygote.start(sandbox.#socketPath, sandbox.#launcherPath, sandbox.#cpu.housekeeping);
    } catch (error) {
      sandbox.#markNotReady("launcher", `cannot start the launcher: ${(error as Error).message}`);
    }
    if (sandbox.#notReady.size === 0) await sandbox.selfCheck();
    return sandbox;
  }

  #prepare(options: SandboxOptions, instance: string): string {
    const firstId = options.firstId ?? 60_000;
    const launcher = launcherProblems(this.#launcherPath);
    if (launcher.length > 0) this.#failPermanently("launcher", launcher.join("; "));
    else this.#kernelControls.push(ia32Control(probeIa32Entry(this.#launcherPath)));
    const policy = launcher.length > 0 ? null : launcherPolicyProblem(this.#launcherPath);
    if (policy) this.#failPermanently("seccomp", policy);
    const cgroup = this.#driver?.problems() ?? [];
    if (cgroup.length > 0) this.#failPermanently("cgroup", cgroup.join("; "));
    else this.#driver?.removeStaleSiblings(isDeadInstance);
    const cpuShares = this.#planCpu(options.cpuPolicy ?? "auto");
    if (process.getuid?.() !== 0) this.#failPermanently("privileges", "the fleet node must run as root (namespaces, cgroups, pivot_root)");
    removeStaleRunDirs(join(options.stateDir, "run"));
    const runDir = join(options.stateDir, "run", instance);
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    this.#stagedFiles.open(join(runDir, "artifacts"));
    if (this.#driver && this.#notReady.size === 0) {
      this.#favorDynmodsPath = join(runDir, FAVOR_DYNMODS_DIR);
      const problem = mountFavorDynmods(this.#favorDynmodsPath);
      if (problem) this.#warnings.push(problem);
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
    if (this.#notReady.size === 0) this.#createNetns(slot);
    this.#allSlots.push(slot);
    return slot;
  }

  #planCpu(policy: CpuPolicyName): CpuShare[] | undefined {
    if (!this.#driver || this.#notReady.has("cgroup")) return undefined;
    const plan = planCpus(policy, this.slots, () => this.#driver!.cpus());
    if (typeof plan === "string") {
      this.#failPermanently("cpu_isolation", plan);
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
      this.#failPermanently("network_namespace", `cannot create the network namespace of slot ${slot.index}: ${(error as Error).message}`);
    }
  }

  /** The node's one queue for its slots: every run and every service submission waits here. */
  get queue(): SlotQueue {
    return this.#slots.queue;
  }

  health(): SandboxHealth {
    const zygoteProblem = this.#closed ? undefined : this.#zygote?.problem;
    if (zygoteProblem) this.#markNotReady("launcher", zygoteProblem);
    const recovering = this.#notReady.size > 0 ? this.#recovery.status : undefined;
    return {
      ready: this.#notReady.size === 0 && !this.#closed,
      reasons: [...this.#notReady.values(), ...(recovering ? [recovering] : [])],
      warnings: [...this.#warnings],
      cgroupVersion: this.#driver?.version ?? "none",
      kernel: release(),
      cpuMode: this.#cpu.mode,
    };
  }

  #failPermanently(reason: string, message: string): void {
    this.#permanent.add(reason);
    this.#notReady.set(reason, message);
  }

  /** A platform fault found while running: not ready now, and a canary run retried until it passes. */
  #markNotReady(reason: string, message: string): void {
    this.#notReady.set(reason, message);
    if (!this.#permanent.has(reason)) this.#recovery.schedule();
  }

  /** One recovery attempt: a fresh launcher zygote if the old one died, then the canary run. */
  async #recover(): Promise<boolean> {
    if (this.#closed || this.#notReady.size === 0) return true;
    if ([...this.#notReady.keys()].some((reason) => this.#permanent.has(reason))) return true;
    if (!this.#zygote || this.#zygote.problem) {
      await this.#zygote?.close().catch(() => {});
      try {
        this.#zygote = await LauncherZygote.start(this.#socketPath, this.#launcherPath, this.#cpu.housekeeping);
      } catch (error) {
        this.#notReady.set("launcher", `cannot restart the launcher: ${(error as Error).message}`);
        return false;
      }
    }
    const before = [...this.#notReady.keys()];
    if (!(await this.selfCheck())) return false;
    for (const reason of before) this.#notReady.delete(reason);
    return this.#notReady.size === 0;
  }

  /**
   * Runs `true` through the whole sandbox: the node is ready only if every control applies. Its
   * wall limit only bounds a hang: a loaded host must not read as a missing control.
   */
  async selfCheck(): Promise<boolean> {
    const outcome = await this.run({ argv: ["/usr/bin/true"], limits: { ...RUN_LIMITS, wallTimeMs: 30_000 } });
    if (outcome.result.verdict === "AC") {
      this.#notReady.delete("self_check");
      return true;
    }
    this.#markNotReady("self_check", `self-check failed: ${outcome.result.error_message ?? outcome.result.verdict}`);
    return false;
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
    return this.#slots.inSlot((slot) => this.#runInSlot(slot, spec, signal));
  }

  /** Runs `work` as a job holding one slot for all its runs (HeldSlots.inJob). */
  inJob<T>(work: () => Promise<T>): Promise<T> {
    return this.#slots.inJob(work);
  }

  /**
   * A run in the job's slot's partner beside the job's own runs (judge/check-server.ts); `started`
   * gets its cgroup's readings. With shared CPUs it gets half a quota, as an interactive pair's
   * side does: the job and its partner run together take no more than one slot's share.
   */
  runBeside(spec: RunSpec, signal?: AbortSignal, started?: (read: () => CgroupReadings) => void): Promise<RunOutcome> {
    checkRunSpec(spec);
    return this.#slots.inPartner((partner) => this.#runInSlot(partner, spec, signal, started, pairShare(partner.cpu)));
  }

  /** The run as a pipeline of steps; a step that cannot be taken ends it with a fail-closed outcome. */
  async #runInSlot(slot: Slot, spec: RunSpec, signal?: AbortSignal, started?: (read: () => CgroupReadings) => void, cpu = slot.cpu): Promise<RunOutcome> {
    const ready = await this.#readySlot(slot, spec, cpu);
    if ("result" in ready) return ready;
    started?.(() => ready.cgroup.read());
    const staged = stageRun(slot.stagingDir, spec);
    const config = launcherConfig(this.#layout, slot, spec, ready.cgroup, staged);
    const launched = spec.liveStdin ? ready.zygote.launch(config, LIVE_STDIN, spec.liveStdin) : ready.zygote.launch(config, staged.stdinPath);
    return this.#watchToEnd({ slot, spec, cgroup: ready.cgroup, staged, launched }, signal);
  }

  /** An interactive pair (docs/sandbox.md): the program in the job's slot, the interactor in its partner. */
  async runInteractive(program: RunSpec, interactor: RunSpec, signal?: AbortSignal): Promise<InteractiveOutcome> {
    [program, interactor].forEach(checkRunSpec);
    return this.#slots.inPair(async (slot, partner) => {
      const share = pairShare(slot.cpu);
      const programReady = await this.#readySlot(slot, program, share);
      if ("result" in programReady) return { program: programReady, interactor: programReady, programEndedFirst: true };
      const interactorReady = await this.#readySlot(partner, interactor, share);
      if ("result" in interactorReady) {
        this.#cgroups.recycle(slot, program, programReady.cgroup);
        return { program: interactorReady, interactor: interactorReady, programEndedFirst: true };
      }
      const runs = [
        this.#launchPaired(slot, { ...program, stdin: undefined }, programReady, "program"),
        this.#launchPaired(partner, { ...interactor, stdin: undefined }, interactorReady, "interactor"),
      ] as const;
      const idle = watchIdleness(runs.map(({ launched, cgroup }) => ({
        started: () => launched.report.started,
        ended: () => launched.report.exit !== undefined || launched.report.done,
        cpuUsageUsec: () => cgroup.cpuUsageUsec(),
      })));
      const [programRun, interactorRun] = await Promise.all(runs.map((run) => this.#watchToEnd(run, signal, idle.signal)));
      idle.stop();
      const [programReport, interactorReport] = runs.map(({ launched }) => launched.report);
      return { program: programRun!, interactor: interactorRun!, programEndedFirst: endedFirst(programReport!, interactorReport!) };
    });
  }

  /** One side of an interactive pair, launched: its stdin and stdout are the pair's pipes. */
  #launchPaired(slot: Slot, spec: RunSpec, ready: ReadySlot, side: keyof typeof PAIR_STDIN): SlotRun {
    const staged = stageRun(slot.stagingDir, spec);
    const config = { ...launcherConfig(this.#layout, slot, spec, ready.cgroup, staged), stdoutInherit: true };
    return { slot, spec, cgroup: ready.cgroup, staged, launched: ready.zygote.launch(config, PAIR_STDIN[side]) };
  }

  async #readySlot(slot: Slot, spec: RunSpec, cpu = slot.cpu): Promise<ReadySlot | RunOutcome> {
    const cgroup = await this.#setUpCgroup(slot, spec, cpu);
    if ("result" in cgroup) return cgroup;
    const zygote = this.#readyLauncher(slot, spec, cgroup);
    if ("result" in zygote) return zygote;
    return { cgroup, zygote };
  }

  /** Watches a launched run to its end, then reaps its cgroup and judges it. */
  async #watchToEnd(run: SlotRun, signal?: AbortSignal, idle?: AbortSignal): Promise<RunOutcome> {
    const { slot, spec, cgroup, staged, launched } = run;
    const judgeActions: string[] = [];
    const forward = (name: ProgramSignal) => launched.signal(name);
    spec.signals?.on("signal", forward);
    const readUsageUsec = () => cgroup.cpuUsageUsec();
    const watched = await watchRun({ launched, spec, cpu: slot.cpu, readUsageUsec, judgeActions, signal, ...(idle ? { idle } : {}) });
    spec.signals?.off("signal", forward);
    const ended = this.#endRun(slot, spec, cgroup, { report: launched.report, watched, judgeActions });
    const files = await collectOutputFiles(staged, launched.report, spec);
    return { ...this.#judge(ended), ...files };
  }

  async #setUpCgroup(slot: Slot, spec: RunSpec, cpu: CpuShare | undefined): Promise<RunCgroup | RunOutcome> {
    try {
      return await this.#cgroups.take(slot, spec, cpu);
    } catch (error) {
      const message = (error as Error).message;
      this.#markNotReady("cgroup", `cannot create a run cgroup: ${message}`);
      return failedSetup("cgroup", message, CGROUP_CONTROLS, spec.limits);
    }
  }

  #readyLauncher(slot: Slot, spec: RunSpec, cgroup: RunCgroup): LauncherZygote | RunOutcome {
    const zygote = this.#zygote;
    const problem = zygote ? zygote.problem : (this.#notReady.get("launcher") ?? "the launcher is not running");
    if (zygote && !problem) return zygote;
    this.#markNotReady("launcher", problem ?? "the launcher is not running");
    this.#cgroups.recycle(slot, spec, cgroup);
    return failedSetup("launcher", problem ?? "the launcher is not running", [...REQUIRED_CONTROLS], spec.limits);
  }

  /** The launcher is gone: the cgroup's evidence is read, the cgroup reaped and the slot's next one prepared. */
  #endRun(slot: Slot, spec: RunSpec, cgroup: RunCgroup, ended: Pick<LaunchedRun, "report" | "watched" | "judgeActions">): LaunchedRun {
    const { report, watched, judgeActions } = ended;
    completeReport(report, watched);
    const readings = cgroup.read();
    const lifecycle = reapCgroup(cgroup, judgeActions);
    this.#cgroups.recycle(slot, spec, lifecycle.reapStatus === "clean" ? cgroup : undefined);
    if (report.leftover > 0) judgeActions.push("sigkill_leftover_processes");
    return { ...ended, spec, readings, lifecycle, extraControls: [...cgroup.controls, ...this.#kernelControls] };
  }

  /** The verdict and record; a platform fault the run showed makes the node not ready. */
  #judge(run: LaunchedRun): Omit<RunOutcome, "outputFiles" | "outputFileFailures"> {
    const faults = findFaults(run);
    const { setupFailure } = faults;
    if (setupFailure) {
      this.#markNotReady(setupFailure.control, `isolation control ${setupFailure.control} failed: ${setupFailure.message}`);
    } else if (!run.report.done && !this.#closed) {
      // the launcher ended (or never connected) without its last line: a platform fault, checked again
      this.#markNotReady("launcher", `a run's launcher ended without its full report: ${faults.launcherError}`);
    }
    const { stdout, stderr } = run.watched;
    const captured = { stdoutBytes: stdout.bytes(), stderrBytes: stderr.bytes() };
    const result = runRecord(run, faults, decideRun(run, faults), captured);
    return { result, ...captured, discardedBytes: { stdout: stdout.discarded, stderr: stderr.discarded } };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#recovery.close();
    await this.#cgroups.close(this.#allSlots);
    this.#stagedFiles.removeAll();
    for (const slot of this.#allSlots) removeNetns(slot.netnsPath);
    this.#driver?.close();
    await this.#zygote?.close();
    if (this.#favorDynmodsPath) unmountFavorDynmods(this.#favorDynmodsPath);
  }
}
