// The launcher's status lines (fleet/launcher/PROTOCOL.md, "Status lines"): the report they make
// of one run, parsed line by line as the stream arrives.
import type { ProgramExit } from "./verdict.ts";

export interface LauncherReport {
  applied: string[];
  failure?: { control: string; errno: number; message: string };
  started: boolean;
  exit?: ProgramExit;
  fileSizeLimitHits: number;
  leftover: number;
  /** The program's wall time as init measured it (from its go-ahead to exec, to its exit). */
  wallUsec?: number;
  /** When init saw the program end, on the host's monotonic clock (µs): comparable across runs. */
  endedAtUsec?: number;
  usage?: { userUsec: number; systemUsec: number; maxRssKb: number };
  /** Copied, or why not (`size`: a file over its cap, how large it was). */
  copyOuts: Map<string, { bytes: number } | { reason: string; size?: number }>;
  /** Bytes the program wrote to each stream, as the drainer counted them (forwarded + discarded). */
  outputTotals: { out?: number; err?: number };
  killed: boolean;
  done: boolean;
  /** performance.now() when `started` and `exit` arrived: the program's wall-clock span. */
  startedAt?: number;
  exitedAt?: number;
  /** Lines that did not parse: the launcher and this file disagree, an internal error. */
  unparsed: string[];
}

export function emptyReport(): LauncherReport {
  return { applied: [], started: false, fileSizeLimitHits: 0, leftover: 0, copyOuts: new Map(), outputTotals: {}, killed: false, done: false, unparsed: [] };
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
    case "wall":
      report.wallUsec = number(0);
      return;
    case "ended_at":
      report.endedAtUsec = number(0);
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
      report.copyOuts.set(rest[0] ?? "", { reason: rest[1] ?? "unknown", ...(rest[2] !== undefined ? { size: number(2) } : {}) });
      return;
    case "output":
      if (rest[0] === "out" || rest[0] === "err") report.outputTotals[rest[0]] = number(1);
      else report.unparsed.push(line);
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

/**
 * Whether `a`'s program ended no later than `b`'s: by init's clock where both have it (the order in
 * which the supervisor happens to read two status streams is not the order of the ends), else by
 * when their `exit` lines were read. A run with no end ended last.
 */
export function endedFirst(a: LauncherReport, b: LauncherReport): boolean {
  if (a.endedAtUsec !== undefined && b.endedAtUsec !== undefined) return a.endedAtUsec <= b.endedAtUsec;
  return (a.exitedAt ?? Infinity) <= (b.exitedAt ?? Infinity);
}

/** Applies the status stream's lines to the report as they complete, timing `started` and `exit`. */
export function statusLineReader(report: LauncherReport, onStarted: () => void): (chunk: Buffer) => void {
  let pendingLine = "";
  return (chunk) => {
    pendingLine += chunk.toString("latin1");
    let newline: number;
    while ((newline = pendingLine.indexOf("\n")) >= 0) {
      const line = pendingLine.slice(0, newline);
      pendingLine = pendingLine.slice(newline + 1);
      const wasStarted = report.started;
      const hadExit = report.exit !== undefined;
      applyStatusLine(report, line);
      if (!hadExit && report.exit) report.exitedAt = performance.now();
      if (!wasStarted && report.started) {
        report.startedAt = performance.now();
        onStarted();
      }
    }
  };
}
