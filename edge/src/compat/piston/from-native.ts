// Our result record → Piston v2's execute response and runtimes list. Pure; unit tested.
import { fromBase64 } from "../../../../proto/base64.ts";
import type { ResultRecord } from "../../../../proto/record.ts";
import type { Runtime } from "../../../../proto/runtimes.ts";
import { buildOutput, isBuildFailure, isNoExecutable } from "../build-failure.ts";
import { PISTON_LANGUAGE, pistonAliases, pistonRuntimeName } from "./to-native.ts";

const SIGNAL_NAMES: Record<number, string> = {
  1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
  10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ", 31: "SIGSYS",
};

export interface PistonStage {
  stdout: string;
  stderr: string;
  output: string;
  code: number | null;
  signal: string | null;
  message: string | null;
  status: string | null;
  cpu_time: number | null;
  wall_time: number | null;
  memory: number | null;
}

/** Piston's status for a run: RE, SG, TO, OL, EL, XX, or null when it ended normally. */
export function pistonStatus(rec: ResultRecord): string | null {
  if (rec.job_status === "error" || rec.verdict === "IE") return "XX";
  if (rec.verdict === "TLE") return "TO";
  if (rec.output_integrity === "truncated_by_judge_limit") return "OL";
  if (rec.signal !== null) return "SG";
  if (rec.exit_code !== null && rec.exit_code !== 0) return "RE";
  if (rec.verdict !== "AC" && rec.verdict !== "WA") return "SG";
  return null;
}

/** The record's output as text (a base64 record decoded; bytes that are not UTF-8 replaced). */
const text = (value: string | null, base64: boolean) =>
  value === null ? "" : base64 ? new TextDecoder().decode(fromBase64(value) ?? new Uint8Array()) : value;

/** One of Piston's stages from our record: the run's, or the failed compile's. */
export function stage(rec: ResultRecord, stdout: string, stderr: string): PistonStage {
  const signal = rec.signal === null ? null : (SIGNAL_NAMES[rec.signal] ?? `SIG${rec.signal}`);
  return {
    stdout, stderr, output: stdout + stderr,
    code: rec.exit_code, signal,
    message: rec.verdict === "AC" ? null : rec.error_message,
    status: pistonStatus(rec),
    cpu_time: rec.cpu_time_secs === null ? null : Math.round(rec.cpu_time_secs * 1000),
    wall_time: rec.wall_time_secs === null ? null : Math.round(rec.wall_time_secs * 1000),
    memory: rec.memory_peak_bytes,
  };
}

const EMPTY_STAGE: PistonStage = {
  stdout: "", stderr: "", output: "", code: 0, signal: null, message: null, status: null, cpu_time: null, wall_time: null, memory: null,
};

/** Piston's execute response: `compile` for compiled languages, `run` unless the compile failed. */
export function pistonResult(rec: ResultRecord, runtime: Runtime): Record<string, unknown> {
  const base64 = rec.encoding === "base64";
  const out: Record<string, unknown> = { language: PISTON_LANGUAGE[runtime.language] ?? runtime.language, version: runtime.version };
  if (isBuildFailure(rec)) {
    // A build with no program exited 0: Piston's failed compile stage has a non-zero code.
    const diagnostics = buildOutput(rec, text(rec.stderr, base64));
    const code = isNoExecutable(rec) ? 1 : (rec.exit_code ?? 1);
    out.compile = { ...stage(rec, "", diagnostics), code, status: rec.signal !== null ? "SG" : "RE" };
    return out;
  }
  if (runtime.compiled) out.compile = EMPTY_STAGE;
  out.run = stage(rec, text(rec.stdout, base64), text(rec.stderr, base64));
  return out;
}

export function pistonRuntimes(runtimes: readonly Runtime[]): { language: string; version: string; aliases: string[]; runtime?: string }[] {
  // Piston has no multi-file language (Judge0's 89): only the languages Piston names are listed.
  return runtimes.filter((r) => Object.hasOwn(PISTON_LANGUAGE, r.language)).map((r) => ({
    language: PISTON_LANGUAGE[r.language] ?? r.language,
    version: r.version,
    aliases: pistonAliases(r.language),
    ...(pistonRuntimeName(r.language) ? { runtime: pistonRuntimeName(r.language) } : {}),
  }));
}
