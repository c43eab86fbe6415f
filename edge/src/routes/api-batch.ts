// POST /api/submit/batch and GET /api/results: many submissions in one request. Each batch item
// is checked alone and submitted alone through the key's KeyDO, so each counts against the rate
// limit and the in-flight cap like a submit of its own; a bad or refused item does not stop the others.
import type { IRequest } from "itty-router";
import { countRequest, planFor, rateHeaders } from "../submit/api-context.ts";
import type { ApiContext } from "../submit/api-context.ts";
import type { Env } from "../env.ts";
import { HttpError, json, jsonFromParts, readJsonObject } from "../lib/http.ts";
import { jsonListParts } from "../lib/json-pieces.ts";
import type { Plan } from "../plans/plans.ts";
import { MAX_SUBMIT_BODY_BYTES } from "../submit/validate.ts";
import { fleetRegistry } from "../stubs.ts";
import { choosePool } from "../scheduling/first-pool.ts";
import { recordsInTurn } from "../submission/reads.ts";
import { admit, fleetStatus } from "../submit/submit-core.ts";
import type { StatusOnce } from "../submit/submit-check.ts";
import { UUID_PATTERN } from "../../../proto/limits.ts";

/** A batch carries up to max_batch submissions of up to 2 MiB each in principle; this bounds the body. */
export const MAX_BATCH_BODY_BYTES = 8 * 1024 * 1024;

type ItemOutcome = { id: string; job_status: "pending" } | { error: string; message?: string; [k: string]: unknown };

/** One item through the one admission path; its refusal becomes its entry (a revoked key ends the batch). */
async function submitItem(pool: string, env: Env, api: ApiContext, item: unknown, status: StatusOnce): Promise<ItemOutcome> {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return { error: "invalid request", message: "each submission must be a JSON object" };
  try {
    const outcome = await admit(pool, env, api, item as Record<string, unknown>, { status, countRefusedCheck: false });
    return { id: outcome.id, job_status: "pending" };
  } catch (e) {
    if (e instanceof HttpError) {
      if (e.status === 401) throw e;
      return e.body as ItemOutcome;
    }
    // The items before this one are accepted already: this one alone fails (nothing of it was kept).
    console.error("batch item failed inside the edge", e instanceof Error ? (e.stack ?? e.message) : String(e));
    return { error: "internal error", message: "this submission failed inside the edge; it has been logged" };
  }
}

/** Checks of the batch as a whole; its items are checked one by one afterwards. */
function batchItems(request: IRequest, body: Record<string, unknown>, plan: Plan): unknown[] {
  const url = new URL(request.url);
  if (url.searchParams.has("wait")) {
    const message = "a batch is always asynchronous: wait is not accepted; poll GET /api/results?ids=…";
    throw new HttpError(400, { error: "invalid wait parameter", message });
  }
  if (request.headers.get("idempotency-key") !== null) {
    throw new HttpError(400, { error: "invalid Idempotency-Key", message: "Idempotency-Key is not accepted on a batch" });
  }
  const extra = Object.keys(body).filter((k) => k !== "submissions");
  if (extra.length > 0) throw new HttpError(400, { error: "invalid request", message: `unknown field(s): ${extra.join(", ")}` });
  const items = body.submissions;
  if (!Array.isArray(items)) throw new HttpError(400, { error: "invalid submissions", message: "submissions must be an array of submissions" });
  if (items.length === 0) throw new HttpError(400, { error: "invalid submissions", message: "submissions must not be empty" });
  if (items.length > plan.max_batch) {
    throw new HttpError(400, {
      error: "submissions above the plan's cap", message: `submissions has ${items.length} entries; the plan '${plan.name}' allows at most ${plan.max_batch}`,
    });
  }
  return items;
}

export async function submitBatch(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  let items: unknown[];
  let plan: Plan;
  try {
    plan = await planFor(env, api);
    items = batchItems(request, await readJsonObject(request as unknown as Request, MAX_BATCH_BODY_BYTES), plan);
  } catch (e) {
    await countRequest(env, api);
    throw e;
  }
  const status = fleetStatus(env);
  const pool = choosePool(request as unknown as Request, env);
  const out: ItemOutcome[] = [];
  // In order, one after another: the quota decisions then follow the request's order.
  for (const item of items) out.push(await submitItem(pool, env, api, item, status));
  // Every item was refused before reaching the key's object: the request still counts once.
  if (api.rate === null) await countRequest(env, api);
  return json(202, { submissions: out }, rateHeaders(api.rate));
}

export async function results(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const plan = await planFor(env, api);
  const values = new URL(request.url).searchParams.getAll("ids");
  const ids = values.length === 1 ? values[0]!.split(",").map((s) => s.trim()) : [];
  if (ids.length === 0 || ids.some((id) => id === "")) {
    throw new HttpError(400, { error: "invalid ids", message: "ids must be given once, as comma-separated submission ids" }, rateHeaders(api.rate));
  }
  if (ids.length > plan.max_batch) {
    throw new HttpError(400, {
      error: "ids above the plan's cap", message: `ids has ${ids.length} entries; the plan '${plan.name}' allows at most ${plan.max_batch}`,
    }, rateHeaders(api.rate));
  }
  const bad = ids.find((id) => !UUID_PATTERN.test(id));
  if (bad !== undefined) {
    throw new HttpError(400, { error: "invalid ids", message: `every id must be a UUID; '${bad.slice(0, 64)}' is not` }, rateHeaders(api.rate));
  }
  const records = mapAsync(recordsInTurn(env, ids, api.caller.account_id), (rec, i) => rec ?? { id: ids[i]!, error: "submission not found" });
  return jsonFromParts(200, jsonListParts('{"results":[', records, "]}"), rateHeaders(api.rate));
}

async function* mapAsync<T, U>(items: AsyncIterable<T>, f: (item: T, index: number) => U): AsyncGenerator<U> {
  let i = 0;
  for await (const item of items) yield f(item, i++);
}
