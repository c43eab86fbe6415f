// The sandbox supervisor: slots, per-run cgroups, the launcher, the wall timer, output capture,
// evidence and the verdict. One run = one call to `run()`.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, release } from "node:os";
import { join } from "node:path";
import type { CgroupDriver, CgroupLimits, CgroupReadings, RunCgroup } from "./cgroup/driver.ts";
import { planCpuShares, type CpuPolicyName, type CpuShare } from "./cgroup/cpu-policy.ts";
import { detectCgroupDriver } from "./cgroup/detect.ts";
import { mountFavorDynmods, unmountFavorDynmods } from "./cgroup/favor-dynmods.ts";
import { failedSetup } from "./failed-setup.ts";
import { ia32Control, probeIa32Entry } from "./ia32.ts";
import { filesFault, programFault } from "./program-fault.ts";
import { Recovery } from "./recovery.ts";
import { FAVOR_DYNMODS_DIR, isDeadInstance, removeNetns, removeStaleRunDirs, unlinkIfPresent } from "./housekeeping.ts";
import { busyCoresBound, checkCpuLimit, CpuWatch } from "./cpu-watch.ts";
import { buildEvidence } from "./evidence.ts";
import { checkInputFiles } from "./input-files.ts";
import { LAUNCHER_PATH, LauncherZygote, launcherProblems, type LauncherConfig, type LauncherReport } from "./launcher.ts";
import { RUN_LIMITS } from "./limits.ts";
import { launcherPolicyProblem } from "./policy.ts";
import { readFileNoFollowAsync, writeNewFileNoFollow, writeNewFileNoFollowAsync } from "./nofollow.ts";
import { capEncodedSize, CappedCapture, ENCODED_OUTPUT_FACTOR, outputIntegrity } from "./output.ts";
import { BASE_ENV, baseRootLayout, type RootLayout, writeSandboxEtc } from "./rootfs.ts";
import type { ExecutionRecord, RunOutcome, RunSpec } from "./types.ts";
import { decideVerdict } from "./verdict.ts";

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

/** Every control the launcher must report before a program may count as isolated. */
export const REQUIRED_CONTROLS = [
  "pid_namespace", "mount_namespace", "network_namespace", "ipc_namespace", "uts_namespace", "cgroup",
  "root_filesystem", "proc", "dev", "work_dir", "tmp", "rlimits", "uid_gid", "capabilities",
  "no_new_privileges", "seccomp", "environment", "output_drain", "session", "cgroup_namespace", "time_namespace",
  "proc_masks",
];

const SETUP_TIMEOUT_MS = 10_000;
let instanceCounter = 0;

/** A file kept on the host for as long as its owner needs it, bound read-only into runs. */
export interface StagedFile {
  path: string;
  /** Removes the file (idempotent). */
  release(): void;
}

interface Slot {
  index: number;
  id: number;
  netnsPath: string;
  stagingDir: string;
  /** A cgroup made ahead of time so the next run does not wait for mkdir. */
  spare: RunCgroup | undefined;
  /** The slot's CPU controls, written into each of its run cgroups. */
  cpu: CpuShare | undefined;
}

export class Sandbox {
  readonly slots: number;
  readonly #driver: CgroupDriver | undefined;
  readonly #launcherPath: string;
  readonly #etcDir: string;
  readonly #layout: RootLayout;
  readonly #free: Slot[] = [];
  readonly #waiters: ((slot: Slot) => void)[] = [];
  readonly #notReady = new Map<string, string>();
  /** Reasons found at start-up that no retry can fix (they need an operator and a restart). */
  readonly #permanent = new Set<string>();
  readonly #recovery = new Recovery(() => this.#recover());
  #socketPath = "";
  /** Files staged for binds (stageFile), outside every slot's staging and every run's /box. */
  #stagedDir = "";
  #stagedCounter = 0;
  readonly #staged = new Set<string>();
  readonly #allSlots: Slot[] = [];
  readonly #busyCgroups = new Set<RunCgroup>();
  /** Cgroup removals and spare creations still running in the background. */
  readonly #housekeeping = new Set<Promise<void>>();
  #runCounter = 0;
  #zygote: LauncherZygote | undefined;
  #favorDynmodsPath: string | undefined;
  readonly #warnings: string[] = [];
  /** Controls that hold for every run on this kernel without a step of the launcher's own. */
  readonly #kernelControls: string[] = [];
  #closed = false;
  #cpuMode = "none";

