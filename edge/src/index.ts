// codecell edge: the Worker entry. One error-handling wrapper for every request: HttpErrors become
// their JSON response; anything else is a genuine internal failure, logged and answered with a JSON 500.
// The same wrapper counts every answered request by route pattern (metrics/edge-metrics.ts).
import type { IRequest } from "itty-router";
import { adminRouter } from "./routes/admin.ts";
import { fleetRouter } from "./routes/fleet.ts";
import { handleDashboard } from "./dashboard/index.ts";
import { apiRouter } from "./routes/api.ts";
import type { ApiContext } from "./routes/api.ts";
import { authenticate, authenticateOperator } from "./routes/auth.ts";
import { compatKey, redactedUrl } from "./compat/credentials.ts";
import { judge0Router } from "./compat/judge0/routes.ts";
import { pistonRouter } from "./compat/piston/routes.ts";
import type { Env } from "./env.ts";
import { HttpError, errorResponse, json } from "./lib/http.ts";
import { serveDocs, serveOpenApi } from "./openapi/serve.ts";
import { recordRequest, metricsResponse } from "./metrics/edge-metrics.ts";
import { withoutTrailing } from "../../proto/trim.ts";

export { DashboardDO } from "./do/dashboard-do.ts";
export { DoorDO } from "./do/door-do.ts";
export { FleetDO } from "./do/fleet-do.ts";
export { SchedulerDO } from "./do/scheduler-do.ts";
export { KeyDO } from "./do/key-do.ts";
export { MetricsDO } from "./do/metrics-do.ts";
export { SubmissionDO } from "./do/submission-do.ts";
export { SessionDO } from "./do/session-do.ts";
export { WebhookDeliveryDO } from "./do/webhook-delivery-do.ts";

/** Which route answered: a fixed label, or the request a router matched (itty-router sets `route`). */
interface RouteTrace {
  label?: string;
  routed?: Request;
}

const DASHBOARD_PAGES = new Set(["/dashboard", "/dashboard/login", "/dashboard/logout", "/dashboard/ws"]);

async function handle(request: Request, env: Env, ctx: ExecutionContext, trace: RouteTrace = {}): Promise<Response> {
  const url = new URL(request.url);
  // TLS only (docs/api.md): Cloudflare serves https; the local stack's workerd too (scripts/edge-dev.ts --local-protocol https).
  if (url.protocol !== "https:") {
    throw new HttpError(403, { error: "https required", message: "plain HTTP is refused; use https://" });
  }
  const path = url.pathname.length > 1 ? withoutTrailing(url.pathname, "/") : url.pathname;
  // The API's description needs no key (docs/openapi.json; the /docs page renders it).
  if (path === "/api/openapi.json") {
    trace.label = path;
    return serveOpenApi(request);
  }
  if (path === "/docs" || path.startsWith("/docs/")) {
    trace.label = "/docs/*";
    return serveDocs(request, env, path);
  }
  if (path === "/api" || path.startsWith("/api/")) {
    trace.label = "/api/*";
    const caller = await authenticate(request, env);
    const api: ApiContext = { caller, rate: null };
    const res = await apiRouter.fetch((trace.routed = rewrite(request, url, path)), env, ctx, api);
    return res as Response;
  }
  // Judge0 CE and Piston v2 compatible routes (docs/migrating.md): the key as their clients send it.
  const compat = path === "/judge0" || path.startsWith("/judge0/") ? judge0Router : path === "/piston" || path.startsWith("/piston/") ? pistonRouter : null;
  if (compat) {
    trace.label = compat === judge0Router ? "/judge0/*" : "/piston/*";
    const caller = await authenticate(request, env, compatKey(request));
    const api: ApiContext = { caller, rate: null };
    return (await compat.fetch((trace.routed = rewrite(request, url, path)), env, ctx, api)) as Response;
  }
  // Operators' tools (docs/operators.md): the dashboard (session cookie) and fleet enrollment (node tokens).
  if (path === "/dashboard" || path.startsWith("/dashboard/")) {
    trace.label = DASHBOARD_PAGES.has(path) ? path : "/dashboard/*";
    return handleDashboard(request, env, path, (r) => handle(r, env, ctx).catch((e) => {
      if (e instanceof HttpError) return errorResponse(e);
      throw e;
    }));
  }
  if (path.startsWith("/fleet/")) {
    trace.label = "/fleet/*";
    return (await fleetRouter.fetch((trace.routed = rewrite(request, url, path)), env, ctx)) as Response;
  }
  if (path === "/admin" || path.startsWith("/admin/")) {
    trace.label = path === "/admin/metrics" ? path : "/admin/*";
    await authenticateOperator(request, env);
    if (path === "/admin/metrics") return metricsResponse(request, env);
    return (await adminRouter.fetch((trace.routed = rewrite(request, url, path)), env, ctx)) as Response;
  }
  throw new HttpError(404, { error: "not found" });
}

/** Routers match on the normalised path (no trailing slash). */
function rewrite(request: Request, url: URL, path: string): Request {
  if (path === url.pathname) return request;
  const u = new URL(url);
  u.pathname = path;
  return new Request(u, request);
}

/** The route pattern a router matched, else the fixed label; never the raw path (bounded labels). */
function routeLabel(trace: RouteTrace): string {
  return (trace.routed as IRequest | undefined)?.route ?? trace.label ?? "unmatched";
}

async function respond(request: Request, env: Env, ctx: ExecutionContext, trace: RouteTrace): Promise<Response> {
  try {
    return await handle(request, env, ctx, trace);
  } catch (e) {
    if (e instanceof HttpError) return errorResponse(e);
    console.error("internal error", request.method, redactedUrl(request.url), e instanceof Error ? (e.stack ?? e.message) : String(e));
    return json(500, { error: "internal error", message: "the request failed inside the edge; it has been logged" });
  }
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const startedAt = Date.now();
    const trace: RouteTrace = {};
    const response = await respond(request, env, ctx, trace);
    recordRequest(env, ctx, routeLabel(trace), request.method, response.status, startedAt);
    return response;
  },
} satisfies ExportedHandler<Env>;
