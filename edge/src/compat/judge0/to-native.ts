// A Judge0 CE submission → the body of our POST /api/submit. Judge0's own shape is checked here
// (422 with Judge0's field → messages shape); the native body then goes through our one validation
// path. Fields we cannot honour are refused by name, never ignored. Pure; unit tested.
import { unzipSync } from "fflate";
import { parse as parseShell } from "shell-quote";
import { z } from "zod";
import { fromBase64, toBase64 } from "../../../../proto/base64.ts";
import type { Runtime } from "../../../../proto/runtimes.ts";
import { HttpError } from "../../lib/http.ts";
import { MAX_FILES, MAX_FILES_TOTAL_BYTES } from "../../../../proto/submission-rules.ts";
import { valueAt } from "../input-path.ts";
import { runtimeForId } from "./languages.ts";

const num = z.number().finite().nonnegative().nullish();
const flag = z.boolean().nullish();

export const judge0SubmissionSchema = z.object({
  // Required, except for language 89 (a multi-file program), where it must be blank.
  source_code: z.string().nullish(),
  language_id: z.number().int(),
  compiler_options: z.string().max(512).nullish(),
  command_line_arguments: z.string().max(4096).nullish(),
  stdin: z.string().nullish(),
  expected_output: z.string().nullish(),
  cpu_time_limit: num,
  cpu_extra_time: num,
  wall_time_limit: num,
  memory_limit: num,
  stack_limit: num,
  max_processes_and_or_threads: num,
  enable_per_process_and_thread_time_limit: flag,
  enable_per_process_and_thread_memory_limit: flag,
  max_file_size: num,
  redirect_stderr_to_stdout: flag,
  enable_network: flag,
  number_of_runs: z.number().int().min(1).max(20).nullish(),
  callback_url: z.string().max(2048).nullish(),
  additional_files: z.string().nullish(),
}).strict();

export type Judge0Submission = z.infer<typeof judge0SubmissionSchema>;

/** What the route needs besides the native body. */
export interface Judge0Mapped {
  body: Record<string, unknown>;
  callbackUrl: string | null;
  runs: number;
}

/** Judge0's validation error: 422, `{field: [message]}`. */
export function judge0FieldError(field: string, message: string): HttpError {
  return new HttpError(422, { [field]: [message], error: `${field}: ${message}` });
}

export function parseJudge0Submission(input: unknown): Judge0Submission {
  const parsed = judge0SubmissionSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    throw new HttpError(422, {
      error: `unsupported field(s): ${issue.keys.join(", ")}`,
      message: "these fields are not part of Judge0 CE 1.13's submission; see docs/migrating.md",
    });
  }
  const field = String(issue.path[0] ?? "submission");
  throw judge0FieldError(field, issue.code === "invalid_type" && valueAt(input, issue.path) === undefined ? "can't be blank" : issue.message);
}

const MAX_ZIP_BYTES = 1024 * 1024;

/** Judge0's additional_files: a base64 zip of files placed beside the program. */
export function filesFromZip(base64Zip: string): { path: string; content: string; encoding: "base64" }[] {
  const bytes = fromBase64(base64Zip);
  if (!bytes) throw judge0FieldError("additional_files", "is not valid base64");
  if (bytes.length > MAX_ZIP_BYTES) throw judge0FieldError("additional_files", `is larger than ${MAX_ZIP_BYTES} bytes`);
  // A zip bomb is refused by its declared sizes before anything is inflated; fflate inflates an
  // entry into a buffer of exactly its declared size, so a lying header cannot grow past them.
  let declared = 0;
  let count = 0;
  const tooBig = judge0FieldError("additional_files", `holds more than ${MAX_FILES} files or ${MAX_FILES_TOTAL_BYTES} bytes once unpacked`);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        declared += file.originalSize;
        if (!file.name.endsWith("/") && ++count > MAX_FILES) throw tooBig;
        if (declared > MAX_FILES_TOTAL_BYTES) throw tooBig;
        return true;
      },
    });
  } catch (e) {
    if (e === tooBig) throw e;
    throw judge0FieldError("additional_files", "is not a valid zip archive");
  }
  return Object.entries(entries)
    .filter(([path]) => !path.endsWith("/"))
    .map(([path, content]) => ({ path, content: toBase64(content), encoding: "base64" as const }));
}

/** Arguments as a shell would split them, minus anything a shell would do besides splitting. */
export function splitArguments(text: string): string[] {
  const words = parseShell(text, (name) => `$${name}`);
  if (words.some((w) => typeof w !== "string")) {
    throw judge0FieldError("command_line_arguments", "may hold arguments only: no shell operators, redirections or comments");
  }
  return words as string[];
}

