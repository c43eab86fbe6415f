// The routes that open a live session's WebSocket (docs/live-sessions.md): native
// `GET /api/sessions` (and `/api/sessions/{id}` to reconnect) and Piston's `/api/v2/connect`. The key
// has been checked by then (index.ts); the socket itself is accepted by the session's object.
import type { IRequest } from "itty-router";
import { UUID_PATTERN } from "../../../proto/limits.ts";
import { OPEN_HEADER, type OpenSession } from "../session/sockets.ts";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { choosePool } from "../scheduling/first-pool.ts";
import { sessionObject } from "../stubs.ts";
import type { ApiContext } from "../submit/api-context.ts";

function requireUpgrade(request: Request): void {
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    throw new HttpError(426, { error: "upgrade required", message: "a live session is a WebSocket: connect with Upgrade: websocket" }, { upgrade: "websocket" });
  }
}

async function open(request: Request, env: Env, api: ApiContext, dialect: OpenSession["dialect"], resume: string | null): Promise<Response> {
  requireUpgrade(request);
  const session = resume ?? crypto.randomUUID();
  const opened: OpenSession = { dialect, session, caller: api.caller, pool: choosePool(request, env), resume: resume !== null };
  const headers = new Headers(request.headers);
  headers.set(OPEN_HEADER, JSON.stringify(opened));
  return sessionObject(env, session).fetch(new Request(request.url, { method: "GET", headers }));
}

export function openNativeSession(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  return open(request as unknown as Request, env, api, "native", null);
}

export function resumeNativeSession(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  const id = String(request.params.id ?? "");
  if (!UUID_PATTERN.test(id)) throw new HttpError(404, { error: "not found", message: "no such session" });
  return open(request as unknown as Request, env, api, "native", id.toLowerCase());
}

export function openPistonSession(request: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  return open(request as unknown as Request, env, api, "piston", null);
}
