// The fields of POST /api/submit added with record schema 1.1 (docs/api.md): their shape (zod),
// then what zod cannot say (base64, paths, sizes, the plan's caps), then the RunOptions they become
// for the ExecuteRequest. Every refusal is a 400 naming the field.
import { z } from "zod";
import { toBase64 } from "../../../proto/base64.ts";
import { mainSourceFileName } from "../../../proto/source-names.ts";
import { MAX_COMPILER_OPTIONS, disallowedCompilerOptions } from "../../../proto/compiler-options.ts";
import { MAX_STDIN_BYTES } from "../../../proto/limits.ts";
import { COMPARE_MODES, FLOAT_MODES, MAX_ARGS, TESTS_WALL_BUDGET_MS, argsProblem } from "../../../proto/submission-rules.ts";
import type { RecordFormat, RunOptions } from "../contracts/submission.ts";
import { HttpError } from "../lib/http.ts";
import { COMPILE_MAXIMA, NODE_MAXIMA, compileCaps } from "../plans/plan-caps.ts";
import { checkerOptions, checkerShape, interactorOptions } from "./checker-input.ts";
import { bad, checkedFiles, decode } from "./request-files.ts";
import type { Plan } from "../plans/plan-caps.ts";

export const MAX_EXPECTED_OUTPUT_BYTES = 1024 * 1024;

const encoding = z.enum(["utf8", "base64"]);
/** A node's file-size limit (KB), which a request's limits.file_size_kb may only narrow (no plan cap). */
export const NODE_FILE_SIZE_KB = 16 * 1024;
const positive = z.number().int().min(1);

/** The new fields' shapes; validate.ts adds them to the submit schema. */
export const extendedShape = {
  version: z.string().min(1).max(64).optional(),
  encoding: encoding.optional(),
  expected_output: z.string().optional(),
  compare: z.enum(COMPARE_MODES).optional(),
  float_epsilon: z.number().gt(0).lte(1).optional(),
  tests: z.array(z.strictObject({
    name: z.string().min(1).max(100).optional(),
    stdin: z.string().optional(),
    expected_output: z.string().optional(),
    points: z.number().min(0).optional(),
  })).min(1).optional(),
  stop_on_first_failure: z.boolean().optional(),
  limits: z.strictObject({
    wall_time_ms: positive.optional(), cpu_time_ms: positive.optional(), memory_mb: positive.optional(),
    processes: positive.optional(), output_kb: positive.optional(),
    file_size_kb: positive.max(NODE_FILE_SIZE_KB).optional(),
  }).optional(),
  compile_limits: z.strictObject({ wall_time_ms: positive.optional(), cpu_time_ms: positive.optional(), memory_mb: positive.optional() }).optional(),
  files: z.array(z.strictObject({ path: z.string().max(1024), content: z.string(), encoding: encoding.optional() })).optional(),
  args: z.array(z.string()).optional(),
  merge_stderr: z.boolean().optional(),
  compiler_options: z.array(z.string().min(1).max(256)).optional(),
  checker: checkerShape.optional(),
  interactor: checkerShape.optional(),
};

export const EXTENDED_FIELDS = Object.keys(extendedShape);
type Extended = { [K in keyof typeof extendedShape]?: z.infer<(typeof extendedShape)[K]> };
type Body = Extended & { language: string; code: string; stdin?: string };

/** What the submit route needs from the request once its new fields are checked. */
export interface ExtendedInput {
  code: string;
  /** Decoded size of stdin (checked by the caller against MAX_STDIN_BYTES). */
  stdin_bytes: number;
  /** The stdin text when utf8 (base64 stdin travels in options.stdin_b64). */
  stdin: string;
  options?: RunOptions;
  /** Present when any new field was used (record schema 1.1). */
  format?: RecordFormat;
}

function capped(field: string, bytes: Uint8Array, max: number): Uint8Array {
  if (bytes.length > max) throw bad(field, `${field} is ${bytes.length} bytes; at most ${max} bytes are allowed`);
  return bytes;
}

/** A field above what the key's plan allows: the design's exact wording. */
function aboveCap(field: string, value: number, cap: number, plan: Plan): HttpError {
  return new HttpError(400, {
    error: `${field} above the plan's cap`, message: `${field} is ${value}; the plan '${plan.name}' allows at most ${cap}`,
  });
}

