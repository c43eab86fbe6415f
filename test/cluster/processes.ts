// Killing what the cluster started, by PID only, and removing the cgroups its nodes made.
import { existsSync, readFileSync, readdirSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { sleep } from "../edge/harness.ts";

export function killPid(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(pid, signal);
  } catch {}
}

/** A process group we created (a child spawned detached leads its own group). */
export function killGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-pid, signal);
  } catch {}
}

export function alive(pid: number): boolean {
  try {
    // A zombie has left every namespace and cgroup: gone for our purposes.
    return !/^\S+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

export async function waitGone(pids: number[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (pids.some(alive)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Mount points of the cgroup hierarchies on this host (v1 controllers and/or the v2 tree). */
export function cgroupMounts(): { type: string; source: string; target: string; options: string }[] {
  return readFileSync("/proc/self/mounts", "utf8").split("\n").map((l) => l.split(" ")).filter((f) => f.length >= 4)
    .filter(([, target, type]) => target!.startsWith("/sys/fs/cgroup") && (type === "cgroup" || type === "cgroup2" || (type === "tmpfs" && target === "/sys/fs/cgroup")))
    .map(([source, target, type, options]) => ({ source: source!, target: target!, type: type!, options: options! }));
}

/**
 * Removes `<hierarchy>/<relative>` and everything below it in every cgroup hierarchy, deepest
 * first, after killing any process still in it (the nodes' sandboxes, by PID from cgroup.procs).
 */
export function removeCgroupTree(relative: string): void {
  for (const m of cgroupMounts()) {
    if (m.type === "tmpfs") continue;
    const top = join(m.target, relative);
    if (!existsSync(top)) continue;
    const dirs: string[] = [];
    const walk = (d: string) => {
      dirs.push(d);
      for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(join(d, e.name));
    };
    try {
      walk(top);
    } catch {}
    for (const d of dirs) {
      try {
        for (const pid of readFileSync(join(d, "cgroup.procs"), "utf8").split("\n").filter(Boolean)) killPid(Number(pid));
      } catch {}
    }
    for (const d of dirs.reverse()) {
      for (let i = 0; i < 40; i++) {
        try {
          rmdirSync(d);
          break;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOENT") break;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        }
      }
    }
  }
}
