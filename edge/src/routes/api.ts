// Public API (docs/api.md). Every route runs after the API key is authenticated; every request counts
// against the key's rolling rate limit (submit counts inside KeyDO.submit to save a hop).
import { IttyRouter } from "itty-router";
import type { IRequest } from "itty-router";
import { countRequest, planFor, rateHeaders } from "../submit/api-context.ts";
import type { ApiContext } from "../submit/api-context.ts";
import { results, submitBatch } from "./api-batch.ts";
import { config } from "../env.ts";
import type { Env } from "../env.ts";
import { choosePool } from "../scheduling/first-pool.ts";
import { fleetRegistry } from "../stubs.ts";
import { readForAnswer, readRecord } from "../submission/reads.ts";
import { HttpError, STREAM_FROM_CHARS, json, jsonBody, jsonStreamed, readJsonObject } from "../lib/http.ts";
import { outputChars } from "../lib/json-pieces.ts";
import { effectivePlan } from "../plans/plan-caps.ts";
import { UUID_PATTERN } from "../../../proto/limits.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import { MAX_SUBMIT_BODY_BYTES, parseWait } from "../submit/validate.ts";
import type { SubmitOutcome } from "../contracts/key.ts";
import { admit, fleetStatus } from "../submit/submit-core.ts";
import { countedRefusal } from "./counted-refusal.ts";
import { resultEvents } from "./result-events.ts";
import { openNativeSession, resumeNativeSession } from "./sessions.ts";

export type { ApiContext } from "../submit/api-context.ts";
export { countRequest, quotaExceeded, rateHeaders } from "../submit/api-context.ts";

type Args = [Env, ExecutionContext, ApiContext];

async function submit(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  const cfg = config(env);
  let wait: boolean;
  let body: Record<string, unknown>;
  let idempotencyKey: string | null;
  try {
    wait = parseWait(new URL(request.url));
    idempotencyKey = request.headers.get("idempotency-key");
    if (idempotencyKey !== null && !UUID_PATTERN.test(idempotencyKey.trim())) {
      throw new HttpError(400, { error: "invalid Idempotency-Key", message: "Idempotency-Key must be a UUID" });
    }
    idempotencyKey = idempotencyKey?.trim().toLowerCase() ?? null;
    body = await readJsonObject(request as unknown as Request, MAX_SUBMIT_BODY_BYTES);
  } catch (e) {
    // A rejected request still counts against the rate limit (docs/api.md: every request).
    await countRequest(env, api);
    throw e;
  }

  const t0 = Date.now();
  const timing = (outcome: SubmitOutcome) => {
    const hops = outcome.kind === "created" ? Object.entries(outcome.hops ?? {}).map(([hop, ms]) => `, ${hop};dur=${ms}`).join("") : "";
    return { ...rateHeaders(outcome.rate), "server-timing": `edge;dur=${Date.now() - t0}${hops}` };
  };
  const outcome = await admit(choosePool(request as unknown as Request, env), env, api, body, {
    status: fleetStatus(env), idempotencyKey, waitMs: wait ? cfg.syncHoldMs : 0, headers: timing,
  });
  const headers = timing(outcome);
  switch (outcome.kind) {
    case "duplicate": {
      // An Idempotency-Key seen before (docs/api.md): the existing record, HTTP 202, no new execution.
      const rec = await readRecord(env, outcome.id, api.caller.account_id);
      const replayed = { ...headers, "idempotent-replayed": "true" };
      return jsonStreamed(202, rec ?? { id: outcome.id, job_status: "pending" }, replayed, outputChars(rec) > STREAM_FROM_CHARS);
    }
    case "created": {
      const id = outcome.id;
      if (!wait) return json(202, { id, job_status: "pending", queue_depth: outcome.queue_depth }, headers);
      // The KeyDO held the request until the record was terminal or the hold expired. If that wait
      // was interrupted (object evicted), answer from storage: the run carries on regardless.
      let rec: ResultRecord | null = outcome.record ?? null;
      if (!rec) rec = await readRecord(env, id, null);
      if (rec && (rec.job_status === "completed" || rec.job_status === "error")) return jsonStreamed(200, rec, headers, outputChars(rec) > STREAM_FROM_CHARS);
      return json(408, {
        error: "timeout",
        message: `execution did not finish within ${Math.round(cfg.syncHoldMs / 100) / 10} s; poll GET /api/result/${id}`,
        id,
        job_status: rec?.job_status ?? "pending",
      }, headers);
    }
  }
}

