// A submission's check server (docs/languages.md, "Custom checkers"; docs/sandbox.md, "Check
// server"): one sandbox for all of a test set's checks, in the partner of the job's slot. Its
// program is the check server (fleet/launcher/checkd), started once with the checker's
// configuration (binds, files, environment, memory as the cgroup's limit); each check is a
// request on its live stdin and a report on its stdout. Once the server is gone (it died, broke
// its framing, sent no report in time, or could not start) every check left, the one it failed
// included, runs as before: in a fresh sandbox of its own.
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { CgroupReadings } from "../../sandbox/cgroup/driver.ts";
import { RUN_LIMITS } from "../../sandbox/limits.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import type { ExecutionRecord, Limits, RunSpec } from "../../sandbox/run-spec.ts";
import { TESTS_WALL_BUDGET_MS } from "../../../../proto/submission-rules.ts";
import { countersBetween, MAX_REPORT_BYTES, ReportReader, reportRecord, type CheckReport } from "./check-report.ts";
import { checkerJudge, type CheckService, type PreparedChecker } from "./custom-checker.ts";
import type { JudgeRun } from "../tests.ts";

const BUILD = join(import.meta.dirname, "..", "..", "..", "launcher", "build");
/** The server, and its warm start preloaded into a dynamically linked checker (fleet/launcher/checkd/warm.h). */
const CHECKD_BINDS = [
  { hostPath: join(BUILD, "codecell-checkd"), sandboxPath: "/opt/checkd" },
  { hostPath: join(BUILD, "codecell-checkd-warm.so"), sandboxPath: "/opt/checkd-warm.so" },
];
/** How long past the checker's wall limit the node waits for a report before it gives the server up. */
const REPORT_GRACE_MS = 5_000;

/**
 * The server's run: the checker's limits stretched over the whole test set (the submission's tests
 * budget, the last test's run and check past it; each check's CPU time once, but never more than
 * that budget and the last check allow: the checks' time counts in the budget, so a test set's
 * checks cannot use more than it; the server's and a warm checker's processes); the server holds
 * each check to the checker's own.
 */
export function serverLimits(checker: Limits, tests: number, budgetMs = TESTS_WALL_BUDGET_MS): Limits {
  return {
    ...checker,
    wallTimeMs: budgetMs + RUN_LIMITS.wallTimeMs + checker.wallTimeMs,
    cpuTimeMs: Math.min(checker.cpuTimeMs * tests, budgetMs + checker.cpuTimeMs) + 1_000,
    processes: checker.processes + 2, // the server and a warm checker
    outputBytes: MAX_REPORT_BYTES * tests,
  };
}

export type CheckBytes = Uint8Array | string;

export class CheckServer implements CheckService {
  readonly #limits: Limits;
  readonly #input = new PassThrough();
  readonly #reports = new ReportReader();
  readonly #stop = new AbortController();
  readonly #ended: Promise<void>;
  #gone: string | undefined;
  #read: (() => CgroupReadings) | undefined;
  /** The cgroup's counters after the last check (before the first: when the server started). */
  #lastReadings: CgroupReadings | undefined;
  #wake: (() => void) | undefined;
  /** Checks the server answered. */
  served = 0;

  /** `budgetMs`: the submission's tests budget (testsBudgetMs), which bounds the server's limits. */
  constructor(sandbox: Sandbox, checker: PreparedChecker, tests: number, signal?: AbortSignal, budgetMs = TESTS_WALL_BUDGET_MS) {
    this.#limits = checker.limits;
    this.#input.on("error", () => {}); // the server is gone: what was still for it is not wanted
    const spec: RunSpec = {
      ...checker,
      argv: [CHECKD_BINDS[0]!.sandboxPath, String(checker.limits.cpuTimeMs), String(checker.limits.wallTimeMs), "--", ...checker.argv],
      binds: [...(checker.binds ?? []), ...CHECKD_BINDS],
      liveStdin: this.#input,
      limits: serverLimits(checker.limits, tests, budgetMs),
      onOutput: (stream, data) => {
        if (stream === "stdout") this.#reports.push(data);
        this.#wake?.();
      },
    };
    const stop = signal ? AbortSignal.any([signal, this.#stop.signal]) : this.#stop.signal;
    const started = (read: () => CgroupReadings) => {
      this.#read = read;
      this.#lastReadings = this.#readings();
    };
    this.#ended = sandbox.runBeside(spec, stop, started).then(
      (outcome) => this.#end(`it ended: ${outcome.result.error_message ?? outcome.result.verdict}`),
      (error: Error) => this.#end(`it could not start: ${error.message}`),
    );
  }

  /** Why the server is gone, once it is. */
  get gone(): string | undefined {
    return this.#gone;
  }

  /** One check's record and stderr, or undefined when the server is gone (check in a fresh sandbox then). */
  async check(input: CheckBytes, output: CheckBytes, answer: CheckBytes): Promise<{ record: ExecutionRecord; stderr: Uint8Array } | undefined> {
    if (this.#gone) return undefined;
    for (const file of [input, output, answer]) {
      const bytes = typeof file === "string" ? Buffer.from(file) : file;
      const length = Buffer.alloc(8);
      length.writeBigUInt64LE(BigInt(bytes.byteLength));
      this.#input.write(length);
      this.#input.write(bytes);
    }
    const report = await this.#report();
    if (!report) return undefined;
    this.served++;
    const after = this.#readings();
    const record = reportRecord(report, countersBetween(this.#lastReadings, after), this.#limits);
    this.#lastReadings = after;
    return { record, stderr: report.stderr };
  }

  /** Ends the server (end of its input) and waits until its sandbox is gone. */
  async close(): Promise<void> {
    this.#input.end();
    await this.#ended;
  }

  #readings(): CgroupReadings | undefined {
    try {
      return this.#read?.();
    } catch {
      return undefined;
    }
  }

  /** The next report; none when the server ends, breaks its framing or sends none in time (then it is stopped). */
  async #report(): Promise<CheckReport | undefined> {
    const timer = setTimeout(() => this.#end("it sent no report in time"), this.#limits.wallTimeMs + REPORT_GRACE_MS);
    try {
      for (;;) {
        const report = this.#reports.next();
        if (report) return report;
        if (this.#reports.broken) this.#end("it broke the framing of its reports");
        if (this.#gone) return undefined;
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      clearTimeout(timer);
      this.#wake = undefined;
    }
  }

  #end(why: string): void {
    this.#gone ??= why;
    this.#stop.abort();
    this.#input.destroy();
    this.#wake?.();
  }
}

/**
 * Runs a test set (`work`) as a job holding one slot, with a check server in that slot's partner
 * judging each run the kernel judged AC; the server is closed before the slot is given back.
 */
export function withCheckServer<T>(
  sandbox: Sandbox, checker: PreparedChecker, tests: number, budgetMs: number, signal: AbortSignal | undefined, work: (judge: JudgeRun) => Promise<T>,
): Promise<T> {
  return sandbox.inJob(async () => {
    const server = new CheckServer(sandbox, checker, tests, signal, budgetMs);
    try {
      return await work(checkerJudge(sandbox, checker, signal, server));
    } finally {
      await server.close();
    }
  });
}
