// The run cgroups of the slots: a run takes one of its slot's spares (made, or made ready again,
// ahead of it) or makes one; when it ends, its cgroup is reaped and then, off the critical path,
// made ready again for a later run of the slot (v1) or removed, with a new spare made in its place.
import { readFileSync } from "node:fs";
import type { CgroupDriver, CgroupLimits, RunCgroup } from "./cgroup/driver.ts";
import type { Slot } from "./slot.ts";
import type { RunSpec } from "./run-spec.ts";

export interface CgroupLifecycle {
  reapStatus: string;
  containment: string;
  zombies: number;
}

/**
 * Cgroups a slot keeps where they can be made ready again (v1): two, so that one is readied
 * (a few file reads and writes, and memory.force_empty, about 1 ms here, when the run left pages
 * charged) while the next run uses the other.
 */
const REUSED_PER_SLOT = 2;

export class SlotCgroups {
  readonly #driver: CgroupDriver | undefined;
  /** Why a cgroup cannot be made, by not-ready reason ("cgroup", "cpu_isolation"). */
  readonly #notReadyReason: (reason: string) => string | undefined;
  readonly #busy = new Set<RunCgroup>();
  /** Cgroup removals and spare creations still running in the background. */
  readonly #housekeeping = new Set<Promise<void>>();
  /** A slot whose used cgroup is being made ready again: a run that finds no spare waits for it rather than make one. */
  readonly #reusing = new Map<Slot, Promise<void>>();
  #runCounter = 0;
  #closed = false;

  constructor(driver: CgroupDriver | undefined, notReadyReason: (reason: string) => string | undefined) {
    this.#driver = driver;
    this.#notReadyReason = notReadyReason;
  }

  /** `cpu`: the run's CPU controls, the slot's unless it shares them (an interactive pair). */
  async take(slot: Slot, spec: RunSpec, cpu = slot.cpu): Promise<RunCgroup> {
    if (slot.spares.length === 0) await this.#reusing.get(slot);
    const limits = { memoryBytes: spec.limits.memoryBytes, processes: spec.limits.processes, cpu };
    const spare = slot.spares.shift();
    spare?.setLimits(limits);
    const cgroup = spare ?? (await this.#create(slot, limits));
    // one that can be made ready again gets a second beside it, for the next run while it is readied
    if (cgroup.reuse && slot.spares.length === 0 && !this.#reusing.has(slot)) this.#inBackground(() => this.#addSpare(slot, limits));
    return cgroup;
  }

  #create(slot: Slot, limits: CgroupLimits): Promise<RunCgroup> {
    if (!this.#driver) throw new Error(this.#notReadyReason("cgroup") ?? "no cgroup driver");
    if (!slot.cpu) throw new Error(this.#notReadyReason("cpu_isolation") ?? "no CPU share planned for the slot");
    return this.#driver.create(`s${slot.index}-r${this.#runCounter++}`, limits);
  }

  /**
   * Makes the used (empty) cgroup ready again as one of the slot's spares, or removes it and
   * prepares a new spare, off the critical path: from the next turn of the event loop, so that the
   * run's outcome reaches its caller first.
   */
  recycle(slot: Slot, spec: RunSpec, used: RunCgroup | undefined): void {
    const limits = used?.limits ?? { memoryBytes: spec.limits.memoryBytes, processes: spec.limits.processes, cpu: slot.cpu };
    const work = this.#inBackground(() => this.#refreshSpare(slot, limits, used));
    if (used?.reuse) {
      this.#reusing.set(slot, work);
      void work.finally(() => this.#reusing.get(slot) === work && this.#reusing.delete(slot));
    }
  }

  #inBackground(task: () => Promise<void>): Promise<void> {
    const work = new Promise<void>((resolve) => setImmediate(resolve)).then(task).finally(() => this.#housekeeping.delete(work));
    this.#housekeeping.add(work);
    return work;
  }

  async #refreshSpare(slot: Slot, limits: CgroupLimits, used: RunCgroup | undefined): Promise<void> {
    if (used && (await used.reuse?.()) && slot.spares.length < REUSED_PER_SLOT && !this.#closed) {
      slot.spares.push(used);
      return;
    }
    try {
      await used?.destroy();
    } catch {
      // an empty cgroup can be briefly busy while the kernel finishes offlining it:
      // retried at close rather than blocking the slot
      if (used) this.#busy.add(used);
    }
    if (slot.spares.length === 0) await this.#addSpare(slot, limits);
  }

  async #addSpare(slot: Slot, limits: CgroupLimits): Promise<void> {
    if (this.#closed || !this.#driver) return;
    try {
      const spare = await this.#create(slot, limits);
      if (this.#closed) await spare.destroy();
      else slot.spares.push(spare);
    } catch {
      // the next run creates its own and reports the failure there
    }
  }

  /** Waits for the background work, then removes the busy cgroups and every slot's spare. */
  async close(slots: Slot[]): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#housekeeping);
    for (const cgroup of this.#busy) {
      try {
        await cgroup.destroy();
      } catch {
        // still busy: the driver's parent stays, and is removed by the next start's sweep
      }
    }
    for (const slot of slots) {
      for (const spare of slot.spares.splice(0)) await spare.destroy();
    }
  }
}

/** After the launcher is gone nothing may remain in the cgroup; anything that does is killed. */
export function reapCgroup(cgroup: RunCgroup, judgeActions: string[]): CgroupLifecycle {
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
