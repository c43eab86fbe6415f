// /fleet/*: what fleet nodes call (no operator token). Bodies are enrollment.proto messages
// (application/x-protobuf); the registry checks the bearer credential before it decodes them.
// Refusals are JSON like every other error of the edge.
import { IttyRouter } from "itty-router";
import type { IRequest } from "itty-router";
import { EnrollResponse, HeartbeatResponse, LeaveResponse } from "../../../proto/gen/codecell/fleet/v1/enrollment.ts";
import type { MessageFns } from "../../../proto/gen/codecell/fleet/v1/enrollment.ts";
import type { Refused } from "../contracts/fleet.ts";
import type { Env } from "../env.ts";
import { HttpError, readBodyLimited } from "../lib/http.ts";
import { fleetRegistry } from "../stubs.ts";

type Args = [Env, ExecutionContext];
const BODY_LIMIT = 64 * 1024;
const LABELS: Record<number, string> = { 400: "invalid request", 401: "unauthorized", 403: "revoked", 404: "unknown node", 502: "node unreachable" };

function bearer(request: IRequest): string {
  const h = request.headers.get("authorization") ?? "";
  const t = h.startsWith("Bearer ") ? h.slice(7).trim() : "";
  if (!t) throw new HttpError(401, { error: "unauthorized", message: "missing bearer token" });
  return t;
}

function answer<T>(status: number, type: MessageFns<T>, r: { ok: true; response: T } | Refused): Response {
  if (!r.ok) throw new HttpError(r.status, { error: LABELS[r.status] ?? "refused", message: r.error });
  return new Response(type.encode(r.response).finish(), { status, headers: { "content-type": "application/x-protobuf", "cache-control": "no-store" } });
}

const body = (request: IRequest) => readBodyLimited(request as unknown as Request, BODY_LIMIT);

export const fleetRouter = IttyRouter<IRequest, Args>({ base: "/fleet" })
  .post("/enroll", async (request, env) => answer(201, EnrollResponse, await fleetRegistry(env).enroll(bearer(request), await body(request))))
  .post("/heartbeat", async (request, env) => answer(200, HeartbeatResponse, await fleetRegistry(env).heartbeat(bearer(request), await body(request))))
  .post("/leave", async (request, env) => answer(200, LeaveResponse, await fleetRegistry(env).leave(bearer(request), await body(request))))
  .all("*", () => {
    throw new HttpError(404, { error: "not found" });
  });
