// What a finished run means for the shell: the exit status mapped from the verdict, and the
// one-line summary (verdict, CPU and wall time, peak memory).
import type { ResultRecord, Verdict } from "../../client/src/index.ts";

/**
 * Exit statuses of `codecell run`: 0 AC, 1 WA, 2 RE or SIG (a compile error is RE), 3 TLE, 4 MLE,
 * 5 PLE or FSE, 6 IE or a job that ended in error; 64 usage (bad flag, unknown extension, unreadable
 * file), 65 the API refused the request (400, 404, 413), 69 edge unreachable or failing (network,
 * 5xx, 429/503 after the retries), 77 not authenticated (missing or rejected API key), 130 Ctrl-C.
 */
export const RUN_EXIT = {
  internal: 6, usage: 64, refused: 65, unavailable: 69, unauthorized: 77, interrupted: 130,
} as const;

const BY_VERDICT: Record<Verdict, number> = { AC: 0, WA: 1, RE: 2, SIG: 2, TLE: 3, MLE: 4, PLE: 5, FSE: 5, IE: 6, SKIPPED: 3 };

export function exitStatus(record: Pick<ResultRecord, "job_status" | "verdict">): number {
  if (record.job_status !== "completed" || !record.verdict) return RUN_EXIT.internal;
  return BY_VERDICT[record.verdict] ?? RUN_EXIT.internal;
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function millis(secs: number): string {
  return `${Math.round(secs * 1000)} ms`;
}

/** e.g. `AC · 12 ms CPU · 20 ms wall · 9.1 MiB`, or `RE (compile error)`, or `error: <message>`. */
export function summary(record: ResultRecord): string {
  if (record.job_status === "error" || !record.verdict) return `error: ${record.error_message ?? record.job_status}`;
  const cause = record.evidence?.verdict_cause === "compile_error" ? `${record.verdict} (compile error)` : record.verdict;
  const parts = [cause];
  if (record.cpu_time_secs !== null) parts.push(`${millis(record.cpu_time_secs)} CPU`);
  if (record.wall_time_secs !== null) parts.push(`${millis(record.wall_time_secs)} wall`);
  if (record.memory_peak_bytes !== null) parts.push(mebibytes(record.memory_peak_bytes));
  return parts.join(" · ");
}
