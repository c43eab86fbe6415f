// Talks to the native launcher (fleet/launcher, PROTOCOL.md): builds its command line and
// parses the status lines it writes on fd 3.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { emptyReport, statusLineReader, type LauncherReport } from "./launcher-report.ts";
import { ReadySpares } from "./ready-spares.ts";

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
  /** The run's CPUs (its cpuset's): the launcher, and so init and the program, start on them. */
  cpus?: number[];
  /** Bytes of each output stream forwarded to the supervisor; the rest is drained in the run's cgroups. */
  outputCap?: number;
  /** The program's stderr goes into its stdout (one stream, in the order written). */
  mergeStderr?: boolean;
  /** fd 1 as the zygote wired it (an interactive pair's pipe) is the program's stdout, not drained. */
  stdoutInherit?: boolean;
  /** `cgroup.procs` files the launcher joins to drain the output (the run's CPU accounting and share). */
  drainerProcsFiles?: string[];
  /** `cgroup.procs` files the launcher returns to before it reports `done` (the node's own cgroups). */
  drainerReturnProcsFiles?: string[];
  /** `cgroup.procs` files init returns to when the program has ended (the node's own cgroups). */
  initReturnProcsFiles?: string[];
  /** The run's memory limit: the MemTotal the program's /proc/meminfo shows. */
  memoryLimitBytes: number;
  bindsReadOnly: { hostPath: string; sandboxPath: string; copy?: boolean }[];
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

/**
 * A bind whose host path differs from its sandbox path would show where it lives on the host in
 * /proc/self/mountinfo: such a bind is hidden (PROTOCOL.md, --bind-hidden); small files are copied.
 */
function bindOption(bind: { hostPath: string; sandboxPath: string; copy?: boolean }): string {
  if (bind.copy) return "--file-ro";
  return bind.hostPath === bind.sandboxPath ? "--bind-ro" : "--bind-hidden";
}

/** The stdin "paths" of an interactive pair's two runs, launched back to back (zygote.c joins them by pipes). */
export const PAIR_STDIN = { program: "|pair-a", interactor: "|pair-b" } as const;

/** The stdin "path" of a run whose stdin is live: a fourth connection from the launcher (zygote.c). */
export const LIVE_STDIN = "|stream";

export function launcherArgs(config: LauncherConfig): string[] {
  const args = ["--uid", String(config.uid), "--gid", String(config.gid), "--hostname", config.hostname];
  if (config.netnsPath) args.push("--netns", config.netnsPath);
  for (const file of config.cgroupProcsFiles) args.push("--cgroup-procs", file);
  if (config.cpus) args.push("--cpus", config.cpus.join(","));
  if (config.outputCap !== undefined) args.push("--output-cap", String(config.outputCap));
  if (config.mergeStderr) args.push("--merge-stderr", "1");
  if (config.stdoutInherit) args.push("--stdout-inherit", "1");
  for (const file of config.drainerProcsFiles ?? []) args.push("--drainer-cgroup-procs", file);
  for (const file of config.drainerReturnProcsFiles ?? []) args.push("--drainer-return-procs", file);
  for (const file of config.initReturnProcsFiles ?? []) args.push("--init-return-procs", file);
  args.push("--memory-limit", String(config.memoryLimitBytes));
  for (const bind of config.bindsReadOnly) args.push(bindOption(bind), `${bind.hostPath}:${bind.sandboxPath}`);
  for (const link of config.symlinks) args.push("--symlink", `${link.target}:${link.link}`);
  args.push("--box-size", String(config.boxBytes), "--tmp-size", String(config.tmpBytes));
  for (const file of config.copyIn) args.push("--copy-in", `${file.hostPath}:${file.name}:${file.mode.toString(8)}`);
  for (const file of config.copyOut) args.push("--copy-out", `${file.name}:${file.hostPath}:${file.maxBytes}`);
  for (const [name, value] of Object.entries(config.rlimits)) args.push("--rlimit", `${name}=${value}`);
  for (const [key, value] of Object.entries(config.env)) args.push("--env", `${key}=${value}`);
  args.push("--cwd", config.cwd, "--", ...config.argv);
  return args;
}

export interface LaunchedSandbox {
  stdout: Readable;
  stderr: Readable;
  report: LauncherReport;
  /** Resolves when the launcher's three streams have closed (or never came: see report.unparsed). */
  finished: Promise<void>;
  /** Calls back once, when the program's execve succeeded. */
  onStarted(callback: () => void): void;
  /** Asks the launcher to SIGKILL the sandbox's init (and so its whole pid namespace). */
  kill(): void;
  /** A signal for the program alone (a live session's); one asked for before the launcher connected waits for it. */
  signal(name: ProgramSignal): void;
}