  private constructor(options: SandboxOptions, driver: CgroupDriver | string) {
    this.slots = options.slots;
    this.#launcherPath = options.launcherPath ?? LAUNCHER_PATH;
    this.#etcDir = join(options.stateDir, "etc");
    this.#layout = baseRootLayout(this.#etcDir);
    if (typeof driver === "string") this.#failPermanently("cgroup", driver);
    else this.#driver = driver;
  }

  static async create(options: SandboxOptions): Promise<Sandbox> {
    const instance = `i${process.pid}-${instanceCounter++}`;
    const parent = `${options.cgroupParent ?? "codecell"}/${instance}`;
    const sandbox = new Sandbox(options, options.cgroupDriver ?? detectCgroupDriver(parent));
    const runDir = sandbox.#prepare(options, instance);
    if (sandbox.#notReady.has("launcher")) return sandbox;
    sandbox.#socketPath = join(runDir, "launcher.sock");
    try {
      sandbox.#zygote = await LauncherZygote.start(sandbox.#socketPath, sandbox.#launcherPath);
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
    this.#stagedDir = join(runDir, "artifacts");
    mkdirSync(this.#stagedDir, { mode: 0o700 });
    if (this.#driver && this.#notReady.size === 0) {
      this.#favorDynmodsPath = join(runDir, FAVOR_DYNMODS_DIR);
      const problem = mountFavorDynmods(this.#favorDynmodsPath);
      if (problem) this.#warnings.push(problem);
    }
    writeSandboxEtc(this.#etcDir, Array.from({ length: this.slots }, (_, index) => firstId + index));
    for (let index = 0; index < this.slots; index++) {
      const slot: Slot = {
        index,
        id: firstId + index,
        netnsPath: join(runDir, `netns-${index}`),
        stagingDir: join(runDir, `staging-${index}`),
        spare: undefined,
        cpu: Array.isArray(cpuShares) ? cpuShares[index] : undefined,
      };
      mkdirSync(slot.stagingDir, { mode: 0o700 });
      if (this.#notReady.size === 0) this.#createNetns(slot);
      this.#allSlots.push(slot);
      this.#free.push(slot);
    }
    return runDir;
  }

  #planCpu(policy: CpuPolicyName): CpuShare[] | undefined {
    if (!this.#driver || this.#notReady.has("cgroup")) return undefined;
    let plan: CpuShare[] | string;
    try {
      plan = planCpuShares(policy, this.slots, this.#driver.cpus());
    } catch (error) {
      plan = `cannot read the usable CPUs: ${(error as Error).message}`;
    }
    if (typeof plan === "string") {
      this.#failPermanently("cpu_isolation", plan);
      return undefined;
    }
    this.#cpuMode = plan[0]?.mode ?? "none";
    return plan;
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
      cpuMode: this.#cpuMode,
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
        this.#zygote = await LauncherZygote.start(this.#socketPath, this.#launcherPath);
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

  /** Runs `true` through the whole sandbox: the node is ready only if every control applies. */
  async selfCheck(): Promise<boolean> {
    const outcome = await this.run({ argv: ["/usr/bin/true"], limits: { ...RUN_LIMITS, wallTimeMs: 5_000 } });
    if (outcome.result.verdict === "AC") {
      this.#notReady.delete("self_check");
      return true;
    }
    this.#markNotReady("self_check", `self-check failed: ${outcome.result.error_message ?? outcome.result.verdict}`);
    return false;
  }

  /**
   * Keeps `content` in a new host file outside every run's /box (in the instance's private run
   * directory, 0700, which the next start removes if this process dies) until `release()`: a
   * compiled program too large for the compile cache is bound read-only from here, like a cached
   * one, instead of taking room in a work dir it may not fit. Throws if the host cannot write it.
   */
  async stageFile(content: Uint8Array, executable: boolean): Promise<StagedFile> {
    const path = join(this.#stagedDir, `staged-${this.#stagedCounter++}`);
    try {
      await writeNewFileNoFollowAsync(path, content, executable ? 0o755 : 0o644);
    } catch (error) {
      // a partial write (the host's disk full) is removed; a name that was there is not ours
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") rmSync(path, { force: true });
      throw error;
    }
    this.#staged.add(path);
    return {
      path,
      release: () => {
        if (!this.#staged.delete(path)) return;
        unlinkIfPresent(path);
      },
    };
  }

  /** Rejects at once, before anything runs, when an input file's name is not a safe relative path. */
  async run(spec: RunSpec, signal?: AbortSignal): Promise<RunOutcome> {
    checkInputFiles(spec.files ?? []);
    checkCpuLimit(spec.limits.cpuTimeMs);
    const slot = await this.#acquire();
    try {
      return await this.#runInSlot(slot, spec, signal);
    } finally {
      this.#release(slot);
    }
  }

  async #runInSlot(slot: Slot, spec: RunSpec, signal?: AbortSignal): Promise<RunOutcome> {
    const { limits } = spec;
    const judgeActions: string[] = [];
    const cgroupControls: string[] = [];
    let cgroup: RunCgroup;
    try {
      cgroup = await this.#takeCgroup(slot, spec);
      cgroupControls.push(...cgroup.controls);
    } catch (error) {
      const message = (error as Error).message;
      this.#markNotReady("cgroup", `cannot create a run cgroup: ${message}`);
      return failedSetup("cgroup", message, ["memory_limit", "process_limit", "cpu_accounting", "cpu_isolation"], limits);
    }
    const zygote = this.#zygote;
    const zygoteProblem = zygote ? zygote.problem : (this.#notReady.get("launcher") ?? "the launcher is not running");
    if (!zygote || zygoteProblem) {
      this.#markNotReady("launcher", zygoteProblem ?? "the launcher is not running");
      this.#recycle(slot, spec, cgroup);
      return failedSetup("launcher", zygoteProblem ?? "the launcher is not running", [...REQUIRED_CONTROLS], limits);
    }
    const staged = this.#stage(slot, spec);
    const launched = zygote.launch(this.#launcherConfig(slot, spec, cgroup, staged.copyIn, staged.copyOut), staged.stdinPath);
    const onOutput = spec.onOutput;
    const stdout = new CappedCapture(launched.stdout, limits.outputBytes, onOutput && ((data) => onOutput("stdout", data)));
    const stderr = new CappedCapture(launched.stderr, limits.outputBytes, onOutput && ((data) => onOutput("stderr", data)));

    /** The supervisor's wall timer expired before the launcher's streams ended (see wallTimeout below). */
    let wallTimerExpired = false;
    let cpuKilled = false;
    let cpuUnreadable: string | undefined;
    let cancelled = false;
    /** The launcher's streams have all closed: nothing is left to kill, and no action may change the verdict. */
    let ended = false;
    const stop = (action: string) => {
      if (ended) return;
      judgeActions.push(action);
      launched.kill();
    };
    const setupTimer = setTimeout(
      () => afterPendingIo(() => {
        if (!launched.report.started) stop("sigkill_on_setup_timeout");
      }),
      SETUP_TIMEOUT_MS,
    );
    let wallTimer: NodeJS.Timeout | undefined;
    const cpuWatch = new CpuWatch({
      limitMs: limits.cpuTimeMs,
      cores: busyCoresBound(slot.cpu, availableParallelism()),
      readUsageUsec: () => cgroup.cpuUsageUsec(),
      onExceeded: () => {
        if (wallTimerExpired || cancelled) return;
        cpuKilled = true;
        stop("sigkill_on_cpu_limit");
      },
      onUnreadable: (message) => {
        cpuUnreadable = `the run's CPU usage could not be read, so its CPU-time limit could not be enforced: ${message}`;
        stop("sigkill_on_cpu_accounting_failure");
      },
    });
    launched.onStarted(() => {
      clearTimeout(setupTimer);
      wallTimer = setTimeout(() => {
        if (cpuKilled) return;
        wallTimerExpired = true;
        afterPendingIo(() => {
          // already ended by itself (its end was waiting in the socket): init's clock judges it
          if (!cpuKilled && !launched.report.exit) stop("sigkill_on_wall_timeout");
        });
      }, limits.wallTimeMs);
      cpuWatch.start();
    });
    const onAbort = () => {
      cancelled = true;
      stop("sigkill_on_cancel");
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });

    await launched.finished;
    ended = true;
    clearTimeout(setupTimer);
    clearTimeout(wallTimer);
    cpuWatch.stop();
    signal?.removeEventListener("abort", onAbort);
    await Promise.all([stdout.done, stderr.done]);
    stdout.closeTap();
    stderr.closeTap();

    const report = launched.report;
    stdout.setWrittenTotal(report.outputTotals.out);
    stderr.setWrittenTotal(report.outputTotals.err);
    // Killing the sandbox kills its init, and with it every process of the pid namespace, so
    // init never reports the program's end: it is the SIGKILL the supervisor caused.
    if (!report.exit && report.killed && report.started) report.exit = { kind: "signaled", signal: 9 };
    const readings = cgroup.read();
    const lifecycle = this.#reapCgroup(cgroup, judgeActions);
    this.#recycle(slot, spec, lifecycle.reapStatus === "clean" ? cgroup : undefined);

    const outputFiles = new Map<string, Uint8Array>();
    const outputFileFailures = new Map<string, { reason: string; size?: number }>();
    for (const [name, hostPath] of staged.copyOut) {
      const copied = report.copyOuts.get(name);
      if (copied && "bytes" in copied) {
        const maxBytes = spec.outputFiles?.find((file) => file.name === name)?.maxBytes ?? 0;
        outputFiles.set(name, await readFileNoFollowAsync(hostPath, maxBytes));
      } else if (copied) {
        outputFileFailures.set(name, copied);
      }
    }
    for (const file of [...staged.created, ...staged.copyOut.values()]) unlinkIfPresent(file);

    if (report.leftover > 0) judgeActions.push("sigkill_leftover_processes");
    // The request's files did not fit /box, or their names clash: theirs, nothing ran (program-fault.ts).
    const filesNotPlaced = filesFault(report.failure, limits.workDirBytes);
    const notRunnable = programFault(report.failure, spec.argv[0]);
    // The environment is applied by execve itself: a refused exec leaves it the only one unapplied.
    const missing = REQUIRED_CONTROLS.filter((control) => !report.applied.includes(control) && !(notRunnable && control === "environment"));
    const launcherError = launcherInternalError(report, readings);
    const internalError = cpuUnreadable ?? launcherError;
    // A control that failed, or a program that started without every control reported applied.
    // Only a complete report ("done") can show a control missing: a report cut short (the
    // launcher lost) says nothing about the controls it did not get to, and is an internal error.
    const setupFailure = notRunnable || filesNotPlaced
      ? undefined
      : report.failure
      ? { control: report.failure.control === "box_files" ? "work_dir" : report.failure.control, message: report.failure.message }
      : report.started && report.done && missing.length > 0
        ? { control: missing[0]!, message: "not reported as applied" }
        : undefined;
    if (setupFailure) {
      this.#markNotReady(setupFailure.control, `isolation control ${setupFailure.control} failed: ${setupFailure.message}`);
    } else if (!report.done && !this.#closed) {
      // the launcher ended (or never connected) without its last line: a platform fault, checked again
      this.#markNotReady("launcher", `a run's launcher ended without its full report: ${launcherError}`);
    }
    // The supervisor's timer can only be late (it starts when it reads "started", after the exec,
    // and a stalled event loop fires it late), never early. A program whose end init reported
    // within the limit by its own clock ended by itself in time, even if the timer fired and the
    // kill crossed its end: only a run still going when the limit expired is a wall timeout.
    const endedInTime = report.wallUsec !== undefined && report.wallUsec <= limits.wallTimeMs * 1000;
    const wallTimeout = wallTimerExpired && !endedInTime;
    const decision = decideVerdict({
      setupFailure,
      filesNotPlaced,
      notRunnable,
      internalError,
      cancelled,
      exit: report.exit,
      wallTimeout,
      // killed on a reading, or over the limit at the end (it exited between two readings)
      cpuTimeout: cpuKilled || (!wallTimeout && report.started && cpuWatch.programUsec(readings.cpuUsageUsec) >= limits.cpuTimeMs * 1000),
      oomKills: readings.oomKillEvents,
      pidsLimitHits: readings.pidsLimitHits,
      fileSizeLimitHits: report.fileSizeLimitHits,
    });
    // init's own clock when it saw the program end; the supervisor's when it had to kill it.
    const wallMs =
      report.wallUsec !== undefined
        ? report.wallUsec / 1000
        : report.startedAt !== undefined
          ? (report.exitedAt ?? performance.now()) - report.startedAt
          : 0;
    const cpuUsec = readings.cpuUsageUsec || (report.usage ? report.usage.userUsec + report.usage.systemUsec : 0);
    const failedControl = setupFailure?.control;
    const isolated = report.started || notRunnable !== undefined;
    const [stdoutBytes, stderrBytes] = [stdout.bytes(), stderr.bytes()];
    const maxEncoded = limits.outputBytes * ENCODED_OUTPUT_FACTOR;
    const [stdoutText, stderrText] = [capEncodedSize(stdoutBytes.toString("utf8"), maxEncoded), capEncodedSize(stderrBytes.toString("utf8"), maxEncoded)];
    const result: ExecutionRecord = {
      verdict: decision.verdict,
      exit_code: report.exit?.kind === "exited" ? report.exit.code : null,
      signal: report.exit?.kind === "signaled" ? report.exit.signal : null,
      stdout: stdoutText.text,
      stderr: stderrText.text,
      output_integrity: outputIntegrity({
        streams: [
          { truncated: stdout.truncated || stdoutText.cut, error: stdout.error, bytes: stdoutBytes },
          { truncated: stderr.truncated || stderrText.cut, error: stderr.error, bytes: stderrBytes },
        ],
        endedBySignal: report.exit?.kind === "signaled",
      }),
      error_message: decision.errorMessage,
      cpu_time_secs: cpuUsec / 1e6,
      wall_time_secs: wallMs / 1000,
      memory_peak_bytes: readings.memoryPeakBytes,
      evidence: buildEvidence({
        decision,
        applied: isolated ? [...report.applied, ...cgroupControls, ...this.#kernelControls] : report.applied,
        missing: failedControl ? [failedControl, ...missing.filter((control) => control !== failedControl)] : isolated || filesNotPlaced ? missing : [],
        readings,
        cpuUsec,
        wallMs,
        lifecycle,
        judgeActions,
        collectionErrors: [...readings.errors, ...report.unparsed],
        limits,
      }),
    };
    return { result, outputFiles, outputFileFailures, stdoutBytes, stderrBytes, discardedBytes: { stdout: stdout.discarded, stderr: stderr.discarded } };
  }

  async #takeCgroup(slot: Slot, spec: RunSpec): Promise<RunCgroup> {
    const spare = slot.spare;
    slot.spare = undefined;
    const limits = { memoryBytes: spec.limits.memoryBytes, processes: spec.limits.processes, cpu: slot.cpu };
    if (!spare) return this.#newCgroup(slot, limits);
    spare.setLimits(limits);
    return spare;
  }

  #newCgroup(slot: Slot, limits: CgroupLimits): Promise<RunCgroup> {
    if (!this.#driver) throw new Error(this.#notReady.get("cgroup") ?? "no cgroup driver");
    if (!slot.cpu) throw new Error(this.#notReady.get("cpu_isolation") ?? "no CPU share planned for the slot");
    return this.#driver.create(`s${slot.index}-r${this.#runCounter++}`, limits);
  }

  /** After the launcher is gone nothing may remain in the cgroup; anything that does is killed. */
  #reapCgroup(cgroup: RunCgroup, judgeActions: string[]): { reapStatus: string; containment: string; zombies: number } {
    let remaining = safePids(cgroup);
    const zombies = remaining.filter(isZombie).length;
    let containment = "ok";
    if (remaining.length > 0) {
      containment = "escaped_pid_namespace";
      judgeActions.push("sigkill_cgroup_remnants");
      cgroup.killAll();
      remaining = safePids(cgroup);
    }
    return { reapStatus: remaining.length === 0 ? "clean" : "incomplete", containment, zombies };
  }

  /** Removes the used (empty) cgroup and prepares the slot's next one, off the critical path. */
  #recycle(slot: Slot, spec: RunSpec, used: RunCgroup | undefined): void {
    const limits = used?.limits ?? { memoryBytes: spec.limits.memoryBytes, processes: spec.limits.processes, cpu: slot.cpu };
    const work = this.#refreshSpare(slot, limits, used).finally(() => this.#housekeeping.delete(work));
    this.#housekeeping.add(work);
  }

  async #refreshSpare(slot: Slot, limits: CgroupLimits, used: RunCgroup | undefined): Promise<void> {
    try {
      await used?.destroy();
    } catch {
      // an empty cgroup can be briefly busy while the kernel finishes offlining it:
      // retried at close rather than blocking the slot
      if (used) this.#busyCgroups.add(used);
    }
    if (slot.spare || this.#closed || !this.#driver) return;
    try {
      const spare = await this.#newCgroup(slot, limits);
      if (slot.spare || this.#closed) await spare.destroy();
      else slot.spare = spare;
    } catch {
      // the next run creates its own and reports the failure there
    }
  }

  #stage(slot: Slot, spec: RunSpec) {
    const created: string[] = [];
    const copyIn: LauncherConfig["copyIn"] = [];
    for (const [index, file] of (spec.files ?? []).entries()) {
      const hostPath = join(slot.stagingDir, `in-${index}`);
      writeNewFileNoFollow(hostPath, file.content);
      created.push(hostPath);
      copyIn.push({ hostPath, name: file.name, mode: file.executable ? 0o755 : 0o644 });
    }
    let stdinPath: string | undefined;
    if (spec.stdin !== undefined && spec.stdin.length > 0) {
      stdinPath = join(slot.stagingDir, "stdin");
      writeNewFileNoFollow(stdinPath, spec.stdin);
      created.push(stdinPath);
    }
    const copyOut = new Map<string, string>();
    for (const [index, file] of (spec.outputFiles ?? []).entries()) copyOut.set(file.name, join(slot.stagingDir, `out-${index}`));
    return { created, copyIn, copyOut, stdinPath };
  }

  #launcherConfig(slot: Slot, spec: RunSpec, cgroup: RunCgroup, copyIn: LauncherConfig["copyIn"], copyOut: Map<string, string>): LauncherConfig {
    const { limits } = spec;
    const layout = this.#layout;
    // RLIMIT_CPU (per process) is only a backstop behind the supervisor's cgroup-wide CPU limit: a
    // second past it, or every core busy for the whole wall limit plus a second if that is less.
    const cpuBackstopSecs = Math.min(Math.ceil(limits.cpuTimeMs / 1000) + 1, Math.ceil((limits.wallTimeMs / 1000) * availableParallelism()) + 1);
    return {
      uid: slot.id,
      gid: slot.id,
      hostname: "sandbox",
      netnsPath: slot.netnsPath,
      cgroupProcsFiles: cgroup.procsFiles,
      outputCap: limits.outputBytes,
      mergeStderr: spec.mergeStderr === true,
      drainerProcsFiles: cgroup.drainerProcsFiles,
      drainerReturnProcsFiles: cgroup.drainerReturnProcsFiles,
      initReturnProcsFiles: cgroup.initReturnProcsFiles,
      memoryLimitBytes: limits.memoryBytes,
      bindsReadOnly: [...layout.binds, ...(spec.binds ?? [])],
      symlinks: layout.symlinks,
      boxBytes: limits.workDirBytes,
      tmpBytes: limits.workDirBytes,
      copyIn,
      copyOut: [...copyOut].map(([name, hostPath]) => ({
        name,
        hostPath,
        maxBytes: spec.outputFiles?.find((file) => file.name === name)?.maxBytes ?? 0,
      })),
      rlimits: {
        cpu: cpuBackstopSecs,
        fsize: limits.fileSizeBytes,
        core: 0,
        nofile: limits.openFiles,
        stack: limits.stackBytes,
      },
      env: { ...BASE_ENV, ...spec.env },
      cwd: "/box",
      argv: spec.argv,
    };
  }

  async #acquire(): Promise<Slot> {
    const slot = this.#free.shift();
    if (slot) return slot;
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #release(slot: Slot): void {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(slot);
    else this.#free.push(slot);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#recovery.close();
    await Promise.all(this.#housekeeping);
    for (const cgroup of this.#busyCgroups) {
      try {
        await cgroup.destroy();
      } catch {
        // still busy: the driver's parent stays, and is removed by the next start's sweep
      }
    }
    for (const path of this.#staged) unlinkIfPresent(path);
    this.#staged.clear();
    for (const slot of this.#allSlots) {
      await slot.spare?.destroy();
      slot.spare = undefined;
      removeNetns(slot.netnsPath);
    }
    this.#driver?.close();
    await this.#zygote?.close();
    if (this.#favorDynmodsPath) unmountFavorDynmods(this.#favorDynmodsPath);
  }
}

/**
 * Runs `action` once the event loop has polled its sockets: after a stall of the loop, Node runs
 * the timers that came due before it reads the sockets, so a timer can fire while the run's end
 * (or its "started") is already waiting, unread, in the launcher's connection. A timer's action
 * that changes the outcome (a kill) waits three loop turns: a connection still in the listen queue
 * is accepted in the first poll and read in the second; an immediate set during the check phase
 * runs in the next turn's, after that turn's poll.
 */
function afterPendingIo(action: () => void, turns = 3): void {
  setImmediate(() => (turns > 1 ? afterPendingIo(action, turns - 1) : action()));
}

function safePids(cgroup: RunCgroup): number[] {
  try {
    return cgroup.pids();
  } catch {
    return [];
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

function launcherInternalError(report: LauncherReport, readings: CgroupReadings): string | undefined {
  if (report.unparsed.length > 0) return `launcher failure: ${report.unparsed[0]}`;
  if (!report.done) return "the launcher ended without reporting the end of the run";
  // Without the drainer's totals the output may be cut short: not a verdict to stand on, unless
  // the kernel's OOM killer explains it (then MLE decides).
  const drained = report.outputTotals.out !== undefined && report.outputTotals.err !== undefined;
  if (report.started && !drained && readings.oomKillEvents === 0) return "the output drainer ended without reporting";
  if (readings.errors.length > 0) return `cgroup evidence could not be read: ${readings.errors.join("; ")}`;
  return undefined;
}
