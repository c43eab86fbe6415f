// A submission must fit one fleet message: a node refuses an ExecuteRequest above
// MAX_EXECUTE_REQUEST_BYTES before reading it, and no other node would take it either. Checked
// here, before anything is stored, so the client gets a 400 naming the size instead of a run
// that every node refuses. Linear: a bound from the string lengths, and only when the bound is
// over the cap, the exact encoded size.
import { ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { MAX_EXECUTE_REQUEST_BYTES } from "../../../proto/limits.ts";
import type { RunOptions } from "../contracts/submission.ts";
import { executeRequest } from "../submission/run-request.ts";

/** Per repeated entry (test, file, argument): its tag, length prefixes and field tags. */
const ENTRY_OVERHEAD = 32;

/** The encoded size of the submission's ExecuteRequest when it is over the cap, else null. */
export function oversizeFleetRequest(language: string, code: string, stdin: string, options: RunOptions | undefined): number | null {
  const stored = options ? JSON.stringify(options) : "";
  // UTF-16 units × 3 bound UTF-8 bytes; base64 in the JSON is longer than the bytes it holds.
  const entries = (options?.tests?.length ?? 0) + (options?.files?.length ?? 0) + (options?.args?.length ?? 0) + (options?.compiler_options?.length ?? 0) +
    (options?.checker?.files?.length ?? 0) + (options?.interactor?.files?.length ?? 0);
  const bound = 3 * (code.length + stdin.length + language.length) + stored.length + ENTRY_OVERHEAD * entries + 4096;
  if (bound <= MAX_EXECUTE_REQUEST_BYTES) return null;
  const meta = { id: "00000000-0000-4000-8000-000000000000", language, account_id: "a".repeat(64) };
  const size = ExecuteRequest.encode(ExecuteRequest.fromPartial(executeRequest(meta, code, stdin, options))).finish().length;
  return size > MAX_EXECUTE_REQUEST_BYTES ? size : null;
}
