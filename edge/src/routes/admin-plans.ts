// Plans under /admin/plans (plans/plans.ts): list, show, and set (create or change) one. A PUT body
// names only the fields to change; the rest keep the plan's values, or the default plan's for a new one.
import type { IRequest } from "itty-router";
import type { Env } from "../env.ts";
import { HttpError, json, readJsonObject } from "../lib/http.ts";
import { DEFAULT_PLAN, PLAN_NAME, PLAN_NAME_RULE, defaultPlan, loadPlan, planUpdateSchema, savePlan } from "../plans/plans.ts";
import type { Plan } from "../plans/plans.ts";
import { parseWith } from "../submit/validate.ts";

function planName(request: IRequest): string {
  const name = decodeURIComponent(request.params.name ?? "");
  if (!PLAN_NAME.test(name)) throw new HttpError(400, { error: "invalid plan name", message: PLAN_NAME_RULE });
  return name;
}

export async function listPlans(_r: IRequest, env: Env): Promise<Response> {
  const names = new Set<string>([DEFAULT_PLAN]);
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown, string> = await env.KEYS.list({ prefix: "plan:", cursor });
    for (const k of page.keys) names.add(k.name.slice("plan:".length));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  const plans = await Promise.all([...names].sort().map((n) => loadPlan(env, n)));
  return json(200, plans.filter((p): p is Plan => p !== null));
}

export async function showPlan(request: IRequest, env: Env): Promise<Response> {
  const name = planName(request);
  const plan = await loadPlan(env, name);
  if (!plan) throw new HttpError(404, { error: "plan not found", message: `no plan named '${name}'` });
  return json(200, plan);
}

export async function putPlan(request: IRequest, env: Env): Promise<Response> {
  const name = planName(request);
  const update = parseWith(planUpdateSchema, await readJsonObject(request as unknown as Request, 16 * 1024));
  const existing = await env.KEYS.get<Plan>(`plan:${name}`, "json");
  const plan: Plan = { ...defaultPlan(env), ...existing, ...update, name };
  await savePlan(env, plan);
  return json(existing ? 200 : 201, plan);
}
