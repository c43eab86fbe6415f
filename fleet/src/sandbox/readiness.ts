// Whether the sandbox can run anything with every control (docs/sandbox.md, "Fail closed"): what
// the host was found to lack at start-up, which no retry can fix, and the platform faults met
// while running, which a recovery heals by itself once the canary run passes again.
import type { CgroupDriver } from "./cgroup/driver.ts";
import { isDeadInstance } from "./housekeeping.ts";
import { ia32Control, probeIa32Entry } from "./ia32.ts";
import { launcherProblems } from "./launcher.ts";
import { launcherPolicyProblem } from "./policy.ts";
import { Recovery } from "./recovery.ts";
import type { RunOutcome } from "./run-spec.ts";

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

/** What a recovery attempt needs of the sandbox. */
export interface HealingSteps {
  /** Starts a fresh launcher zygote if the old one died; the problem when it cannot. */
  restartLauncher(): Promise<string | undefined>;
  /** `/usr/bin/true` through the whole sandbox. */
  canary(): Promise<RunOutcome>;
  /** Runs the attempt outside whatever job scheduled it: its canary queues for a slot of its own. */
  outside<T>(attempt: () => T): T;
}

export class Readiness {
  readonly #notReady = new Map<string, string>();
  /** Reasons found at start-up that no retry can fix (they need an operator and a restart). */
  readonly #permanent = new Set<string>();
  readonly #steps: HealingSteps;
  readonly #recovery: Recovery;
  readonly warnings: string[] = [];
  #closed = false;

  constructor(steps: HealingSteps) {
    this.#steps = steps;
    this.#recovery = new Recovery(() => steps.outside(() => this.#heal()));
  }

  /** No fault is known (the sandbox may still be closed). */
  get faultless(): boolean {
    return this.#notReady.size === 0;
  }

  get ready(): boolean {
    return this.faultless && !this.#closed;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Why the control `reason` names cannot be applied, if it cannot. */
  problem(reason: string): string | undefined {
    return this.#notReady.get(reason);
  }

  /** What health lists: every reason, and what the node is doing about them. */
  reasons(): string[] {
    const recovering = this.#notReady.size > 0 ? this.#recovery.status : undefined;
    return [...this.#notReady.values(), ...(recovering ? [recovering] : [])];
  }

  failPermanently(reason: string, message: string): void {
    this.#permanent.add(reason);
    this.#notReady.set(reason, message);
  }

  /** A platform fault found while running: not ready now, and a canary run retried until it passes. */
  markNotReady(reason: string, message: string): void {
    this.#notReady.set(reason, message);
    if (!this.#permanent.has(reason)) this.#recovery.schedule();
  }

  /**
   * Runs `true` through the whole sandbox: the node is ready only if every control applies. Its
   * wall limit only bounds a hang: a loaded host must not read as a missing control.
   */
  async selfCheck(): Promise<boolean> {
    const outcome = await this.#steps.canary();
    if (outcome.result.verdict === "AC") {
      this.#notReady.delete("self_check");
      return true;
    }
    this.markNotReady("self_check", `self-check failed: ${outcome.result.error_message ?? outcome.result.verdict}`);
    return false;
  }

  close(): void {
    this.#closed = true;
    this.#recovery.close();
  }

  /** One recovery attempt: a fresh launcher zygote if the old one died, then the canary run. */
  async #heal(): Promise<boolean> {
    if (this.#closed || this.#notReady.size === 0) return true;
    if ([...this.#notReady.keys()].some((reason) => this.#permanent.has(reason))) return true;
    const launcherProblem = await this.#steps.restartLauncher();
    if (launcherProblem) {
      this.#notReady.set("launcher", launcherProblem);
      return false;
    }
    const before = [...this.#notReady.keys()];
    if (!(await this.selfCheck())) return false;
    for (const reason of before) this.#notReady.delete(reason);
    return this.#notReady.size === 0;
  }
}

/**
 * The start-up probes of the launcher binary, its seccomp policy and the cgroup hierarchy: what
 * fails is permanent. Returns the controls that hold for every run on this kernel without a step
 * of the launcher's own.
 */
export function probeHost(readiness: Readiness, launcherPath: string, driver: CgroupDriver | undefined): string[] {
  const kernelControls: string[] = [];
  const launcher = launcherProblems(launcherPath);
  if (launcher.length > 0) readiness.failPermanently("launcher", launcher.join("; "));
  else kernelControls.push(ia32Control(probeIa32Entry(launcherPath)));
  const policy = launcher.length > 0 ? null : launcherPolicyProblem(launcherPath);
  if (policy) readiness.failPermanently("seccomp", policy);
  const cgroup = driver?.problems() ?? [];
  if (cgroup.length > 0) readiness.failPermanently("cgroup", cgroup.join("; "));
  else driver?.removeStaleSiblings(isDeadInstance);
  return kernelControls;
}