async function result(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const id = request.params.id ?? "";
  if (!UUID_PATTERN.test(id)) {
    throw new HttpError(400, { error: "invalid submission id", message: "the submission id must be a UUID" }, rateHeaders(api.rate));
  }
  const rec = await readForAnswer(env, id, api.caller.account_id);
  if (!rec) throw new HttpError(404, { error: "submission not found" }, rateHeaders(api.rate));
  return rec instanceof ReadableStream ? jsonBody(200, rec, rateHeaders(api.rate)) : json(200, rec, rateHeaders(api.rate));
}

async function events(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  return resultEvents(request, env, api.caller.account_id, rateHeaders(api.rate));
}

async function health(_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const s = await fleetRegistry(env).status();
  return json(200, {
    status: s.ready_nodes > 0 ? "ok" : "degraded",
    enforcement_mode: s.enforcement_mode,
    workers: s.workers,
    queue_depth: s.queue_depth,
  }, rateHeaders(api.rate));
}

async function ready(_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const reasons: string[] = [];
  let s = null;
  try {
    await env.KEYS.get("health:probe");
  } catch (e) {
    reasons.push(`key storage is not answering: ${String(e)}`);
  }
  try {
    s = await fleetRegistry(env).status();
  } catch (e) {
    reasons.push(`fleet registry is not answering: ${String(e)}`);
  }
  if (s && s.ready_nodes === 0) reasons.push("no fleet node is ready with strict isolation", ...s.reasons);
  if (reasons.length > 0 || !s) {
    return json(503, { error: "not ready", ready: false, reasons }, rateHeaders(api.rate));
  }
  const ready = { ready: true, enforcement_mode: s.enforcement_mode, ready_nodes: s.ready_nodes, workers: s.workers, queue_depth: s.queue_depth };
  return json(200, ready, rateHeaders(api.rate));
}

async function languages(_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  return json(200, (await fleetRegistry(env).status()).languages, rateHeaders(api.rate));
}

/** Every (language, version) the ready nodes offer: what a submission's `version` may name. */
async function runtimes(_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const list = (await fleetRegistry(env).status()).runtimes.map((r) => ({
    language: r.language, version: r.version, aliases: r.aliases, default: r.default, compiled: r.compiled, libraries: r.libraries, isolation: r.isolation,
  }));
  return json(200, list, rateHeaders(api.rate));
}

/** The caps the key is held to: its plan, every default filled in (docs/api.md, "Limits"). */
async function limits(_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  return json(200, effectivePlan(await planFor(env, api)), rateHeaders(api.rate));
}

const methodNotAllowed = countedRefusal(405, { error: "method not allowed" });
const notFound = countedRefusal(404, { error: "not found" });

export const apiRouter = IttyRouter<IRequest, Args>({ base: "/api" })
  .post("/submit", submit)
  .post("/submit/batch", submitBatch)
  .get("/results", results)
  .get("/result/:id", result)
  .get("/result/:id/events", events)
  .get("/health", health)
  .get("/health/ready", ready)
  .get("/languages", languages)
  .get("/runtimes", runtimes)
  .get("/limits", limits)
  .get("/sessions", openNativeSession)
  .get("/sessions/:id", resumeNativeSession)
  .all("/submit", methodNotAllowed)
  .all("/submit/batch", methodNotAllowed)
  .all("/results", methodNotAllowed)
  .all("/result/:id", methodNotAllowed)
  .all("/result/:id/events", methodNotAllowed)
  .all("/health", methodNotAllowed)
  .all("/health/ready", methodNotAllowed)
  .all("/languages", methodNotAllowed)
  .all("/runtimes", methodNotAllowed)
  .all("/limits", methodNotAllowed)
  .all("*", notFound);
