// The other ways of running the same static hello that `npm run bench:sandbox` measures beside
// ours: a bare spawn, `unshare`, bubblewrap, and isolate when one is built beside this checkout.
// Each is a command spawned from Node the way the bare run is, checked for its "hello\n".
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";

export interface Contender {
  label: string;
  run: () => Promise<void>;
  /** Undoes what the contender set up (isolate's box). */
  close?: () => void;
}

export function spawnAndWait(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 && out === "hello\n" ? resolve() : reject(new Error(`${command}: ${code} ${out}`))));
  });
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, command))) return join(dir, command);
  return undefined;
}

export function bare(binary: string): Contender {
  return { label: "bare fork+exec", run: () => spawnAndWait(binary, []) };
}

export function unshare(binary: string): Contender {
  return { label: "unshare -pmn --fork --mount-proc", run: () => spawnAndWait("unshare", ["-pmn", "--fork", "--mount-proc", binary]) };
}

/** bwrap with about what our sandbox has: every namespace, a root of its own, /proc, /dev, /tmp. */
export function bubblewrap(binary: string): Contender | string {
  const bwrap = onPath("bwrap");
  if (!bwrap) return "bwrap: not installed (apt-get install bubblewrap; scripts/provision.sh --test-tools)";
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib",
    "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
    "--ro-bind", binary, "/opt/hello", "/opt/hello"];
  return { label: "bwrap --unshare-all, own root, /proc, /dev, /tmp", run: () => spawnAndWait(bwrap, args) };
}

/** isolate (ioi/isolate) built beside this checkout (../isolate/isolate), BENCH_ISOLATE, or on PATH. */
function isolatePath(): string | undefined {
  const beside = join(import.meta.dirname, "..", "..", "isolate", "isolate");
  return process.env.BENCH_ISOLATE ?? (existsSync(beside) ? beside : onPath("isolate"));
}

/**
 * Two rows when isolate is there: a run in a box initialized once (what a judge pays per test), and
 * the whole cycle of a box (--init, --run, --cleanup) per run.
 */
export function isolate(binary: string, boxId = 97): Contender[] | string {
  const path = isolatePath();
  if (!path) return "isolate: not built beside this checkout (../isolate/isolate), set BENCH_ISOLATE to its binary";
  const box = `--box-id=${boxId}`;
  const init = () => {
    const dir = execFileSync(path, [box, "--init"], { encoding: "utf8" }).trim();
    copyFileSync(binary, join(dir, "box", "hello"));
  };
  const cleanup = () => void execFileSync(path, [box, "--cleanup"]);
  const runOnce = () => spawnAndWait(path, [box, "--run", "--", "./hello"]);
  try {
    init();
  } catch (error) {
    return `isolate at ${path}: --init failed: ${(error as Error).message.split("\n")[0]}`;
  }
  return [
    { label: "isolate --run (box made once)", run: runOnce, close: cleanup },
    {
      label: "isolate --init, --run, --cleanup",
      run: async () => {
        cleanup();
        init();
        await runOnce();
      },
    },
  ];
}
