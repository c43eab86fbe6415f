// Process and port plumbing shared by everything that starts a stack (`npm start`, the tests, the
// benchmarks). Children run in their own process group and are stopped by PID only.
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
/** The Node 24 of the `node` dev dependency, whatever Node runs the caller. */
export const NODE = join(ROOT, "node_modules", ".bin", "node");

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `codecell-${name}-`));
}

/** Where a throwaway stack's files go when they should live in memory: /dev/shm (tmpfs), else the temp dir. */
export const MEMORY_TMP = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

/**
 * A temp dir in memory, for state no one keeps: a benchmark's edge. Its Durable Objects' SQLite
 * then commits without an fsync on this machine's disk (see bench/edge.bench.ts).
 */
export function memoryTempDir(name: string): string {
  return mkdtempSync(join(MEMORY_TMP, `codecell-${name}-`));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a process on free ports, again on new ones if it could not bind them: a free port is only
 * free until someone else takes it (another test process, workerd's own helper ports). Twice more
 * at most; a caller that chose its own ports gets the failure as it is.
 */
export async function startOnFreePorts<T>(start: () => Promise<T>, ownPorts: boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (e) {
      if (ownPorts || attempt >= 3 || !/EADDRINUSE|address already in use/i.test(String(e))) throw e;
    }
  }
}

export function portOpen(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

export const running = (proc: ChildProcess) => proc.exitCode === null && proc.signalCode === null;

export function waitExit(proc: ChildProcess, ms: number): Promise<boolean> {
  if (!running(proc)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    proc.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** SIGTERM to the process group the child leads (it was spawned detached), SIGKILL if it lingers. */
export async function stopGroup(proc: ChildProcess, graceMs = 5_000): Promise<void> {
  if (proc.pid === undefined || !running(proc)) return;
  try {
    process.kill(-proc.pid, "SIGTERM");
  } catch {
    return;
  }
  if (!(await waitExit(proc, graceMs))) await killGroup(proc);
}

export async function killGroup(proc: ChildProcess): Promise<void> {
  try {
    if (proc.pid !== undefined) process.kill(-proc.pid, "SIGKILL");
  } catch {}
  await waitExit(proc, 5_000);
}

/**
 * Removes a temp dir of ours. A fleet node killed with SIGKILL can leave namespace bind mounts in
 * its state dir; those (and only mounts below `dir`) are lazily unmounted first.
 */
export function cleanup(dir: string): void {
  if (!dir.startsWith(tmpdir() + "/") && !dir.startsWith(MEMORY_TMP + "/")) return;
  try {
    const mounts = readFileSync("/proc/mounts", "utf8").split("\n").map((line) => line.split(" ")[1] ?? "").filter((m) => m.startsWith(dir + "/"));
    for (const mount of mounts.reverse()) spawnSync("umount", ["-l", mount]);
  } catch {}
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {}
}
