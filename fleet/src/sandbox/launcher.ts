// Talks to the native launcher (fleet/launcher, PROTOCOL.md): builds its command line and
// parses the status lines it writes on fd 3.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Writable } from "node:stream";
import type { ProgramExit } from "./verdict.ts";

export const LAUNCHER_PATH = join(import.meta.dirname, "..", "..", "launcher", "build", "codecell-launcher");

export function launcherProblems(path = LAUNCHER_PATH): string[] {
  return existsSync(path) ? [] : [`launcher binary missing at ${path} (run: npm run prepare)`];
}

export interface LauncherConfig {
  uid: number;
  gid: number;
  hostname: string;
  netnsPath?: string;
  cgroupProcsFiles: string[];
  bindsReadOnly: { hostPath: string; sandboxPath: string }[];
  symlinks: { target: string; link: string }[];
  boxBytes: number;
  tmpBytes: number;
  copyIn: { hostPath: string; name: string; mode: number }[];
  copyOut: { name: string; hostPath: string; maxBytes: number }[];
  rlimits: Record<string, number>;
  env: Record<string, string>;
  cwd: string;
  argv: string[];
}

export function launcherArgs(config: LauncherConfig): string[] {
  const args = ["--uid", String(config.uid), "--gid", String(config.gid), "--hostname", config.hostname];
  if (config.netnsPath) args.push("--netns", config.netnsPath);
  for (const file of config.cgroupProcsFiles) args.push("--cgroup-procs", file);
  for (const bind of config.bindsReadOnly) args.push("--bind-ro", `${bind.hostPath}:${bind.sandboxPath}`);
  for (const link of config.symlinks) args.push("--symlink", `${link.target}:${link.link}`);
  args.push("--box-size", String(config.boxBytes), "--tmp-size", String(config.tmpBytes));
  for (const file of config.copyIn) args.push("--copy-in", `${file.hostPath}:${file.name}:${file.mode.toString(8)}`);
  for (const file of config.copyOut) args.push("--copy-out", `${file.name}:${file.hostPath}:${file.maxBytes}`);
  for (const [name, value] of Object.entries(config.rlimits)) args.push("--rlimit", `${name}=${value}`);
  for (const [key, value] of Object.entries(config.env)) args.push("--env", `${key}=${value}`);
  args.push("--cwd", config.cwd, "--", ...config.argv);
  return args;
}

export interface LauncherReport {
  applied: string[];
  failure?: { control: string; errno: number; message: string };
  started: boolean;
  exit?: ProgramExit;
  fileSizeLimitHits: number;
  leftover: number;
  usage?: { userUsec: number; systemUsec: number; maxRssKb: number };
  copyOuts: Map<string, { bytes: number } | { reason: string }>;
  killed: boolean;
  done: boolean;
  /** performance.now() when `started` and `exit` arrived: the program's wall-clock span. */
  startedAt?: number;
  exitedAt?: number;
  /** Lines that did not parse: the launcher and this file disagree, an internal error. */
  unparsed: string[];
}

export function emptyReport(): LauncherReport {
  return { applied: [], started: false, fileSizeLimitHits: 0, leftover: 0, copyOuts: new Map(), killed: false, done: false, unparsed: [] };
}

/** Applies one status line to the report. */
export function applyStatusLine(report: LauncherReport, line: string): void {
  const [word, ...rest] = line.split(" ");
  const number = (index: number) => Number(rest[index]);
  switch (word) {
    case "applied":
      if (rest[0]) report.applied.push(rest[0]);
      return;
    case "fail":
      report.failure ??= { control: rest[0] ?? "unknown", errno: number(1), message: rest.slice(2).join(" ") };
      return;
    case "started":
      report.started = true;
      return;
    case "exit":
      report.exit = rest[0] === "signaled" ? { kind: "signaled", signal: number(1) } : { kind: "exited", code: number(1) };
      return;
    case "fsize_hit":
      report.fileSizeLimitHits = number(0);
      return;
    case "leftover":
      report.leftover = number(0);
      return;
    case "usage":
      report.usage = { userUsec: number(0), systemUsec: number(1), maxRssKb: number(2) };
      return;
    case "copyout":
      report.copyOuts.set(rest[0] ?? "", { bytes: number(1) });
      return;
    case "copyout_fail":
      report.copyOuts.set(rest[0] ?? "", { reason: rest[1] ?? "unknown" });
      return;
    case "killed":
      report.killed = true;
      return;
    case "done":
      report.done = true;
      return;
    default:
      report.unparsed.push(line);
  }
}

export interface LaunchedSandbox {
  child: ChildProcess;
  report: LauncherReport;
  /** Resolves when the launcher has exited and its status pipe is closed. */
  finished: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Calls back once, when the program's execve succeeded. */
  onStarted(callback: () => void): void;
  /** Asks the launcher to SIGKILL the sandbox's init (and so its whole pid namespace). */
  kill(): void;
}

/** `stdin` is an open file the program reads as its stdin (no pipe, so no deadlock), or /dev/null. */
export function launch(config: LauncherConfig, stdin: number | "ignore", launcherPath = LAUNCHER_PATH): LaunchedSandbox {
  const child = spawn(launcherPath, launcherArgs(config), {
    stdio: [stdin, "pipe", "pipe", "pipe", "pipe"],
    env: {},
  });
  const report = emptyReport();
  const status = child.stdio[3];
  const control = child.stdio[4] as Writable;
  control.on("error", () => {}); // the launcher may be gone already
  let startedCallback: (() => void) | undefined;
  let pending = "";
  status?.on("data", (chunk: Buffer) => {
    pending += chunk.toString("latin1");
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      const wasStarted = report.started;
      const hadExit = report.exit !== undefined;
      applyStatusLine(report, line);
      if (!hadExit && report.exit) report.exitedAt = performance.now();
      if (!wasStarted && report.started) {
        report.startedAt = performance.now();
        startedCallback?.();
      }
    }
  });
  const statusClosed = new Promise<void>((resolve) => {
    if (!status) return resolve();
    status.on("close", () => resolve());
    status.on("error", () => resolve());
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("exit", (code, signal) => resolve({ code, signal }));
    child.on("error", (error) => {
      report.unparsed.push(`spawn error: ${error.message}`);
      resolve({ code: null, signal: null });
    });
  });
  let killRequested = false;
  return {
    child,
    report,
    finished: Promise.all([exited, statusClosed]).then(([exit]) => exit),
    onStarted(callback) {
      startedCallback = callback;
      if (report.started) callback();
    },
    kill() {
      if (killRequested) return;
      killRequested = true;
      control.write("k");
    },
  };
}