function files(body: Body, language: string | null, code: string): RunOptions["files"] {
  if (!body.files) return undefined;
  return checkedFiles(body.files, "files", language, language ? mainSourceFileName(language, code) : null);
}

function args(list: string[] | undefined): string[] | undefined {
  if (!list) return undefined;
  if (list.length > MAX_ARGS) throw bad("args", `args has ${list.length} entries; at most ${MAX_ARGS} are allowed`);
  list.forEach((a, i) => {
    const problem = argsProblem([a]);
    if (problem) throw bad(`args[${i}]`, problem.replace("args[0]", `args[${i}]`));
  });
  return list;
}

function compilerOptions(list: string[] | undefined, language: string | null): string[] | undefined {
  if (!list) return undefined;
  if (list.length > MAX_COMPILER_OPTIONS) {
    throw bad("compiler_options", `compiler_options has ${list.length} entries; at most ${MAX_COMPILER_OPTIONS} are allowed`);
  }
  list.forEach((o, i) => {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(o)) throw bad(`compiler_options[${i}]`, `compiler_options[${i}] contains a control character`);
    if (language && disallowedCompilerOptions(language, [o]).length > 0) {
      throw new HttpError(400, {
        error: `compiler_options[${i}] is not allowed`,
        message: `'${o}' is not an allowed compiler option for ${language} (see docs/languages.md)`,
      });
    }
  });
  return list;
}

/**
 * The limits sent to the node: each the request's value, else the plan's cap where the plan is
 * narrower than the node's own default, else 0 (the node's default). undefined when all are 0.
 */
function limits(body: Body, plan: Plan): RunOptions["limits"] {
  const l = body.limits ?? {};
  const pick = (field: keyof typeof l, value: number | undefined, cap: number, nodeMax: number): number => {
    if (value !== undefined && value > cap) throw aboveCap(`limits.${field}`, value, cap, plan);
    return value ?? (cap < nodeMax ? cap : 0);
  };
  const out = {
    wall_time_ms: pick("wall_time_ms", l.wall_time_ms, plan.max_wall_time_ms, NODE_MAXIMA.max_wall_time_ms),
    cpu_time_ms: pick("cpu_time_ms", l.cpu_time_ms, plan.max_cpu_time_ms, NODE_MAXIMA.max_cpu_time_ms),
    memory_bytes: pick("memory_mb", l.memory_mb, plan.max_memory_mb, NODE_MAXIMA.max_memory_mb) * 1024 * 1024,
    processes: pick("processes", l.processes, plan.max_processes, NODE_MAXIMA.max_processes),
    output_bytes: pick("output_kb", l.output_kb, plan.max_output_kb, NODE_MAXIMA.max_output_kb) * 1024,
    ...(l.file_size_kb !== undefined ? { file_size_bytes: l.file_size_kb * 1024 } : {}),
  };
  return Object.values(out).some((v) => v > 0) ? out : undefined;
}

/** The compile limits sent to the node, as `limits` does for the run: within the plan's caps. */
function compileLimits(body: Body, plan: Plan): RunOptions["compile_limits"] {
  const l = body.compile_limits ?? {};
  const caps = compileCaps(plan);
  const pick = (field: keyof typeof caps): number => {
    const value = l[field];
    if (value !== undefined && value > caps[field]) throw aboveCap(`compile_limits.${field}`, value, caps[field], plan);
    return value ?? (caps[field] < COMPILE_MAXIMA[field] ? caps[field] : 0);
  };
  const out = { wall_time_ms: pick("wall_time_ms"), cpu_time_ms: pick("cpu_time_ms"), memory_bytes: pick("memory_mb") * 1024 * 1024 };
  return Object.values(out).some((v) => v > 0) ? out : undefined;
}

function judging(body: Body, enc: "utf8" | "base64", plan: Plan): Pick<RunOptions, "check" | "tests" | "checker" | "interactor" | "tests_wall_budget_ms"> {
  const interactor = body.interactor ? { interactor: interactorOptions(body.interactor, plan) } : {};
  return { ...judgedBy(body, enc, plan), ...interactor };
}

