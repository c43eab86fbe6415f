// The routes that open a live session's WebSocket (docs/live-sessions.md): native
// `GET /api/sessions` (and `/api/sessions/{id}` to reconnect) and Piston's `/api/v2/connect`. The key
// has been checked by then (index.ts); the socket itself is accepted by the session's object. Every
// upgrade, and every refusal, counts against the key's rate; its open sockets are capped by its plan.
import type { IRequest } from "itty-router";
import { UUID_PATTERN } from "../../../proto/limits.ts";
import { OPEN_HEADER, type OpenSession } from "../contracts/session.ts";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { SESSION_DEFAULTS, sessionCaps } from "../plans/plan-caps.ts";
import { choosePool } from "../scheduling/first-pool.ts";
import { keyObject, sessionObject } from "../stubs.ts";
import { countRequest, planFor, rateHeaders, type ApiContext } from "../submit/api-context.ts";

/** Beyond a session's maximum duration, how long its sockets may last: its start deadline and its overdue grace. */
const SOCKET_SLACK_MS = 2 * 60_000;

function requireUpgrade(request: Request, api: ApiContext): void {
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    const body = { error: "upgrade required", message: "a live session is a WebSocket: connect with Upgrade: websocket" };
    throw new HttpError(426, body, { upgrade: "websocket", ...rateHeaders(api.rate) });
  }
}

/** Takes one of the key's session sockets, or refuses with 429; the token to give back. */
async function takeSocket(env: Env, api: ApiContext): Promise<string> {
  const plan = await planFor(env, api);
  const max = plan.max_sessions ?? SESSION_DEFAULTS.max_sessions;
  const token = crypto.randomUUID();
  const until_ms = Date.now() + sessionCaps(plan).max_duration_ms + SOCKET_SLACK_MS;
  if (await keyObject(env, api.caller.hash).liveSocket(token, { max, until_ms })) return token;
  const message = `this key holds ${max} live-session WebSockets open (its plan's max_sessions); close one first`;
  throw new HttpError(429, { error: "too many sessions", message, retry_after: 1 }, { "retry-after": "1", ...rateHeaders(api.rate) });
}

async function open(
  request: Request, env: Env, ctx: ExecutionContext, api: ApiContext, dialect: OpenSession["dialect"], resume: string | null,
): Promise<Response> {
  requireUpgrade(request, api);
  const socket = await takeSocket(env, api);
  const session = resume ?? crypto.randomUUID();
  const opened: OpenSession = { dialect, session, caller: api.caller, pool: choosePool(request, env), resume: resume !== null, socket };
  const headers = new Headers(request.headers);
  headers.set(OPEN_HEADER, JSON.stringify(opened));
  const give = () => ctx.waitUntil(keyObject(env, api.caller.hash).liveSocket(socket, null).catch(() => {}));
  try {
    const res = await sessionObject(env, session).fetch(new Request(request.url, { method: "GET", headers }));
    if (res.status !== 101) give();
    return res;
  } catch (e) {
    give();
    throw e;
  }
}

export async function openNativeSession(request: IRequest, env: Env, ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  return open(request as unknown as Request, env, ctx, api, "native", null);
}

export async function resumeNativeSession(request: IRequest, env: Env, ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  const id = String(request.params.id ?? "");
  if (!UUID_PATTERN.test(id)) throw new HttpError(404, { error: "not found", message: "no such session" }, rateHeaders(api.rate));
  return open(request as unknown as Request, env, ctx, api, "native", id.toLowerCase());
}

export async function openPistonSession(request: IRequest, env: Env, ctx: ExecutionContext, api: ApiContext): Promise<Response> {
  await countRequest(env, api);
  return open(request as unknown as Request, env, ctx, api, "piston", null);
}
