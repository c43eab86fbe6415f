import { readFileSync } from "node:fs";
import type { CgroupDriver } from "./driver.ts";
import { CgroupV1Driver } from "./v1.ts";
import { CgroupV2Driver } from "./v2.ts";

/**
 * Picks the driver at start-up from /proc/self/mountinfo: a cgroup2 mount at /sys/fs/cgroup
 * means a unified system; otherwise the v1 hierarchies that carry memory, pids and cpuacct
 * (and cpu, cpuset: without them the driver reports a problem and the node is not ready).
 */
export function detectCgroupDriver(parent: string, mountinfo = readFileSync("/proc/self/mountinfo", "utf8")): CgroupDriver | string {
  const v1: Record<string, string> = {};
  let unified: string | undefined;
  for (const line of mountinfo.split("\n")) {
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const mountPoint = left.split(" ")[4];
    const [fsType, , superOptions = ""] = right.split(" ");
    if (!mountPoint) continue;
    if (fsType === "cgroup2" && mountPoint === "/sys/fs/cgroup") unified = mountPoint;
    if (fsType === "cgroup") {
      for (const option of superOptions.split(",")) {
        if (["memory", "pids", "cpuacct", "cpu", "cpuset"].includes(option)) v1[option] ??= mountPoint;
      }
    }
  }
  if (unified) return new CgroupV2Driver(unified, parent);
  if (v1.memory && v1.pids && v1.cpuacct) {
    return new CgroupV1Driver({ memory: v1.memory, pids: v1.pids, cpuacct: v1.cpuacct, cpu: v1.cpu, cpuset: v1.cpuset }, parent);
  }
  return "no usable cgroup hierarchy: need cgroup v2 at /sys/fs/cgroup, or v1 memory, pids and cpuacct";
}