function judgedBy(body: Body, enc: "utf8" | "base64", plan: Plan): Pick<RunOptions, "check" | "tests" | "checker" | "tests_wall_budget_ms"> {
  if (body.expected_output !== undefined && body.tests) {
    throw bad("expected_output", "expected_output cannot be combined with tests; give each test its own expected_output");
  }
  // A checker judges every run, with or without an expected output: no compare beside it.
  const checker = body.checker ? checkerOptions(body.checker, body, plan) : undefined;
  const judged = body.expected_output !== undefined || (body.tests ?? []).some((t) => t.expected_output !== undefined);
  if (!judged && body.compare !== undefined) throw bad("compare", "compare applies only with expected_output (top level or in tests)");
  if (!judged && body.float_epsilon !== undefined) throw bad("float_epsilon", "float_epsilon applies only with expected_output (top level or in tests)");
  if (body.float_epsilon !== undefined && !(FLOAT_MODES as readonly string[]).includes(body.compare ?? "")) {
    throw bad("float_epsilon", `float_epsilon applies only to compare ${FLOAT_MODES.map((m) => `'${m}'`).join(", ")}`);
  }
  const expected = (field: string, text: string | undefined) =>
    text === undefined ? undefined : toBase64(capped(field, decode(field, text, enc), MAX_EXPECTED_OUTPUT_BYTES));
  const check = checker
    ? body.expected_output !== undefined ? { compare: "", float_epsilon: 0, expected_b64: expected("expected_output", body.expected_output) } : undefined
    : judged
      ? { compare: body.compare ?? "lines", float_epsilon: body.float_epsilon ?? 1e-6, expected_b64: expected("expected_output", body.expected_output) }
      : undefined;
  if (!body.tests) return { check, checker };
  if (body.tests.length > plan.max_tests) {
    throw new HttpError(400, {
      error: "tests above the plan's cap", message: `tests has ${body.tests.length} entries; the plan '${plan.name}' allows at most ${plan.max_tests}`,
    });
  }
  const tests = body.tests.map((t, i) => ({
    name: t.name ?? `test-${i + 1}`,
    stdin_b64: toBase64(capped(`tests[${i}].stdin`, decode(`tests[${i}].stdin`, t.stdin ?? "", enc), MAX_STDIN_BYTES)),
    expected_b64: expected(`tests[${i}].expected_output`, t.expected_output),
    ...(t.points !== undefined ? { points: t.points } : {}),
  }));
  // The tests' wall-time budget is the node's (it counts the time the tests use); a plan may narrow it.
  const narrower = plan.tests_wall_budget_ms !== undefined && plan.tests_wall_budget_ms < TESTS_WALL_BUDGET_MS;
  const budget = narrower ? { tests_wall_budget_ms: plan.tests_wall_budget_ms } : {};
  return { check, tests, checker, ...budget };
}

function utf8Text(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The checked request: code and stdin decoded, the options for the node, the record's format. */
/** `language`: the request's language, canonical (null when it names none: checked by the caller). */
export function extendedInput(body: Body, plan: Plan, language: string | null): ExtendedInput {
  const used = EXTENDED_FIELDS.some((f) => body[f as keyof Extended] !== undefined);
  const enc = body.encoding ?? "utf8";
  let code = body.code;
  if (enc === "base64") {
    const text = utf8Text(decode("code", body.code, enc));
    if (text === null) throw bad("code", "code must be UTF-8 text once decoded from base64");
    code = text;
  }
  const stdinBytes = enc === "base64" ? decode("stdin", body.stdin ?? "", enc) : null;
  const options: RunOptions = {
    ...(stdinBytes ? { stdin_b64: body.stdin ?? "" } : {}),
    limits: limits(body, plan),
    compile_limits: compileLimits(body, plan),
    files: files(body, language, code),
    args: args(body.args),
    merge_stderr: body.merge_stderr === true ? true : undefined,
    compiler_options: compilerOptions(body.compiler_options, language),
    version: body.version,
    ...judging(body, enc, plan),
    stop_on_first_failure: body.stop_on_first_failure,
    binary_output: enc === "base64" ? true : undefined,
  };
  for (const k of Object.keys(options) as (keyof RunOptions)[]) if (options[k] === undefined) delete options[k];
  return {
    code,
    // Base64 stdin that is UTF-8 text also travels as text, for nodes that predate stdin_bytes.
    stdin: stdinBytes ? (utf8Text(stdinBytes) ?? "") : (body.stdin ?? ""),
    stdin_bytes: stdinBytes ? stdinBytes.length : new TextEncoder().encode(body.stdin ?? "").length,
    ...(Object.keys(options).length > 0 ? { options } : {}),
    ...(used ? { format: { encoding: enc, named_version: body.version !== undefined, tests: body.tests !== undefined } } : {}),
  };
}
