// The watch of one launched run: output capture, the set-up and wall timers, the CPU watch and
// cancellation, until the launcher's streams have all closed.
import { type CpuShare, NODE_CORES } from "./cgroup/cpu-policy.ts";
import { busyCoresBound, CpuWatch } from "./cpu-watch.ts";
import type { LaunchedSandbox } from "./launcher.ts";
import { CappedCapture } from "./output.ts";
import type { RunSpec } from "./run-spec.ts";

const SETUP_TIMEOUT_MS = 10_000;

export interface WatchInput {
  launched: LaunchedSandbox;
  spec: RunSpec;
  cpu: CpuShare | undefined;
  readUsageUsec: () => number;
  judgeActions: string[];
  signal: AbortSignal | undefined;
  /** Aborted when the run and its interactive peer both sat waiting on each other (idle-watch.ts). */
  idle?: AbortSignal;
}

export interface WatchedRun {
  stdout: CappedCapture;
  stderr: CappedCapture;
  /** The supervisor's wall timer expired before the launcher's streams ended (see run-outcome.ts). */
  wallTimerExpired: boolean;
  cpuKilled: boolean;
  cpuUnreadable: string | undefined;
  cancelled: boolean;
  /** Killed because it and its interactive peer were both waiting on each other. */
  idleKilled: boolean;
  cpuWatch: CpuWatch;
}

/** Watches the run to its end; every kill it makes is named in `judgeActions`. */
export async function watchRun(input: WatchInput): Promise<WatchedRun> {
  const { launched, spec, judgeActions, signal } = input;
  const { limits, onOutput } = spec;
  const stdout = new CappedCapture(launched.stdout, limits.outputBytes, onOutput && ((data) => onOutput("stdout", data)));
  const stderr = new CappedCapture(launched.stderr, limits.outputBytes, onOutput && ((data) => onOutput("stderr", data)));
  const state = { wallTimerExpired: false, cpuKilled: false, cpuUnreadable: undefined as string | undefined, cancelled: false, idleKilled: false };
  /** The launcher's streams have all closed: nothing is left to kill, and no action may change the verdict. */
  let ended = false;
  const stop = (action: string) => {
    if (ended) return;
    judgeActions.push(action);
    launched.kill();
  };
  const setupTimer = setTimeout(
    () => afterPendingIo(() => {
      if (!launched.report.started) stop("sigkill_on_setup_timeout");
    }),
    SETUP_TIMEOUT_MS,
  );
  let wallTimer: NodeJS.Timeout | undefined;
  const cpuWatch = new CpuWatch({
    limitMs: limits.cpuTimeMs,
    cores: busyCoresBound(input.cpu, NODE_CORES),
    readUsageUsec: input.readUsageUsec,
    onExceeded: () => {
      if (state.wallTimerExpired || state.cancelled) return;
      state.cpuKilled = true;
      stop("sigkill_on_cpu_limit");
    },
    onUnreadable: (message) => {
      state.cpuUnreadable = `the run's CPU usage could not be read, so its CPU-time limit could not be enforced: ${message}`;
      stop("sigkill_on_cpu_accounting_failure");
    },
  });
  launched.onStarted(() => {
    clearTimeout(setupTimer);
    wallTimer = setTimeout(() => {
      if (state.cpuKilled) return;
      state.wallTimerExpired = true;
      afterPendingIo(() => {
        // already ended by itself (its end was waiting in the socket): init's clock judges it
        if (!state.cpuKilled && !launched.report.exit) stop("sigkill_on_wall_timeout");
      });
    }, limits.wallTimeMs);
    cpuWatch.start();
  });
  const onAbort = () => {
    state.cancelled = true;
    stop("sigkill_on_cancel");
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  const onIdle = () => {
    if (state.wallTimerExpired || state.cpuKilled || state.cancelled) return;
    state.idleKilled = true;
    stop("sigkill_on_idleness");
  };
  input.idle?.addEventListener("abort", onIdle, { once: true });

  await launched.finished;
  ended = true;
  clearTimeout(setupTimer);
  clearTimeout(wallTimer);
  cpuWatch.stop();
  signal?.removeEventListener("abort", onAbort);
  input.idle?.removeEventListener("abort", onIdle);
  await Promise.all([stdout.done, stderr.done]);
  stdout.closeTap();
  stderr.closeTap();
  return { stdout, stderr, cpuWatch, ...state };
}

/**
 * Runs `action` once the event loop has polled its sockets: after a stall of the loop, Node runs
 * the timers that came due before it reads the sockets, so a timer can fire while the run's end
 * (or its "started") is already waiting, unread, in the launcher's connection. A timer's action
 * that changes the outcome (a kill) waits three loop turns: a connection still in the listen queue
 * is accepted in the first poll and read in the second; an immediate set during the check phase
 * runs in the next turn's, after that turn's poll.
 */
function afterPendingIo(action: () => void, turns = 3): void {
  setImmediate(() => (turns > 1 ? afterPendingIo(action, turns - 1) : action()));
}
