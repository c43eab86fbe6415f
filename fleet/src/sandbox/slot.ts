// One execution slot: its own uid/gid, network namespace, staging directory and CPU share.
import type { CpuShare } from "./cgroup/cpu-policy.ts";
import type { RunCgroup } from "./cgroup/driver.ts";
import type { LaunchedSandbox, LauncherZygote } from "./launcher.ts";
import type { RunSpec } from "./run-spec.ts";
import type { StagedRun } from "./staging.ts";

export interface Slot {
  index: number;
  id: number;
  netnsPath: string;
  stagingDir: string;
  /** Cgroups ready for the slot's next runs, made or made ready again ahead of them (slot-cgroups.ts). */
  spares: RunCgroup[];
  /** The slot's CPU controls, written into each of its run cgroups. */
  cpu: CpuShare | undefined;
  /** The slot an interactor runs in beside this slot's program (Sandbox.runInteractive). */
  partner?: Slot;
}

/** A slot ready for a run: its run cgroup taken, the launcher up. */
export interface ReadySlot {
  cgroup: RunCgroup;
  zygote: LauncherZygote;
}

/** A run launched in a slot, until it is watched to its end. */
export interface SlotRun {
  slot: Slot;
  spec: RunSpec;
  cgroup: RunCgroup;
  staged: StagedRun;
  launched: LaunchedSandbox;
}
