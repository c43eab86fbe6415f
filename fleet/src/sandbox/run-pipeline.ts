// One run in a slot as a pipeline of named steps (docs/sandbox.md, "The run in code"): the cgroup
// set up, a launcher that can run, staging, the launch, the watch, the end and the outcome. A step
// that cannot be taken ends the run there with a fail-closed outcome, and nothing after it runs.
import type { CgroupReadings, RunCgroup } from "./cgroup/driver.ts";
import { pairShare, type CpuShare } from "./cgroup/cpu-policy.ts";
import { CGROUP_CONTROLS, REQUIRED_CONTROLS } from "./controls.ts";
import { failedSetup } from "./failed-setup.ts";
import { watchIdleness } from "./idle-watch.ts";
import { launcherConfig } from "./launcher-config.ts";
import { endedFirst } from "./launcher-report.ts";
import { LIVE_STDIN, PAIR_STDIN, type LauncherZygote, type ProgramSignal } from "./launcher.ts";
import type { Readiness } from "./readiness.ts";
import type { RootLayout } from "./rootfs.ts";
import { completeReport, decideRun, findFaults, type LaunchedRun, runRecord } from "./run-outcome.ts";
import type { InteractiveOutcome, RunOutcome, RunSpec } from "./run-spec.ts";
import { watchRun } from "./run-watch.ts";
import type { ReadySlot, Slot, SlotRun } from "./slot.ts";
import { reapCgroup, type SlotCgroups } from "./slot-cgroups.ts";
import { collectOutputFiles, stageRun } from "./staging.ts";

/** What the pipeline runs with: the sandbox's parts, shared with it. */
export interface PipelineParts {
  layout: RootLayout;
  cgroups: SlotCgroups;
  readiness: Readiness;
  /** Controls that hold for every run on this kernel without a step of the launcher's own. */
  kernelControls: readonly string[];
  /** The launcher zygote of the moment (a recovery may have started a fresh one). */
  zygote(): LauncherZygote | undefined;
}

export class RunPipeline {
  readonly #parts: PipelineParts;

  constructor(parts: PipelineParts) {
    this.#parts = parts;
  }

  /** One run in `slot`; `started` gets its cgroup's readings once the cgroup is set up. */
  async runInSlot(slot: Slot, spec: RunSpec, signal?: AbortSignal, started?: (read: () => CgroupReadings) => void, cpu = slot.cpu): Promise<RunOutcome> {
    const ready = await this.#readySlot(slot, spec, cpu);
    if ("result" in ready) return ready;
    started?.(() => ready.cgroup.read());
    const staged = stageRun(slot.stagingDir, spec);
    const config = launcherConfig(this.#parts.layout, slot, spec, ready.cgroup, staged);
    const launched = spec.liveStdin ? ready.zygote.launch(config, LIVE_STDIN, spec.liveStdin) : ready.zygote.launch(config, staged.stdinPath);
    return this.#watchToEnd({ slot, spec, cgroup: ready.cgroup, staged, launched }, signal);
  }

  /** An interactive pair (docs/sandbox.md): the program in `slot`, the interactor in its `partner`. */
  async runPair(slot: Slot, partner: Slot, program: RunSpec, interactor: RunSpec, signal?: AbortSignal): Promise<InteractiveOutcome> {
    const share = pairShare(slot.cpu);
    const programReady = await this.#readySlot(slot, program, share);
    if ("result" in programReady) return { program: programReady, interactor: programReady, programEndedFirst: true };
    const interactorReady = await this.#readySlot(partner, interactor, share);
    if ("result" in interactorReady) {
      this.#parts.cgroups.recycle(slot, program, programReady.cgroup);
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
  }

  /** One side of an interactive pair, launched: its stdin and stdout are the pair's pipes. */
  #launchPaired(slot: Slot, spec: RunSpec, ready: ReadySlot, side: keyof typeof PAIR_STDIN): SlotRun {
    const staged = stageRun(slot.stagingDir, spec);
    const config = { ...launcherConfig(this.#parts.layout, slot, spec, ready.cgroup, staged), stdoutInherit: true };
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
      return await this.#parts.cgroups.take(slot, spec, cpu);
    } catch (error) {
      const message = (error as Error).message;
      this.#parts.readiness.markNotReady("cgroup", `cannot create a run cgroup: ${message}`);
      return failedSetup("cgroup", message, CGROUP_CONTROLS, spec.limits);
    }
  }

  #readyLauncher(slot: Slot, spec: RunSpec, cgroup: RunCgroup): LauncherZygote | RunOutcome {
    const zygote = this.#parts.zygote();
    const problem = zygote ? zygote.problem : (this.#parts.readiness.problem("launcher") ?? "the launcher is not running");
    if (zygote && !problem) return zygote;
    this.#parts.readiness.markNotReady("launcher", problem ?? "the launcher is not running");
    this.#parts.cgroups.recycle(slot, spec, cgroup);
    return failedSetup("launcher", problem ?? "the launcher is not running", [...REQUIRED_CONTROLS], spec.limits);
  }

  /** The launcher is gone: the cgroup's evidence is read, the cgroup reaped and the slot's next one prepared. */
  #endRun(slot: Slot, spec: RunSpec, cgroup: RunCgroup, ended: Pick<LaunchedRun, "report" | "watched" | "judgeActions">): LaunchedRun {
    const { report, watched, judgeActions } = ended;
    completeReport(report, watched);
    const readings = cgroup.read();
    const lifecycle = reapCgroup(cgroup, judgeActions);
    this.#parts.cgroups.recycle(slot, spec, lifecycle.reapStatus === "clean" ? cgroup : undefined);
    if (report.leftover > 0) judgeActions.push("sigkill_leftover_processes");
    return { ...ended, spec, readings, lifecycle, extraControls: [...cgroup.controls, ...this.#parts.kernelControls] };
  }

  /** The verdict and record; a platform fault the run showed makes the node not ready. */
  #judge(run: LaunchedRun): Omit<RunOutcome, "outputFiles" | "outputFileFailures"> {
    const faults = findFaults(run);
    const { setupFailure } = faults;
    const { readiness } = this.#parts;
    if (setupFailure) {
      readiness.markNotReady(setupFailure.control, `isolation control ${setupFailure.control} failed: ${setupFailure.message}`);
    } else if (!run.report.done && !readiness.closed) {
      // the launcher ended (or never connected) without its last line: a platform fault, checked again
      readiness.markNotReady("launcher", `a run's launcher ended without its full report: ${faults.launcherError}`);
    }
    const { stdout, stderr } = run.watched;
    const captured = { stdoutBytes: stdout.bytes(), stderrBytes: stderr.bytes() };
    const result = runRecord(run, faults, decideRun(run, faults), captured);
    return { result, ...captured, discardedBytes: { stdout: stdout.discarded, stderr: stderr.discarded } };
  }
}
