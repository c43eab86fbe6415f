// Plans: named sets of caps an API key is held to, stored in KV as `plan:<name>`. A key's KV record
// names its plan; a key without one has "default", whose values are the config's (today's numbers)
// unless an operator stored `plan:default`. The caps can only narrow what a fleet node allows.
import { config } from "../env.ts";
import type { Env } from "../env.ts";
import type { KeyQuota } from "../contracts/key.ts";
import { IsolateCache } from "../lib/isolate-cache.ts";
import { DEFAULT_CAPS, NODE_MAXIMA, STORAGE_DEFAULTS } from "./plan-caps.ts";
import type { Plan } from "./plan-caps.ts";

export type { Plan } from "./plan-caps.ts";

export const DEFAULT_PLAN = "default";
export const PLAN_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const PLAN_NAME_RULE = "a plan name is 1-63 characters of a-z, 0-9, '_' and '-', starting with a letter or digit";

export { planUpdateSchema } from "./plan-caps.ts";
export type { PlanUpdate } from "./plan-caps.ts";

export function defaultPlan(env: Env): Plan {
  const cfg = config(env);
  return {
    name: DEFAULT_PLAN, rate_per_minute: cfg.rateLimit, max_in_flight: cfg.maxInFlight, ...NODE_MAXIMA, max_tests: DEFAULT_CAPS.max_tests, max_batch: 20,
  };
}

/** Like auth's: saves a KV read per request; a PUT here forgets its entry at once. */
const cache = new IsolateCache<Plan | null>(10_000, 1_000);

/** The stored plan, the default plan (config) when `name` is "default" and none is stored, else null. */
export async function loadPlan(env: Env, name: string): Promise<Plan | null> {
  return cache.through(name, async () => {
    const stored = await env.KEYS.get<Plan>(`plan:${name}`, "json");
    return stored ? { ...defaultPlan(env), ...stored, name } : name === DEFAULT_PLAN ? defaultPlan(env) : null;
  });
}

/** The plan of a key (its KV record's `plan`); a plan that vanished from KV falls back to the default one. */
export async function planOf(env: Env, key: { plan?: string }): Promise<Plan> {
  const plan = await loadPlan(env, key.plan ?? DEFAULT_PLAN);
  if (plan) return plan;
  console.warn("a key names a plan that is not stored; the default plan applies", key.plan);
  return (await loadPlan(env, DEFAULT_PLAN)) ?? defaultPlan(env);
}

export async function savePlan(env: Env, plan: Plan): Promise<void> {
  await env.KEYS.put(`plan:${plan.name}`, JSON.stringify(plan));
  cache.forget(plan.name);
}

/** A submission's output budget and its account's storage quota per shard under `plan`. */
export function storageOf(plan: Plan): { output_budget_bytes: number; storage_quota_bytes: number } {
  return {
    output_budget_bytes: (plan.output_budget_kb ?? STORAGE_DEFAULTS.output_budget_kb) * 1024,
    storage_quota_bytes: (plan.shard_storage_mb ?? STORAGE_DEFAULTS.shard_storage_mb) * 1024 * 1024,
  };
}

export function quotaOf(plan: Plan): KeyQuota {
  return { rate_per_minute: plan.rate_per_minute, max_in_flight: plan.max_in_flight };
}
