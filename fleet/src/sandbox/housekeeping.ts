// What a node killed without a clean shutdown leaves on the host, and how it is found and removed
// at the next start: persisted network namespaces, the favordynmods mount, staging files.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { unmountFavorDynmods } from "./cgroup/favor-dynmods.ts";

export const FAVOR_DYNMODS_DIR = "cgroup-favordynmods";

export function removeNetns(path: string): void {
  if (!existsSync(path)) return;
  try {
    // Lazily: a plain umount fails (EBUSY) while another mount namespace still holds the mount,
    // e.g. a launcher ending at the same moment, and the unlink below then fails too.
    execFileSync("umount", ["-l", path], { stdio: "ignore" });
  } catch {
    // not mounted
  }
  unlinkSync(path);
}

/** A node killed without a clean shutdown leaves its slots' persisted network namespaces. */
export function removeStaleRunDirs(runRoot: string): void {
  let instances: string[];
  try {
    instances = readdirSync(runRoot);
  } catch {
    return;
  }
  for (const instance of instances.filter(isDeadInstance)) {
    const dir = join(runRoot, instance);
    try {
      for (const entry of readdirSync(dir)) if (entry.startsWith("netns-")) removeNetns(join(dir, entry));
      unmountFavorDynmods(join(dir, FAVOR_DYNMODS_DIR));
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // still busy: left for the next start
    }
  }
}

/** Instance names are `i<pid>-<n>`: stale once that process is gone. */
export function isDeadInstance(name: string): boolean {
  const pid = /^i(\d+)-\d+$/.exec(name)?.[1];
  return pid !== undefined && !existsSync(`/proc/${pid}`);
}

export function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // never created (e.g. a copy-out the program did not produce)
  }
}
