// What the compatibility layers' unit suites (compat-*-units.test.ts) share: a host's runtimes, a
// native record, and whether an error is our HttpError with a given status.
import type { ResultRecord } from "../../proto/record.ts";
import type { Runtime } from "../../proto/runtimes.ts";
import { HttpError } from "../../edge/src/lib/http.ts";

export const rt = (language: string, version: string, extra: Partial<Runtime> = {}): Runtime => ({
  language, version, aliases: [], default: false, compiled: ["c", "cpp", "java", "go", "rust"].includes(language), libraries: [], ...extra,
});
export const RUNTIMES: Runtime[] = [
  rt("python", "3.11.2", { default: true }), rt("c", "12.2.0", { default: true }), rt("cpp", "12.2.0", { default: true }),
  rt("java", "17.0.17", { default: true }), rt("java", "25.0.1"), rt("javascript", "24.11.0", { default: true }), rt("javascript", "22.21.0"),
  rt("go", "1.19.8", { default: true }), rt("go", "1.23.4"),
];

export const record = (over: Partial<ResultRecord> = {}): ResultRecord => ({
  id: "5b0c7a3e-0000-4000-8000-000000000001", language: "python", job_status: "completed", schema_version: "1.0",
  verdict: "AC", exit_code: 0, signal: null, stdout: "hi\n", stderr: "", output_integrity: "complete", error_message: null,
  cpu_time_secs: 0.0123, wall_time_secs: 0.02, memory_peak_bytes: 4096 * 1024,
  evidence: { verdict_cause: "normal_exit" } as ResultRecord["evidence"],
  created_at: "2026-11-24T00:00:00.000Z", started_at: null, completed_at: "2026-11-24T00:00:01.000Z", ...over,
});

export const status = (e: unknown, code: number) => e instanceof HttpError && e.status === code;
