// Opening a live session: the WebSocket URL from the client's base URL, the key in a header, and
// why a handshake failed (a WebSocket client never sees the HTTP answer, so the same URL is asked
// once over fetch: 401 for a bad key, 426 when only the upgrade was missing).
import { expect, send } from "./http.ts";
import type { Transport } from "./http.ts";
import { HandshakeError, Session } from "./session.ts";
import type { SessionRequest } from "./api-types.ts";

/** Makes the session's WebSocket; `headers` carries the API key. */
export type WebSocketFactory = (url: string, headers: Record<string, string>) => WebSocket;

/** The global WebSocket with headers: Node ≥ 22 (undici's) and Deno take them; browsers cannot. */
export const globalWebSocket: WebSocketFactory = (url, headers) => {
  if (typeof globalThis.WebSocket !== "function") throw new TypeError("no global WebSocket here (Node ≥ 22 has one): pass the webSocket option");
  return new globalThis.WebSocket(url, { headers } as unknown as string[]);
};

/** ws: or wss: + the base URL's path + api/sessions. */
export function sessionUrl(baseUrl: string): string {
  const url = new URL("api/sessions", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/** The bytes of the start's own stdin, as the node counts them (decoded when the request is base64). */
export function startStdinBytes(request: SessionRequest): number {
  if (!request.stdin) return 0;
  if (request.encoding !== "base64") return new TextEncoder().encode(request.stdin).length;
  const digits = request.stdin.replace(/[^A-Za-z0-9+/]/g, "");
  return Math.floor((digits.length * 3) / 4);
}

export async function openSession(t: Transport, factory: WebSocketFactory, request: SessionRequest, signal?: AbortSignal): Promise<Session> {
  signal?.throwIfAborted();
  const ws = factory(sessionUrl(t.baseUrl), { "x-api-key": t.apiKey });
  const session = new Session(ws, request, startStdinBytes(request));
  const abort = () => ws.close(1000, "aborted");
  signal?.addEventListener("abort", abort, { once: true });
  try {
    await session.accepted;
    return session;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof HandshakeError) await whyRefused(t, signal);
    throw error;
  } finally {
    signal?.removeEventListener("abort", abort);
  }
}

/** Throws the ApiError of the route's HTTP answer (e.g. AuthenticationError); returns when it only wanted the upgrade (426). */
async function whyRefused(t: Transport, signal?: AbortSignal): Promise<void> {
  const res = await send(t, "GET", "api/sessions", { signal }).catch(() => null);
  if (res) await expect(res, [426]);
}
