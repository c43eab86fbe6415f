// The ExecuteRequest fields of a submission's options (contracts/submission.ts RunOptions; stored
// as JSON beside its code and stdin, parsed once where they are read back). Pure: unit tested.
import { fromBase64 } from "../../../proto/base64.ts";
import type { DeepPartial, ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { CheckerOptions, RunOptions } from "../contracts/submission.ts";
import { OUTPUT_BUDGET_DEFAULT_BYTES } from "../../../proto/limits.ts";

const bytes = (b64: string): Uint8Array => fromBase64(b64) ?? new Uint8Array(0);
const maybeBytes = (b64: string | undefined): Uint8Array | undefined => (b64 === undefined ? undefined : bytes(b64));

/** `o`: the request's options (none: undefined). Output streaming is asked for always. */
export function runRequestFields(o: RunOptions | undefined): DeepPartial<ExecuteRequest> {
  if (!o) return { streamOutput: true };
  const l = o.limits;
  const c = o.compile_limits;
  return {
    streamOutput: true,
    ...(o.stdin_b64 !== undefined ? { stdinBytes: bytes(o.stdin_b64) } : {}),
    ...(l ? {
      limits: {
        wallTimeMs: l.wall_time_ms, cpuTimeMs: l.cpu_time_ms, memoryBytes: l.memory_bytes, processes: l.processes, outputBytes: l.output_bytes,
        fileSizeBytes: l.file_size_bytes ?? 0,
      },
    } : {}),
    ...(c ? { compileLimits: { wallTimeMs: c.wall_time_ms, cpuTimeMs: c.cpu_time_ms, memoryBytes: c.memory_bytes } } : {}),
    files: (o.files ?? []).map((f) => ({ path: f.path, content: bytes(f.content_b64) })),
    args: o.args ?? [],
    mergeStderr: o.merge_stderr ?? false,
    compilerOptions: o.compiler_options ?? [],
    version: o.version ?? "",
    ...(o.check ? { check: { compare: o.check.compare, floatEpsilon: o.check.float_epsilon, expectedOutput: maybeBytes(o.check.expected_b64) } } : {}),
    tests: (o.tests ?? []).map((t) => ({
      name: t.name, stdin: bytes(t.stdin_b64), expectedOutput: maybeBytes(t.expected_b64), ...(t.points !== undefined ? { points: t.points } : {}),
    })),
    stopOnFirstFailure: o.stop_on_first_failure ?? false,
    ...(o.tests_wall_budget_ms !== undefined ? { testsWallBudgetMs: o.tests_wall_budget_ms } : {}),
    binaryOutput: o.binary_output ?? false,
    ...(o.checker ? { checker: checkerFields(o.checker) } : {}),
    ...(o.interactor ? { interactor: checkerFields(o.interactor) } : {}),
    ...(o.live ? { liveStdin: true } : {}),
  };
}

function checkerFields(c: CheckerOptions): DeepPartial<ExecuteRequest>["checker"] {
  return {
    language: c.language, code: c.code, version: c.version ?? "",
    files: (c.files ?? []).map((f) => ({ path: f.path, content: bytes(f.content_b64) })),
    limits: { wallTimeMs: c.limits.wall_time_ms, cpuTimeMs: c.limits.cpu_time_ms, memoryBytes: c.limits.memory_bytes },
  };
}

/**
 * The Execute request of a submission. Its output comes as raw bytes within its budget (the edge
 * stores bytes, and makes the record's text from them). detach_on_disconnect: a severed stream (evicted object)
 * must not kill the run, because the watchdog recovers its outcome with GetResult.
 */
export function executeRequest(
  meta: { id: string; language: string; account_id: string; output_budget_bytes?: number }, code: string, stdin: string, options: RunOptions | undefined,
): DeepPartial<ExecuteRequest> {
  return {
    submissionId: meta.id, language: meta.language, code, stdin,
    detachOnDisconnect: true, tenantId: meta.account_id, ...runRequestFields(options),
    outputBudgetBytes: meta.output_budget_bytes ?? OUTPUT_BUDGET_DEFAULT_BYTES, rawOutputOnly: true,
  };
}
