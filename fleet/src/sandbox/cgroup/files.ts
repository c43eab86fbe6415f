import { closeSync, openSync, readdirSync, readFileSync, readSync, rmdirSync, statfsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

// Small synchronous helpers: cgroupfs files are in-kernel and answer in microseconds.

export function writeControl(path: string, value: string | number): void {
  writeFileSync(path, String(value));
}

/** How a file's whole text is read: by path, or through a kept fd (KeptFiles). */
export type ReadText = (path: string) => string;

const readByPath: ReadText = (path) => readFileSync(path, "utf8");

/**
 * A run cgroup's evidence files, read through fds opened when the cgroup is made (off a run's
 * path) and kept until it is removed: a reading is one pread from offset 0 (the kernel renders the
 * file afresh) instead of open, fstat, read and close, which cost about 0.1 ms each here. Not for
 * a v1 `cgroup.procs`: its list is kept per open file and served again to a read from offset 0.
 */
export class KeptFiles {
  readonly #fds = new Map<string, number>();
  readonly #buffer = Buffer.alloc(4096);

  /** A file that cannot be opened now is read by path (and fails there, where it is reported). */
  constructor(paths: string[]) {
    for (const path of paths) {
      try {
        this.#fds.set(path, openSync(path, "r"));
      } catch {
        // read by path
      }
    }
  }

  readonly read: ReadText = (path) => {
    const fd = this.#fds.get(path);
    if (fd === undefined) return readByPath(path);
    let text = "";
    for (let position = 0; ; ) {
      const got = readSync(fd, this.#buffer, 0, this.#buffer.length, position);
      if (got === 0) return text;
      text += this.#buffer.toString("utf8", 0, got);
      position += got;
    }
  };

  close(): void {
    for (const fd of this.#fds.values()) closeSync(fd);
    this.#fds.clear();
  }
}

/** Reads `key value` lines (memory.events, pids.events, cpu.stat, memory.oom_control). */
export function readKeyed(path: string, read: ReadText = readByPath): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of read(path).split("\n")) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value !== undefined) values.set(key, Number(value));
  }
  return values;
}

export function readNumber(path: string, read: ReadText = readByPath): number {
  const text = read(path).trim();
  return text === "max" ? Number.POSITIVE_INFINITY : Number(text);
}

/**
 * This process's own cgroup path in the v1 hierarchy carrying `controller`, or in the v2
 * hierarchy (`controller` ""), from /proc/self/cgroup.
 */
export function ownCgroupPath(controller: string, procSelfCgroup = readFileSync("/proc/self/cgroup", "utf8")): string {
  for (const line of procSelfCgroup.split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const [, controllers = "", path = "/"] = match;
    if (controller === "" ? controllers === "" : controllers.split(",").includes(controller)) return path;
  }
  throw new Error(`no ${controller || "cgroup2"} entry in /proc/self/cgroup`);
}

export function readPids(path: string, read: ReadText = readByPath): number[] {
  return read(path)
    .split("\n")
    .filter((line) => line.length > 0)
    .map(Number);
}

/** Collects a reading; a failure is recorded, never thrown, so evidence stays complete. */
export function collect(errors: string[], label: string, read: () => number): number {
  try {
    const value = read();
    if (!Number.isFinite(value)) throw new Error(`not a number`);
    return value;
  } catch (error) {
    errors.push(`${label}: ${(error as Error).message}`);
    return 0;
  }
}

export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

const CGROUP_SUPER_MAGIC = 0x27e0eb;
const CGROUP2_SUPER_MAGIC = 0x63677270;

/**
 * A limit file written on an ordinary filesystem enforces nothing: refuse any mount point that
 * is not really cgroupfs, so a wrong path can never fail open.
 */
export function cgroupFilesystemProblem(path: string, version: "v1" | "v2"): string | undefined {
  const expected = version === "v1" ? CGROUP_SUPER_MAGIC : CGROUP2_SUPER_MAGIC;
  try {
    const { type } = statfsSync(path);
    return type === expected ? undefined : `${path} is not a cgroup ${version} filesystem`;
  } catch (error) {
    return `${path}: ${(error as Error).message}`;
  }
}

/** Removes stale instance directories beside `parentDir`, children first; busy ones stay. */
export function removeStaleSiblingDirs(parentDir: string, isStale: (name: string) => boolean): void {
  const grandparent = dirname(parentDir);
  let siblings: string[];
  try {
    siblings = readdirSync(grandparent, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return;
  }
  for (const sibling of siblings.filter(isStale)) {
    const dir = join(grandparent, sibling);
    try {
      for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) rmdirSync(join(dir, entry.name));
      rmdirSync(dir);
    } catch {
      // processes still inside: leave it, it is not ours to kill
    }
  }
}

/** Removes `relative` under `mount` and then each of its ancestors that is empty (up to the mount). */
export function removeDirAndEmptyAncestors(mount: string, relative: string): void {
  const parts = relative.split("/").filter(Boolean);
  for (let depth = parts.length; depth > 0; depth--) {
    try {
      rmdirSync(join(mount, ...parts.slice(0, depth)));
    } catch {
      return; // in use by another instance (or already gone): leave it and everything above
    }
  }
}
