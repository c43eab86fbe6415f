// Shared by the real-kernel test files: they need root and the built launcher. Locally a
// missing prerequisite skips them; under CI (CI=true) it fails them, so nothing is silently skipped.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { launcherProblems } from "../fleet/src/sandbox/launcher.ts";

export function kernelTestProblems(): string[] {
  const problems = [...launcherProblems()];
  if (process.getuid?.() !== 0) problems.push("needs root (namespaces, cgroups)");
  return problems;
}

/** Call at the top of a real-kernel test (or suite hook): fails under CI, skips elsewhere. */
export function requireKernel(t?: TestContext): boolean {
  const problems = kernelTestProblems();
  if (problems.length === 0) return true;
  if (process.env.CI === "true") throw new Error(`real-kernel test prerequisites missing: ${problems.join("; ")}`);
  t?.skip(problems.join("; "));
  return false;
}

export function tempStateDir(prefix = "codecell-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Pids of host processes whose command line contains `marker`. */
export function hostProcessesWith(marker: string, parent?: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, "latin1").includes(marker)) continue;
      if (parent === undefined || parentOf(Number(entry)) === parent) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** The parent pid, from /proc/PID/stat (the field after the state, which follows the ")" of the name). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/**
 * Reads one file of each run cgroup this test process's sandboxes made (v1 pids hierarchy or v2
 * unified); a cgroup removed while we look is passed over.
 */
export function readRunCgroups(file: string): string[] {
  const found: string[] = [];
  for (const root of ["/sys/fs/cgroup/pids/codecell-test", "/sys/fs/cgroup/codecell-test"]) {
    let instances: string[] = [];
    try {
      instances = readdirSync(root).filter((name) => name.startsWith(`i${process.pid}-`));
    } catch {
      continue;
    }
    for (const instance of instances) {
      for (const run of readdirSync(join(root, instance), { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
        try {
          found.push(readFileSync(join(root, instance, run.name, file), "utf8"));
        } catch {
          // removed while we looked
        }
      }
    }
  }
  return found;
}
