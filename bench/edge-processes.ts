// The processes of a local stack and the CPU they spend, read from /proc (bench:edge).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** CPU time (user + system, ms) of a process so far, from /proc; 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** A process's command line, arguments joined by spaces; "" once it is gone. */
export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Every process below `root`, by command name (the edge launcher's children: workerd, esbuild). */
export function descendants(root: number): Map<number, string> {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      comm.set(Number(entry), stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")));
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone
    }
  }
  const below = new Map<number, string>();
  for (const pid of comm.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        below.set(pid, comm.get(pid)!);
        break;
      }
    }
  }
  return below;
}

/** Bytes under a directory (the edge's stored state), files only. */
export function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    try {
      total += statSync(join(entry.parentPath, entry.name)).size;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export interface StackProcesses {
  workerd: number[];
  launcher: number[];
  node: number[];
}

/**
 * One workerd below the edge's launcher (it terminates TLS on the public port and runs the Worker
 * and its Durable Objects); the launcher's own Node process; the fleet node and its children.
 */
export function stackProcesses(edgePid: number | undefined, fleetPid: number | undefined): StackProcesses {
  const edgeTree = edgePid ? [...descendants(edgePid).entries()] : [];
  const procs = {
    workerd: edgeTree.filter(([, comm]) => comm === "workerd").map(([pid]) => pid),
    launcher: [...(edgePid ? [edgePid] : []), ...edgeTree.filter(([, comm]) => comm !== "workerd").map(([pid]) => pid)],
    node: fleetPid ? [fleetPid, ...descendants(fleetPid).keys()] : [],
  };
  if (procs.workerd.length !== 1) {
    throw new Error(`expected one workerd process below the edge: ${procs.workerd.map((pid) => cmdline(pid)).join(" | ")}`);
  }
  return procs;
}

/** CPU ms so far of each group of processes. */
export function cpuNow(procs: StackProcesses): Record<keyof StackProcesses, number> {
  const sum = (pids: number[]) => pids.reduce((s, pid) => s + cpuMs(pid), 0);
  return { workerd: sum(procs.workerd), launcher: sum(procs.launcher), node: sum(procs.node) };
}
