// Whether a new submission fits its account's storage quota in its shard (account-usage.ts). It
// may need its input and its whole output budget; submissions still in flight are charged when they
// end, so an account can pass its quota by at most its in-flight cap of them. Pure.
import { OUTPUT_BUDGET_DEFAULT_BYTES } from "../../../proto/limits.ts";
import type { CreateInput, CreateResult } from "../contracts/submission.ts";

type Sized = Pick<CreateInput, "code" | "stdin" | "output_budget_bytes" | "storage_quota_bytes">;

export function storageFull(usedBytes: number, input: Sized): Extract<CreateResult, { kind: "storage_full" }> | null {
  const quota = input.storage_quota_bytes;
  if (quota === undefined) return null;
  const need = input.code.length + input.stdin.length + (input.output_budget_bytes ?? OUTPUT_BUDGET_DEFAULT_BYTES);
  return usedBytes + need <= quota ? null : { kind: "storage_full", used_bytes: usedBytes, quota_bytes: quota };
}