function refuse(field: string, message: string): never {
  throw new HttpError(422, { [field]: [message], error: `${field}: ${message}`, message: "see docs/migrating.md for what maps" });
}

function decodeField(field: string, value: string, base64: boolean): string {
  if (!base64) return value;
  const bytes = fromBase64(value.replace(/\s+/g, ""));
  if (!bytes) throw judge0FieldError(field, "is not valid base64");
  return toBase64(bytes);
}

function required(field: string, value: string | null | undefined): string {
  if (value == null) throw judge0FieldError(field, "can't be blank");
  return value;
}

/**
 * Language 89 (docs/migrating.md): no source_code; additional_files holds a `run` script, the
 * program (our multi-file language's code), and maybe a `compile` script beside the other files.
 */
function projectProgram(s: Judge0Submission): { code: string; files: ReturnType<typeof filesFromZip> } {
  if (s.source_code) throw judge0FieldError("source_code", "must be blank");
  const files = filesFromZip(required("additional_files", s.additional_files || null));
  const run = files.find((f) => f.path === "run");
  if (!run) throw judge0FieldError("additional_files", "must hold a `run` script (language 89 runs it with bash)");
  return { code: run.content, files: files.filter((f) => f !== run) };
}

/** The native request for a Judge0 submission; `base64` is the request's base64_encoded. */
export function judge0ToNative(s: Judge0Submission, runtimes: readonly Runtime[], base64: boolean): Judge0Mapped {
  if (s.enable_network) refuse("enable_network", "network access is never enabled for programs");
  if (s.enable_per_process_and_thread_time_limit) refuse("enable_per_process_and_thread_time_limit", "limits apply to the whole program (its cgroup), not per process");
  if (s.enable_per_process_and_thread_memory_limit) refuse("enable_per_process_and_thread_memory_limit", "limits apply to the whole program (its cgroup), not per process");
  if (s.stack_limit != null) refuse("stack_limit", "the stack limit is fixed (64 MiB) and cannot be set per submission");
  const runtime = runtimeForId(s.language_id, runtimes);
  if (!runtime) throw judge0FieldError("language_id", `language with id ${s.language_id} doesn't exist`);
  const limits: Record<string, number> = {};
  if (s.cpu_time_limit != null) limits.cpu_time_ms = Math.max(1, Math.round(s.cpu_time_limit * 1000));
  if (s.wall_time_limit != null) limits.wall_time_ms = Math.max(1, Math.round(s.wall_time_limit * 1000));
  if (s.memory_limit != null) limits.memory_mb = Math.max(1, Math.ceil(s.memory_limit / 1024));
  if (s.max_file_size != null) limits.file_size_kb = Math.max(1, Math.round(s.max_file_size));
  if (s.max_processes_and_or_threads != null) limits.processes = Math.max(1, Math.round(s.max_processes_and_or_threads));
  // A multi-file program's code is the zip's run script, as bytes: its request travels in base64.
  const project = runtime.language === "multi-file" ? projectProgram(s) : null;
  const inBase64 = base64 || project !== null;
  const text = (field: string, value: string) => (project && !base64 ? toBase64(new TextEncoder().encode(value)) : decodeField(field, value, base64));
  const body: Record<string, unknown> = {
    language: runtime.language,
    version: runtime.version,
    code: project ? project.code : text("source_code", required("source_code", s.source_code)),
  };
  if (inBase64) body.encoding = "base64";
  const stdin = s.stdin != null ? text("stdin", s.stdin) : undefined;
  const expected = s.expected_output != null ? text("expected_output", s.expected_output) : undefined;
  const runs = s.number_of_runs ?? 1;
  if (runs > 1) {
    body.tests = Array.from({ length: runs }, (_, i) => ({
      name: `run-${i + 1}`, ...(stdin !== undefined ? { stdin } : {}), ...(expected !== undefined ? { expected_output: expected } : {}),
    }));
  } else {
    if (stdin !== undefined) body.stdin = stdin;
    if (expected !== undefined) body.expected_output = expected;
  }
  if (expected !== undefined) body.compare = "lines";
  if (Object.keys(limits).length > 0) body.limits = limits;
  if (s.compiler_options) body.compiler_options = s.compiler_options.trim().split(/\s+/).filter(Boolean);
  if (s.command_line_arguments) body.args = splitArguments(s.command_line_arguments);
  if (s.redirect_stderr_to_stdout) body.merge_stderr = true;
  if (project) {
    if (project.files.length > 0) body.files = project.files;
  } else if (s.additional_files) body.files = filesFromZip(s.additional_files);
  return { body, callbackUrl: s.callback_url ?? null, runs };
}
