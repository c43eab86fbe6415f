// A submission's record through its life: pending → (running) → completed | error. The record's
// shape and its mapping from the node's ExecutionResult are the contract's (proto/record*.ts).
// Pure: unit tested against hand-built proto messages.
import type { ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { SCHEMA_VERSION, SCHEMA_VERSION_EXTENDED } from "../../../proto/record.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import { budgetUseFromWire, executionFromWire, scoreFromWire, testFromWire } from "../../../proto/record-wire.ts";
import type { RecordFormat } from "../contracts/submission.ts";

/** ISO 8601 UTC with milliseconds, e.g. 2026-11-21T20:36:37.123Z. */
export function isoMs(ms: number): string {
  return new Date(ms).toISOString();
}

/** `format` present: the request used a field added in schema 1.1, and its record says so from the start. */
export function newRecord(id: string, language: string, createdAtMs: number, format?: RecordFormat): ResultRecord {
  return {
    id, language, job_status: "pending", schema_version: format ? SCHEMA_VERSION_EXTENDED : SCHEMA_VERSION,
    verdict: null, exit_code: null, signal: null, stdout: null, stderr: null, output_integrity: null,
    error_message: null, cpu_time_secs: null, wall_time_secs: null, memory_peak_bytes: null, evidence: null,
    created_at: isoMs(createdAtMs), started_at: null, completed_at: null,
  };
}

/**
 * The completed record from the node's result. `language` stays the edge's canonical name (the
 * node echoes it; the edge's is authoritative for the API). Without `format` (a request of schema
 * 1.0) the record is exactly 1.0's: evidence without the 1.1 additions. `attempts`: the run's
 * dispatches, when more than one was needed.
 */
export function completedRecord(base: ResultRecord, r: ExecutionResult, nowMs: number, format?: RecordFormat, attempts?: number): ResultRecord {
  const startedAt = base.started_at ?? (r.startedAt ? r.startedAt.toISOString() : null);
  const encoding = format?.encoding ?? "utf8";
  const execution = executionFromWire(r, encoding);
  if (!format && execution.evidence) {
    const { limits: _limits, mismatch: _mismatch, ...evidence } = execution.evidence;
    execution.evidence = evidence;
  }
  const version = r.version || format?.version || "";
  const tests = r.tests.map((t) => testFromWire(t, encoding));
  // With tests the top level's output is the deciding test's (the node does not repeat it).
  const deciding = r.outputOfTest !== undefined ? tests[r.outputOfTest] : undefined;
  if (deciding) Object.assign(execution, { stdout: deciding.stdout, stderr: deciding.stderr });
  const budget = format ? budgetUseFromWire(r.outputTally) : undefined;
  return {
    ...base,
    ...execution,
    job_status: "completed",
    started_at: startedAt ?? isoMs(nowMs),
    completed_at: r.completedAt ? r.completedAt.toISOString() : isoMs(nowMs),
    ...(encoding === "base64" ? { encoding } : {}),
    ...(format && (format.named_version || format.tests) && version ? { version } : {}),
    ...(format?.tests ? { tests } : {}),
    ...(format?.tests ? scoreFromWire(r) : {}),
    ...(budget ? { output_budget: budget } : {}),
    // Dispatched more than once (a node lost mid-run): the record says so, in schema 1.1.
    ...(attempts ? { attempts, schema_version: SCHEMA_VERSION_EXTENDED } : {}),
  };
}

/** The `error` state: an internal failure. Outcome fields stay null; error_message says what failed. */
export function errorRecord(base: ResultRecord, message: string, nowMs: number): ResultRecord {
  return {
    ...base,
    job_status: "error",
    verdict: null, exit_code: null, signal: null, stdout: null, stderr: null, output_integrity: null,
    cpu_time_secs: null, wall_time_secs: null, memory_peak_bytes: null, evidence: null,
    error_message: message,
    completed_at: isoMs(nowMs),
  };
}