/** The signals a caller may send the program (fleet/launcher/forward.c), as control bytes. */
const SIGNAL_BYTES = { SIGINT: "i", SIGTERM: "t", SIGKILL: "K" } as const;
export type ProgramSignal = keyof typeof SIGNAL_BYTES;
export const PROGRAM_SIGNALS = Object.keys(SIGNAL_BYTES) as ProgramSignal[];

/**
 * How long a killed run may take to show up before it is given up as lost: CONNECT_GRACE_TICKS
 * timer ticks of CONNECT_GRACE_TICK_MS (about 2 s), not one 2 s timer. The event loop polls its
 * sockets between two ticks, so a connection that waited in the listen queue while the loop was
 * stalled is accepted and read before the grace runs out: a stall only delays it.
 */
const CONNECT_GRACE_TICKS = 20;
const CONNECT_GRACE_TICK_MS = 100;
const NONCE_BYTES = 16;
const HEADER_LENGTH = NONCE_BYTES * 2 + 5; // "<32 hex> out\n"

type StreamKind = "out" | "err" | "ctl" | "in";
const EMPTY = Buffer.alloc(0);

interface PendingRun {
  attach(kind: StreamKind, socket: Socket, rest: Buffer): void;
  fail(reason: string): void;
}

/**
 * The launcher as a zygote (zygote.c): spawned once, it forks one small static process per run
 * instead of this large Node process forking for every run. Each run's launcher connects back to
 * a unix socket in the node's private run directory with its stdout, stderr and status/control
 * streams, introduced by the run's random nonce. Most runs take a spare instead: a child forked
 * ahead, already connected under a token of its own (ready-spares.ts), to which the request is
 * written directly.
 */
export class LauncherZygote {
  readonly #server: Server;
  readonly #socketPath: string;
  readonly #child: ChildProcess;
  readonly #pending = new Map<string, PendingRun>();
  readonly #spares = new ReadySpares();
  #exitReason: string | undefined;

