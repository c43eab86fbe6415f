// Our result record → a Judge0 CE submission, with Judge0's `fields` selection and base64 rule.
// Pure; unit tested.
import { fromBase64, toBase64 } from "../../../../proto/base64.ts";
import type { ResultRecord } from "../../../../proto/record.ts";
import type { Runtime } from "../../../../proto/runtimes.ts";
import { HttpError } from "../../lib/http.ts";
import { buildOutput, isNoExecutable } from "../build-failure.ts";
import { judge0Languages } from "./languages.ts";
import { isCompileError, judge0Status } from "./statuses.ts";

export const DEFAULT_FIELDS = ["stdout", "time", "memory", "stderr", "token", "compile_output", "message", "status"] as const;

export const ALL_FIELDS = [
  "token", "status", "status_id", "stdout", "stderr", "compile_output", "message", "exit_code", "exit_signal", "time",
  "wall_time", "memory", "created_at", "finished_at", "language_id", "number_of_runs",
] as const;

type Field = (typeof ALL_FIELDS)[number];

/** Judge0's `fields` parameter: a comma list, `*` for all; absent → the default set. */
export function parseFields(param: string | null): Field[] {
  if (param === null || param.trim() === "") return [...DEFAULT_FIELDS];
  if (param.trim() === "*") return [...ALL_FIELDS];
  const asked = param.split(",").map((f) => f.trim()).filter(Boolean);
  const unknown = asked.filter((f) => !(ALL_FIELDS as readonly string[]).includes(f));
  if (unknown.length > 0) {
    throw new HttpError(400, {
      error: `unsupported field(s) in fields: ${unknown.join(", ")}`,
      message: `available: ${ALL_FIELDS.join(", ")}`,
    });
  }
  return asked as Field[];
}

/** `base64_encoded`: Judge0 reads "true" as true, anything else (or absent) as false. */
export function parseBase64Flag(param: string | null): boolean {
  return param === "true";
}

const seconds = (secs: number | null) => (secs === null ? null : (Math.round(secs * 1000) / 1000).toFixed(3));

/**
 * A text field in the caller's encoding. The record holds it in its own encoding (base64 when the
 * submission used base64_encoded=true). Text that is not UTF-8 cannot be sent as JSON text: Judge0
 * answers that case with an error asking for base64_encoded=true, and so do we.
 */
function inEncoding(value: string | null, recordBase64: boolean, wantBase64: boolean): string | null {
  if (value === null) return null;
  if (recordBase64 === wantBase64) return value;
  if (wantBase64) return toBase64(new TextEncoder().encode(value));
  const bytes = fromBase64(value) ?? new Uint8Array();
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new HttpError(400, {
      error: "some attributes for this submission cannot be converted to UTF-8, use base64_encoded=true",
    });
  }
}

/**
 * compile_output: the compile's diagnostics; for a build that made no program, followed by the
 * node's reason (compat/build-failure.ts), whatever the record's encoding.
 */
function compileOutput(rec: ResultRecord, recordBase64: boolean, base64: boolean): string | null {
  if (!isNoExecutable(rec) || !rec.error_message) return inEncoding(rec.stderr, recordBase64, base64);
  if (!recordBase64) return inEncoding(buildOutput(rec, rec.stderr ?? ""), false, base64);
  const diagnostics = fromBase64(rec.stderr ?? "") ?? new Uint8Array();
  const endsLine = diagnostics.length === 0 || diagnostics.at(-1) === 0x0a;
  const reason = new TextEncoder().encode(`${endsLine ? "" : "\n"}${rec.error_message}\n`);
  const all = new Uint8Array(diagnostics.length + reason.length);
  all.set(diagnostics);
  all.set(reason, diagnostics.length);
  return inEncoding(toBase64(all), true, base64);
}

/**
 * Our record as a Judge0 submission. `sentLanguageId`: the language_id the submission was sent
 * with, when not its runtime's listed id (sent-language-ids.ts); it is what language_id answers.
 */
export function judge0Submission(
  rec: ResultRecord, runtimes: readonly Runtime[], fields: readonly Field[], base64: boolean, sentLanguageId?: number,
): Record<string, unknown> {
  const status = judge0Status(rec);
  const recordBase64 = rec.encoding === "base64";
  const compileError = isCompileError(rec);
  const text = (v: string | null) => inEncoding(v, recordBase64, base64);
  // number_of_runs > 1 ran as that many tests: Judge0 reports the average time.
  const runs = Math.max(1, rec.tests?.length ?? 1);
  const perRun = (secs: number | null) => (secs === null ? null : secs / runs);
  const message = rec.job_status === "completed" && rec.verdict === "AC" ? null : rec.error_message;
  const lang = judge0Languages(runtimes).find((l) => l.runtime.language === rec.language && (rec.version === undefined ? l.runtime.default : l.runtime.version === rec.version));
  const all: Record<Field, unknown> = {
    token: rec.id,
    status: { id: status.id, description: status.description },
    status_id: status.id,
    stdout: compileError ? null : text(rec.stdout),
    stderr: compileError ? null : text(rec.stderr),
    compile_output: compileError ? compileOutput(rec, recordBase64, base64) : null,
    message: message === null || message === undefined ? null : base64 ? toBase64(new TextEncoder().encode(message)) : message,
    exit_code: compileError ? null : rec.exit_code,
    exit_signal: compileError ? null : rec.signal,
    time: seconds(perRun(rec.cpu_time_secs)),
    wall_time: seconds(perRun(rec.wall_time_secs)),
    memory: rec.memory_peak_bytes === null ? null : Math.round(rec.memory_peak_bytes / 1024),
    created_at: rec.created_at,
    finished_at: rec.completed_at,
    language_id: sentLanguageId ?? lang?.id ?? null,
    number_of_runs: runs,
  };
  return Object.fromEntries(fields.map((f) => [f, all[f]]));
}
