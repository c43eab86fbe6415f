// The check server's answers (fleet/launcher/checkd/checkd.h): each a 64-byte header of eight
// little-endian u64s (magic, kind, value, flags, cpu µs, wall µs, peak memory bytes, stderr
// length), then at most 4 KiB of the checker's stderr. A report becomes the record a checker's
// fresh run would have had, for checkerVerdict (checker-verdict.ts).
import { constants } from "node:os";
import type { CgroupReadings } from "../../sandbox/cgroup/driver.ts";
import { notRun } from "../../sandbox/failed-setup.ts";
import type { ExecutionRecord, Limits } from "../../sandbox/run-spec.ts";
import { decideVerdict, type ProgramExit } from "../../sandbox/verdict.ts";
import { CHECKER_MESSAGE_BYTES } from "./checker-verdict.ts";

const MAGIC = 0x31444b43n;
const HEADER_BYTES = 64;
const SIGNALED = 1n;
const FLAGS = { cpuTimeout: 1n, wallTimeout: 2n, killedByServer: 4n };

export interface CheckReport {
  exit: ProgramExit;
  cpuTimeout: boolean;
  wallTimeout: boolean;
  /** The server killed the checker (at its wall or CPU limit). */
  killedByServer: boolean;
  cpuUsec: number;
  wallUsec: number;
  memoryPeakBytes: number;
  stderr: Uint8Array;
}

/** The bytes one report can take: what the server's stdout cap is made of. */
export const MAX_REPORT_BYTES = HEADER_BYTES + CHECKER_MESSAGE_BYTES;

/** Reads reports out of the server's stdout chunks as they come; anything that is not a report breaks it for good. */
export class ReportReader {
  #buffered = Buffer.alloc(0);
  broken = false;

  push(data: Uint8Array): void {
    if (!this.broken) this.#buffered = Buffer.concat([this.#buffered, data]);
  }

  /** The next whole report, or undefined when it has not all come yet (or the stream is broken). */
  next(): CheckReport | undefined {
    const bytes = this.#buffered;
    if (this.broken || bytes.length < HEADER_BYTES) return undefined;
    const field = (index: number) => bytes.readBigUInt64LE(index * 8);
    const stderrLength = field(7);
    if (field(0) !== MAGIC || field(1) > SIGNALED || field(2) > 255n || stderrLength > BigInt(CHECKER_MESSAGE_BYTES)) {
      this.broken = true;
      return undefined;
    }
    const end = HEADER_BYTES + Number(stderrLength);
    if (bytes.length < end) return undefined;
    this.#buffered = bytes.subarray(end);
    const value = Number(field(2));
    const flags = field(3);
    return {
      exit: field(1) === SIGNALED ? { kind: "signaled", signal: value } : { kind: "exited", code: value },
      cpuTimeout: (flags & FLAGS.cpuTimeout) !== 0n,
      wallTimeout: (flags & FLAGS.wallTimeout) !== 0n,
      killedByServer: (flags & FLAGS.killedByServer) !== 0n,
      cpuUsec: Number(field(4)),
      wallUsec: Number(field(5)),
      memoryPeakBytes: Number(field(6)),
      stderr: new Uint8Array(bytes.subarray(HEADER_BYTES, end)),
    };
  }
}

/** The cgroup's counters one check added (NaN when they could not be read). */
export interface CheckCounters {
  oomKills: number;
  pidsLimitHits: number;
}

/** The counters between two readings of the server's cgroup; NaN when either could not read them. */
export function countersBetween(before: CgroupReadings | undefined, after: CgroupReadings | undefined): CheckCounters {
  const unread = (readings: CgroupReadings | undefined) => !readings || readings.errors.length > 0;
  if (unread(before) || unread(after)) return { oomKills: NaN, pidsLimitHits: NaN };
  return { oomKills: after!.oomKillEvents - before!.oomKillEvents, pidsLimitHits: after!.pidsLimitHits - before!.pidsLimitHits };
}

/**
 * The record of one check, as a fresh run's: the same verdict rules (verdict.ts). The cgroup's
 * OOM kills decide `oom_kill`; without them, a SIGKILL the server did not send is taken for the
 * OOM killer's (the checker's CPU limit is the server's to enforce, and it says when it killed).
 */
export function reportRecord(report: CheckReport, counters: CheckCounters, limits: Limits): ExecutionRecord {
  const { exit } = report;
  const unexplainedKill = exit.kind === "signaled" && exit.signal === constants.signals.SIGKILL && !report.killedByServer;
  const fileSize = exit.kind === "signaled" && exit.signal === constants.signals.SIGXFSZ;
  const decision = decideVerdict({
    cancelled: false,
    exit,
    wallTimeout: report.wallTimeout,
    cpuTimeout: report.cpuTimeout,
    oomKills: Number.isNaN(counters.oomKills) ? Number(unexplainedKill) : counters.oomKills,
    pidsLimitHits: Number.isNaN(counters.pidsLimitHits) ? 0 : counters.pidsLimitHits,
    fileSizeLimitHits: Number(fileSize),
  });
  const record = notRun(decision, [], limits).result;
  return {
    ...record,
    exit_code: exit.kind === "exited" ? exit.code : null,
    signal: exit.kind === "signaled" ? exit.signal : null,
    stderr: new TextDecoder().decode(report.stderr),
    cpu_time_secs: report.cpuUsec / 1e6,
    wall_time_secs: report.wallUsec / 1e6,
    memory_peak_bytes: report.memoryPeakBytes,
  };
}
