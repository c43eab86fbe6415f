// Judge0 CE 1.13.1's routes besides submissions (docs/migrating.md): information, configuration,
// health, languages in full, and the authentication checks. Each counts against the key's rate like
// any request; none runs anything. Shapes in service-info.ts.
import type { IRequest } from "itty-router";
import type { ApiContext } from "../../submit/api-context.ts";
import { countRequest, planFor, rateHeaders } from "../../submit/api-context.ts";
import type { Env } from "../../env.ts";
import { config } from "../../env.ts";
import { HttpError, json } from "../../lib/http.ts";
import { fleetRegistry } from "../../stubs.ts";
import { fleetStatus } from "../../submit/submit-core.ts";
import { DEFAULT_ATTEMPT_TIMEOUT_MS, MAX_ATTEMPTS } from "../../webhooks/attempt-policy.ts";
import { mainSourceFileName } from "../../../../proto/source-names.ts";
import { runtimes } from "../core.ts";
import { acceptedLanguages } from "./languages.ts";
import { ISOLATE_TEXT, JUDGE0_VERSION, LICENSE_TEXT, about, configInfo, emptyStatistics, judge0Workers } from "./service-info.ts";

type Handler = (r: IRequest, env: Env, ctx: ExecutionContext, api: ApiContext) => Promise<Response>;

/** Judge0 answers these as plain text. */
function text(body: string, api: ApiContext): Response {
  return new Response(body, { status: 200, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...rateHeaders(api.rate) } });
}

/** Judge0's `head :ok` / `head :forbidden`: a status and no body. */
const empty = (status: number, api: ApiContext) => new Response(null, { status, headers: { "cache-control": "no-store", ...rateHeaders(api.rate) } });

/** A route answered once the request is counted. */
const counted = (answer: (r: IRequest, env: Env, api: ApiContext) => Promise<Response> | Response): Handler =>
  async (r, env, _ctx, api) => {
    await countRequest(env, api);
    return answer(r, env, api);
  };

export const judge0About = counted((r, _env, api) => json(200, about(new URL(r.url).origin), rateHeaders(api.rate)));
export const judge0Version = counted((_r, _env, api) => text(JUDGE0_VERSION, api));
export const judge0Isolate = counted((_r, _env, api) => text(ISOLATE_TEXT, api));
export const judge0License = counted((_r, _env, api) => text(LICENSE_TEXT, api));
/** Judge0 prints the web host's `lscpu` and `free`; the edge is no host of ours to describe. */
export const judge0SystemInfo = counted((_r, _env, api) => json(200, {}, rateHeaders(api.rate)));
export const judge0Statistics = counted((_r, _env, api) => json(200, emptyStatistics(new Date()), rateHeaders(api.rate)));

export const judge0ConfigInfo = counted(async (_r, env, api) => {
  const timeout = Number(env.WEBHOOK_TIMEOUT_MS);
  const settings = {
    queueCapacity: config(env).queueCapacity,
    callbackAttempts: MAX_ATTEMPTS,
    callbackTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_ATTEMPT_TIMEOUT_MS,
  };
  return json(200, configInfo(await planFor(env, api), settings), rateHeaders(api.rate));
});

/** The fleet's state as the registry knows it: the one place compat/ reads it. */
export const judge0WorkersRoute = counted(async (_r, env, api) => json(200, judge0Workers(await fleetRegistry(env).overview()), rateHeaders(api.rate)));

/** Every id a submission may name, by name, as Judge0's /languages/all (none archived here). */
export const judge0AllLanguages = counted(async (_r, env, api) => {
  const list = acceptedLanguages(await runtimes(fleetStatus(env)))
    .map(({ id, name }) => ({ id, name, is_archived: false }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  return json(200, list, rateHeaders(api.rate));
});

/** One id in Judge0's full shape; the commands are the node's (docs/languages.md), not given here. */
export const judge0Language = counted(async (r, env, api) => {
  const found = acceptedLanguages(await runtimes(fleetStatus(env))).find((l) => String(l.id) === r.params.id);
  if (!found) throw new HttpError(404, { error: "language not found" }, rateHeaders(api.rate));
  const sourceFile = found.runtime.language === "java" ? "Main.java" : mainSourceFileName(found.runtime.language, "");
  return json(200, {
    id: found.id, name: found.name, is_archived: false,
    source_file: found.runtime.language === "multi-file" ? null : sourceFile, compile_cmd: null, run_cmd: null,
  }, rateHeaders(api.rate));
});

/** The key was checked before any route: reaching here, it is valid. */
export const judge0Authenticate = counted((_r, _env, api) => empty(200, api));
/** Judge0 with no authorization token configured: protected calls (the full list, deleting) are forbidden. */
export const judge0Forbidden = counted((_r, _env, api) => empty(403, api));
/** Judge0's home route (`head :ok`). */
export const judge0Home = counted((_r, _env, api) => empty(200, api));
