// One execution slot: its own uid/gid, network namespace, staging directory and CPU share.
import type { CpuShare } from "./cgroup/cpu-policy.ts";
import type { RunCgroup } from "./cgroup/driver.ts";

export interface Slot {
  index: number;
  id: number;
  netnsPath: string;
  stagingDir: string;
  /** A cgroup made ahead of time so the next run does not wait for mkdir. */
  spare: RunCgroup | undefined;
  /** The slot's CPU controls, written into each of its run cgroups. */
  cpu: CpuShare | undefined;
}
