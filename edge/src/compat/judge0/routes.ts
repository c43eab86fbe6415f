// Judge0 CE 1.13.1 under /judge0 (docs/migrating.md): thin routes over our own submission path;
// the mappings are in to-native.ts and from-native.ts, the other routes in info-routes.ts.
import { IttyRouter } from "itty-router";
import type { IRequest } from "itty-router";
import type { ApiContext } from "../../submit/api-context.ts";
import { countRequest, planFor, rateHeaders } from "../../submit/api-context.ts";
import type { Env } from "../../env.ts";
import { HttpError, json, jsonFromParts, readJsonObject } from "../../lib/http.ts";
import { projectEndpoints } from "../../webhooks/endpoints.ts";
import { readRecord, recordsInTurn } from "../../submission/reads.ts";
import { jsonListParts } from "../../lib/json-pieces.ts";
import { UUID_PATTERN } from "../../../../proto/limits.ts";
import type { Runtime } from "../../../../proto/runtimes.ts";
import type { StatusOnce } from "../../submit/submit-check.ts";
import { fleetStatus } from "../../submit/submit-core.ts";
import { countedRefusal } from "../../routes/counted-refusal.ts";
import { runtimes, submitNative } from "../core.ts";
import { judge0Submission, parseBase64Flag, parseFields } from "./from-native.ts";
import { acceptedLanguages, listedId } from "./languages.ts";
import { rememberLanguageId, sentLanguageIds } from "./sent-language-ids.ts";
import { JUDGE0_STATUSES } from "./statuses.ts";
import {
  judge0About, judge0AllLanguages, judge0Authenticate, judge0ConfigInfo, judge0Forbidden, judge0Home, judge0Isolate, judge0Language,
  judge0License, judge0Statistics, judge0SystemInfo, judge0Version, judge0WorkersRoute,
} from "./info-routes.ts";
import { judge0FieldError, judge0ToNative, parseJudge0Submission } from "./to-native.ts";

type Args = [Env, ExecutionContext, ApiContext];

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Our checks answer 400; a Judge0 client expects an invalid submission to be a 422. */
function asJudge0Error(e: unknown): unknown {
  return e instanceof HttpError && e.status === 400 ? new HttpError(422, e.body, e.headers) : e;
}

/** callback_url: only an endpoint registered for the key's project (no request names a URL we call). */
async function checkCallback(env: Env, api: ApiContext, url: string | null): Promise<void> {
  if (url === null) return;
  const endpoints = await projectEndpoints(env.KEYS, api.caller.project_id);
  if (!endpoints.some((e) => e.active && e.url === url)) {
    throw judge0FieldError("callback_url", "is not a webhook endpoint registered for this project (codecell webhooks add); completions are delivered as signed webhooks to registered endpoints only");
  }
}

/** The runtimes a record's Judge0 fields need: the registry is asked only for `language_id`. */
async function runtimesFor(fields: readonly string[], status: StatusOnce): Promise<Runtime[]> {
  return fields.includes("language_id") ? runtimes(status) : [];
}

/** Submits one Judge0 submission; the language_id it was sent with is kept when its runtime is listed under another. */
async function createOne(request: IRequest, env: Env, api: ApiContext, item: unknown, base64: boolean, wait: boolean, status: StatusOnce) {
  const submission = parseJudge0Submission(item);
  const rts = await runtimes(status);
  const mapped = judge0ToNative(submission, rts, base64);
  await checkCallback(env, api, mapped.callbackUrl);
  let submitted;
  try {
    submitted = await submitNative(request as unknown as Request, env, api, mapped.body, wait, status);
  } catch (e) {
    throw asJudge0Error(e);
  }
  // Kept or not, the submission stands: a failed write only makes its answers name the listed id.
  await rememberLanguageId(env, submitted.id, submission.language_id, listedId(submission.language_id, rts)).catch(() => undefined);
  return { ...submitted, languageId: submission.language_id };
}

/** The language_ids sent for these tokens, when the answer carries language_id. */
async function sentIds(env: Env, fields: readonly string[], tokens: readonly string[]): Promise<Map<string, number>> {
  return fields.includes("language_id") && tokens.length > 0 ? sentLanguageIds(env, tokens) : new Map();
}

async function create(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  const url = new URL(request.url);
  const base64 = parseBase64Flag(url.searchParams.get("base64_encoded"));
  const wait = url.searchParams.get("wait") === "true";
  const status = fleetStatus(env);
  let submitted;
  try {
    const fields = parseFields(url.searchParams.get("fields"));
    const body = await readJsonObject(request as unknown as Request, MAX_BODY_BYTES, true);
    submitted = { ...(await createOne(request, env, api, body, base64, wait, status)), fields };
  } catch (e) {
    if (api.rate === null) await countRequest(env, api);
    throw e;
  }
  if (!wait) return json(201, { token: submitted.id }, rateHeaders(api.rate));
  const rec = submitted.record ?? (await readRecord(env, submitted.id, api.caller.account_id));
  if (!rec) return json(201, { token: submitted.id }, rateHeaders(api.rate));
  return json(201, judge0Submission(rec, await runtimesFor(submitted.fields, status), submitted.fields, base64, submitted.languageId), rateHeaders(api.rate));
}