  private constructor(server: Server, socketPath: string, child: ChildProcess) {
    this.#server = server;
    this.#socketPath = socketPath;
    this.#child = child;
    server.on("connection", (socket) => this.#accept(socket));
    child.on("exit", (code, signal) => this.#lost(`the launcher zygote exited (code ${code}, signal ${signal})`));
    child.on("error", (error) => this.#lost(`the launcher zygote failed: ${error.message}`));
    child.stdin?.on("error", () => {}); // reported through "exit"
  }

  /** `housekeepingCpus`: the node's own cores, where each run's teardown is done and the zygote is not (housekeeping.c); none: nothing moves. */
  static async start(socketPath: string, launcherPath = LAUNCHER_PATH, housekeepingCpus: number[] = []): Promise<LauncherZygote> {
    rmSync(socketPath, { force: true });
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
    const housekeeping = housekeepingCpus.length > 0 ? ["--housekeeping-cpus", housekeepingCpus.join(",")] : [];
    const child = spawn(launcherPath, ["--serve", socketPath, ...housekeeping], { stdio: ["pipe", "ignore", "inherit"], env: {} });
    return new LauncherZygote(server, socketPath, child);
  }

  /** Why the zygote cannot take runs any more, if it cannot. */
  get problem(): string | undefined {
    return this.#exitReason;
  }

  #lost(reason: string): void {
    this.#exitReason ??= reason;
    this.#spares.closeAll();
    for (const run of this.#pending.values()) run.fail(reason);
    this.#pending.clear();
  }

  #accept(socket: Socket): void {
    let header = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      header = Buffer.concat([header, chunk]);
      if (header.length < HEADER_LENGTH) return;
      socket.off("data", onData);
      const line = header.subarray(0, HEADER_LENGTH).toString("latin1");
      const [nonce = "", kind = ""] = line.trim().split(" ");
      const run = this.#pending.get(nonce);
      if (!run) return this.#spares.accept(nonce, kind, socket, header.subarray(HEADER_LENGTH));
      if (kind !== "out" && kind !== "err" && kind !== "ctl" && kind !== "in") return socket.destroy();
      run.attach(kind, socket, header.subarray(HEADER_LENGTH));
    };
    socket.on("data", onData);
    socket.on("error", () => socket.destroy());
  }

  /** `stdinPath`: a host-made file (no pipe, no deadlock), undefined (empty), or LIVE_STDIN with `liveStdin` (as it comes). */
  launch(config: LauncherConfig, stdinPath: string | undefined, liveStdin?: Readable): LaunchedSandbox {
    // 122 random bits, from a buffer of them kept by Node (a fresh randomBytes call costs more)
    const nonce = randomUUID().replaceAll("-", "");
    const report = emptyReport();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const open = new Set<StreamKind>(["out", "err", "ctl"]);
    let control: Socket | undefined;
    let killRequested = false;
    /** Signals asked for before the launcher's control connection was read: sent once it is. */
    let pendingSignals = "";
    let startedCallback: (() => void) | undefined;
    let resolveFinished!: () => void;
    const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
    const closed = (kind: StreamKind) => {
      if (!open.delete(kind)) return;
      if (kind === "out") stdout.end();
      if (kind === "err") stderr.end();
      if (open.size === 0) {
        this.#pending.delete(nonce);
        resolveFinished();
      }
    };
    const onStatus = statusLineReader(report, () => startedCallback?.());
    const run: PendingRun = {
      attach(kind, socket, rest) {
        if (kind === "in") return attachLiveStdin(socket, liveStdin, finished);
        if (!open.has(kind)) return socket.destroy();
        if (kind === "ctl") {
          control = socket;
          // "done" is the last line: closed on reading it, not at the half-close (PROTOCOL.md, zygote mode)
          const onChunk = (chunk: Buffer) => {
            onStatus(chunk);
            if (report.done) socket.destroy();
          };
          if (rest.length > 0) onChunk(rest);
          socket.on("data", onChunk);
          if (!socket.destroyed) socket.write(killRequested ? "k" : pendingSignals);
        } else {
          const target = kind === "out" ? stdout : stderr;
          if (rest.length > 0) target.write(rest);
          socket.on("data", (chunk: Buffer) => target.write(chunk));
        }
        socket.on("close", () => closed(kind));
      },
      fail(reason) {
        report.unparsed.push(reason);
        for (const kind of [...open]) closed(kind);
      },
    };
    this.#pending.set(nonce, run);
    if (this.#exitReason) run.fail(this.#exitReason);
    else this.#send(run, launchFrame(nonce, stdinPath, config), stdinPath, config);
    return {
      stdout,
      stderr,
      report,
      finished,
      onStarted(callback) {
        startedCallback = callback;
        if (report.started) callback();
      },
      signal: (name) => {
        if (killRequested || control?.destroyed) return;
        if (control) control.write(SIGNAL_BYTES[name]);
        else pendingSignals += SIGNAL_BYTES[name];
      },
      kill: () => {
        if (killRequested) return;
        killRequested = true;
        // A launcher that never connected (fork or connect failed) is given up after a grace period;
        // a connection closed on reading "done" has nothing left to kill.
        if (!control) giveUpUnlessConnected(() => open.has("ctl") && !control, () => run.fail("the launcher never connected"));
        else if (!control.destroyed) control.write("k");
      },
    };
  }

  /** The request to a waiting spare of its CPUs, else to the zygote (a pair's runs need the pipes it makes). */
  #send(run: PendingRun, frame: Buffer, stdinPath: string | undefined, config: LauncherConfig): void {
    const paired = stdinPath === PAIR_STDIN.program || stdinPath === PAIR_STDIN.interactor;
    const spare = paired ? undefined : this.#spares.take(config.cpus?.join(",") ?? "");
    if (!spare) return void this.#child.stdin!.write(frame);
    spare.ctl.write(frame); // before any control byte attach may write
    for (const kind of ["out", "err", "ctl"] as const) run.attach(kind, spare[kind], EMPTY);
    spare.ctl.resume();
  }

  async close(): Promise<void> {
    this.#exitReason ??= "closed";
    this.#spares.closeAll();
    this.#child.stdin?.end();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    rmSync(this.#socketPath, { force: true });
  }
}

/** The program's live stdin: `source` flows into the connection until it ends or the run does. */
function attachLiveStdin(socket: Socket, source: Readable | undefined, finished: Promise<void>): void {
  if (!source) return void socket.destroy();
  socket.allowHalfOpen = true; // the launcher shut its side at once: the program cannot write back
  socket.on("error", () => {}); // the program ended or closed its stdin: the rest is not wanted
  source.pipe(socket);
  void finished.then(() => {
    source.unpipe(socket);
    socket.destroy();
  });
}

/** One run's request to the zygote: a length-prefixed list of NUL-terminated fields (PROTOCOL.md). */
function launchFrame(nonce: string, stdinPath: string | undefined, config: LauncherConfig): Buffer {
  const payload = Buffer.from([nonce, stdinPath ?? "", ...launcherArgs(config)].map((field) => `${field}\0`).join(""));
  const frame = Buffer.alloc(4 + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  payload.copy(frame, 4);
  return frame;
}

/** Calls `giveUp` once the grace has run out with `waiting()` still true (see CONNECT_GRACE_TICKS). */
function giveUpUnlessConnected(waiting: () => boolean, giveUp: () => void): void {
  let ticks = 0;
  const tick = () => {
    if (!waiting()) return;
    if (++ticks >= CONNECT_GRACE_TICKS) return giveUp();
    setTimeout(tick, CONNECT_GRACE_TICK_MS).unref();
  };
  setTimeout(tick, CONNECT_GRACE_TICK_MS).unref();
}
