// Moving a process into a cgroup takes the kernel's global cgroup_threadgroup_rwsem for writing,
// which by default waits for a full RCU grace period: up to ~16 ms per run on an idle machine
// (measured here), paid by every run's program when it joins its cgroup. The `favordynmods` mount
// option switches that lock to favour writers (migrations cost microseconds; forks and exits
// machine-wide take its slightly slower reader path). It is global to the lock, so mounting a
// controller-less named hierarchy of our own with it is enough: no cgroup of anyone else's changes.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmdirSync } from "node:fs";

const HIERARCHY = "none,name=codecell_favordynmods,favordynmods";

/** Mounts the hierarchy at `path`; returns why it could not (the node then runs, only slower). */
export function mountFavorDynmods(path: string): string | undefined {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    execFileSync("mount", ["-t", "cgroup", "-o", HIERARCHY, "codecell_favordynmods", path], { stdio: ["ignore", "ignore", "pipe"] });
    return undefined;
  } catch (error) {
    return `favordynmods not enabled (cgroup migrations wait for RCU grace periods): ${(error as Error).message.split("\n")[0]}`;
  }
}

export function unmountFavorDynmods(path: string): void {
  if (!existsSync(path)) return;
  try {
    execFileSync("umount", [path], { stdio: "ignore" });
  } catch {
    // not mounted
  }
  try {
    rmdirSync(path);
  } catch {
    // still mounted: left for the next start's sweep
  }
}