async function get(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const url = new URL(request.url);
  const token = request.params.token ?? "";
  const fields = parseFields(url.searchParams.get("fields"));
  if (!UUID_PATTERN.test(token)) throw new HttpError(404, { error: "submission not found" }, rateHeaders(api.rate));
  const rec = await readRecord(env, token, api.caller.account_id);
  if (!rec) throw new HttpError(404, { error: "submission not found" }, rateHeaders(api.rate));
  const rts = await runtimesFor(fields, fleetStatus(env));
  const sent = (await sentIds(env, fields, [rec.id])).get(rec.id);
  return json(200, judge0Submission(rec, rts, fields, parseBase64Flag(url.searchParams.get("base64_encoded")), sent), rateHeaders(api.rate));
}

async function createBatch(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  const url = new URL(request.url);
  const base64 = parseBase64Flag(url.searchParams.get("base64_encoded"));
  let items: unknown[];
  try {
    const body = await readJsonObject(request as unknown as Request, MAX_BODY_BYTES, true);
    const plan = await planFor(env, api);
    // Judge0's own answers (400) for a batch of the wrong size; the cap is the plan's.
    if (!Array.isArray(body.submissions) || body.submissions.length === 0) {
      throw new HttpError(400, { error: "there should be at least one submission in a batch", message: "submissions must be a non-empty list" });
    }
    if (body.submissions.length > plan.max_batch) {
      throw new HttpError(400, {
        error: `number of submissions in a batch should be less than or equal to ${plan.max_batch}`,
        message: `submissions has ${body.submissions.length} entries; the plan '${plan.name}' allows at most ${plan.max_batch}`,
      });
    }
    items = body.submissions;
  } catch (e) {
    await countRequest(env, api);
    throw e;
  }
  const status = fleetStatus(env);
  const out: unknown[] = [];
  let created = false;
  // In order: the quota decisions follow the request's order; each item stands or falls alone.
  for (const item of items) {
    try {
      out.push({ token: (await createOne(request, env, api, item, base64, false, status)).id });
      created = true;
    } catch (e) {
      if (!(e instanceof HttpError) || e.status >= 500) throw e;
      out.push(e.body);
    }
  }
  if (api.rate === null) await countRequest(env, api);
  // As Judge0: 201 when at least one item was created, else 422 (each item's errors either way).
  return json(created ? 201 : 422, out, rateHeaders(api.rate));
}

async function getBatch(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const url = new URL(request.url);
  const fields = parseFields(url.searchParams.get("fields"));
  const base64 = parseBase64Flag(url.searchParams.get("base64_encoded"));
  const tokens = (url.searchParams.get("tokens") ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  const plan = await planFor(env, api);
  if (tokens.length === 0) throw new HttpError(400, { error: "tokens is required: a comma-separated list of submission tokens" }, rateHeaders(api.rate));
  if (tokens.length > plan.max_batch) {
    throw new HttpError(400, { error: `tokens has ${tokens.length} entries; the plan '${plan.name}' allows at most ${plan.max_batch}` }, rateHeaders(api.rate));
  }
  const rts = await runtimesFor(fields, fleetStatus(env));
  const asked = tokens.map((t) => (UUID_PATTERN.test(t) ? t : null));
  const sent = await sentIds(env, fields, asked.filter((t) => t !== null).map((t) => t.toLowerCase()));
  // Read and sent one at a time: the request holds two records at most, whatever their output.
  async function* submissions() {
    for await (const r of recordsInTurn(env, asked, api.caller.account_id)) yield r ? judge0Submission(r, rts, fields, base64, sent.get(r.id)) : null;
  }
  return jsonFromParts(200, jsonListParts('{"submissions":[', submissions(), "]}"), rateHeaders(api.rate));
}

async function languages(_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const list = acceptedLanguages(await runtimes(fleetStatus(env))).map(({ id, name }) => ({ id, name }));
  return json(200, list, rateHeaders(api.rate));
}

async function statuses(_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  return json(200, JUDGE0_STATUSES, rateHeaders(api.rate));
}

const notFound = countedRefusal(404, { error: "not found" });

export const judge0Router = IttyRouter<IRequest, Args>({ base: "/judge0" })
  .post("/submissions/batch", createBatch)
  .get("/submissions/batch", getBatch)
  .post("/submissions", create)
  .get("/submissions/:token", get)
  .get("/submissions", judge0Forbidden)
  .delete("/submissions/:token", judge0Forbidden)
  .get("/languages", languages)
  .get("/languages/all", judge0AllLanguages)
  .get("/languages/:id", judge0Language)
  .get("/statuses", statuses)
  .get("/system_info", judge0SystemInfo)
  .get("/config_info", judge0ConfigInfo)
  .get("/isolate", judge0Isolate)
  .get("/about", judge0About)
  .get("/version", judge0Version)
  .get("/license", judge0License)
  .get("/statistics", judge0Statistics)
  .post("/authenticate", judge0Authenticate)
  .post("/authorize", judge0Forbidden)
  .get("/workers", judge0WorkersRoute)
  .get("", judge0Home)
  .all("*", notFound);
