// A finished run as the scheduler records it for the dashboard's charts (verdict mix, latency).
import type { ResultRecord } from "../../../proto/record.ts";
import type { RunSummary } from "../contracts/scheduler.ts";

export function runSummary(rec: ResultRecord, language: string, createdMs: number, nowMs: number): RunSummary {
  return {
    job_status: rec.job_status, verdict: rec.verdict ?? null, language,
    latency_ms: (rec.completed_at ? Date.parse(rec.completed_at) : nowMs) - createdMs,
    wall_ms: rec.wall_time_secs === null || rec.wall_time_secs === undefined ? null : rec.wall_time_secs * 1000,
  };
}
