// Judge0's status ids (CE 1.13) and the one mapping from our record to them. Pure; unit tested.
import type { ResultRecord } from "../../../../proto/record.ts";
import { isBuildFailure } from "../build-failure.ts";

export const JUDGE0_STATUSES = [
  { id: 1, description: "In Queue" },
  { id: 2, description: "Processing" },
  { id: 3, description: "Accepted" },
  { id: 4, description: "Wrong Answer" },
  { id: 5, description: "Time Limit Exceeded" },
  { id: 6, description: "Compilation Error" },
  { id: 7, description: "Runtime Error (SIGSEGV)" },
  { id: 8, description: "Runtime Error (SIGXFSZ)" },
  { id: 9, description: "Runtime Error (SIGFPE)" },
  { id: 10, description: "Runtime Error (SIGABRT)" },
  { id: 11, description: "Runtime Error (NZEC)" },
  { id: 12, description: "Runtime Error (Other)" },
  { id: 13, description: "Internal Error" },
  { id: 14, description: "Exec Format Error" },
] as const;

export type Judge0Status = (typeof JUDGE0_STATUSES)[number];

const byId = (id: number): Judge0Status => JUDGE0_STATUSES.find((s) => s.id === id)!;

const SIGNAL_STATUS: Record<number, number> = { 11: 7, 25: 8, 8: 9, 6: 10 };

/**
 * True when Judge0 calls the record a compile error: our RE with cause compile_error, or
 * no_executable (the build made no program to run; compat/build-failure.ts).
 */
export function isCompileError(rec: Pick<ResultRecord, "verdict" | "evidence">): boolean {
  return isBuildFailure(rec);
}

/**
 * Judge0's status for one of our records. Judge0 has no memory, process or output-size verdicts:
 * those are "Runtime Error (Other)" with our message in `message`, as Judge0 itself reports them.
 */
export function judge0Status(rec: Pick<ResultRecord, "job_status" | "verdict" | "signal" | "evidence">): Judge0Status {
  if (rec.job_status === "pending") return byId(1);
  if (rec.job_status === "running") return byId(2);
  if (rec.job_status === "error") return byId(13);
  switch (rec.verdict) {
    case "AC":
      return byId(3);
    case "WA":
      return byId(4);
    case "TLE":
      return byId(5);
    case "FSE":
      return byId(8);
    case "RE":
      if (isCompileError(rec)) return byId(6);
      if (rec.signal !== null && SIGNAL_STATUS[rec.signal] !== undefined) return byId(SIGNAL_STATUS[rec.signal]!);
      if (rec.evidence?.verdict_cause === "nonzero_exit") return byId(11);
      return byId(12);
    case "SIG":
      return byId(rec.signal !== null && SIGNAL_STATUS[rec.signal] !== undefined ? SIGNAL_STATUS[rec.signal]! : 12);
    case "MLE":
    case "PLE":
      return byId(12);
    default:
      return byId(13);
  }
}
