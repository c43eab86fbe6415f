// Piston v2 under /piston (docs/migrating.md): execute is synchronous, as in Piston; thin routes
// over our own submission path, the mappings in to-native.ts and from-native.ts.
import { IttyRouter } from "itty-router";
import type { IRequest } from "itty-router";
import type { ApiContext } from "../../submit/api-context.ts";
import { countRequest, rateHeaders } from "../../submit/api-context.ts";
import type { Env } from "../../env.ts";
import { HttpError, json, readJsonObject } from "../../lib/http.ts";
import { TESTS_WALL_BUDGET_MS } from "../../../../proto/submission-rules.ts";
import { fleetStatus } from "../../submit/submit-core.ts";
import { countedRefusal } from "../../routes/counted-refusal.ts";
import { openPistonSession } from "../../routes/sessions.ts";
import { awaitRecord, runtimes, submitNative } from "../core.ts";
import { pistonResult, pistonRuntimes } from "./from-native.ts";
import { parsePistonExecute, pistonRuntime, pistonToNative } from "./to-native.ts";

type Args = [Env, ExecutionContext, ApiContext];

const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Piston answers errors as `{message}`; ours carry `error` (and often `message`): keep both. */
function asPistonError(e: unknown): unknown {
  if (!(e instanceof HttpError) || typeof e.body.message === "string") return e;
  return new HttpError(e.status, { ...e.body, message: String(e.body.error ?? "request failed") }, e.headers);
}

async function execute(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  const status = fleetStatus(env);
  let submitted;
  let runtime;
  try {
    const p = parsePistonExecute(await readJsonObject(request as unknown as Request, MAX_BODY_BYTES, true));
    runtime = pistonRuntime(p.language, p.version, await runtimes(status));
    if (!runtime) throw new HttpError(400, { message: `${p.language}-${p.version} runtime is unknown`, error: "unknown runtime" });
    submitted = await submitNative(request as unknown as Request, env, api, pistonToNative(p, runtime), true, status);
  } catch (e) {
    if (api.rate === null) {
      try {
        await countRequest(env, api);
      } catch (counted) {
        throw asPistonError(counted);
      }
    }
    throw asPistonError(e);
  }
  const rec = submitted.record ?? (await awaitRecord(env, api, submitted.id, TESTS_WALL_BUDGET_MS));
  if (!rec || (rec.job_status !== "completed" && rec.job_status !== "error")) {
    throw new HttpError(504, {
      message: `the run did not finish in time; its record stays at GET /api/result/${submitted.id}`, error: "timeout", id: submitted.id,
    }, rateHeaders(api.rate));
  }
  return json(200, pistonResult(rec, runtime), { ...rateHeaders(api.rate), "x-codecell-id": submitted.id });
}

async function runtimesList(_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  return json(200, pistonRuntimes(await runtimes(fleetStatus(env))), rateHeaders(api.rate));
}

const notFound = countedRefusal(404, { message: "not found", error: "not found" });

export const pistonRouter = IttyRouter<IRequest, Args>({ base: "/piston" })
  .post("/api/v2/execute", execute)
  .get("/api/v2/runtimes", runtimesList)
  .get("/api/v2/connect", openPistonSession)
  .all("*", notFound);
