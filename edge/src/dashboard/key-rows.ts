// The dashboard's key table: key metadata from KV joined with each key's usage. Pure but for the KV list.
import type { KeyRow } from "../contracts/dashboard.ts";
import type { KeyMeta, KeyUsage } from "../contracts/key.ts";
import type { RecentRun } from "../contracts/scheduler.ts";
import type { Plan } from "../plans/plans.ts";
import { keyFingerprint } from "../keys/api-key.ts";
import { listKeys, type RecordsKv } from "../keys/records.ts";

/** At most this many keys are shown (and watched). */
export const MAX_KEYS = 200;

export function listKeyMetas(kv: RecordsKv): Promise<KeyMeta[]> {
  return listKeys(kv, { max: MAX_KEYS });
}

export function keyRow(m: KeyMeta, u: KeyUsage | undefined, plan: Pick<Plan, "name" | "rate_per_minute" | "max_in_flight">): KeyRow {
  const c = u?.counters ?? {};
  return {
    plan: plan.name, rate_per_min: plan.rate_per_minute, max_in_flight: plan.max_in_flight,
    key_id: m.key_id, name: m.name, project_id: m.project_id, fingerprint: keyFingerprint(m.hash),
    requests_last_minute: u?.requests_last_minute ?? 0, in_flight: u?.in_flight ?? 0, live_sessions: u?.live_sessions ?? 0,
    rejected_rate_limit: c.rejected_rate_limit ?? 0, rejected_concurrency: c.rejected_concurrency ?? 0,
    submissions: c.submissions ?? 0, completed: c.completed ?? 0, errors: c.errors ?? 0,
  };
}

/** Verdict mix of recent runs; a run that ended in `error` counts as "error". */
export function verdictCounts(recent: RecentRun[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of recent) {
    const v = r.job_status === "error" ? "error" : (r.verdict ?? "?");
    out[v] = (out[v] ?? 0) + 1;
  }
  return out;
}
