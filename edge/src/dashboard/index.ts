// The operator dashboard, served by the Worker under /dashboard:
//   GET  /dashboard            the page (or the login form without a session)
//   POST /dashboard/login      form field `token` = OPERATOR_TOKEN → session cookie, 303 to /dashboard
//   POST /dashboard/logout     clears the cookie
//   GET  /dashboard/ws         WebSocket to the DashboardDO: a JSON snapshot whenever something changed
//   GET  /dashboard/api/snapshot              one snapshot (the page's fallback when WebSockets fail)
//   *    /dashboard/api/admin/<path>          the admin API (/admin/<path>) with the session's authority
// Every request but the login form needs the session cookie; state changes and the WebSocket also
// need the page's own Origin (and API calls a custom header, so no cross-site form can make them).
import type { Env } from "../env.ts";
import { HttpError, json } from "../lib/http.ts";
import { knock, operatorToken, throttled } from "../doors/guard.ts";
import { loginPage, dashboardPage } from "./page.ts";
import { newSession, sameOrigin, sessionCookie, validSession } from "./session.ts";
import { dashboard } from "../stubs.ts";

const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "content-security-policy":
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

function html(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...HTML_HEADERS, ...headers } });
}

export async function handleDashboard(
  request: Request, env: Env, path: string, adminFetch: (r: Request) => Promise<Response>,
): Promise<Response> {
  const expected = operatorToken(env, "dashboard");
  const method = request.method.toUpperCase();

  if (path === "/dashboard/login") {
    if (method !== "POST") return Response.redirect(new URL("/dashboard", request.url).toString(), 303);
    if (!sameOrigin(request)) return html(403, loginPage("The login form must be posted from this page."));
    const form = await request.formData().catch(() => null);
    const token = typeof form?.get("token") === "string" ? (form.get("token") as string).trim() : "";
    const v = await knock(request, env, "dashboard", expected, token);
    if (v.verdict === "throttled") return html(429, loginPage(String(throttled(v).body.message)), throttled(v).headers);
    if (v.verdict === "fail") return html(401, loginPage("That is not the operator token."));
    return new Response(null, {
      status: 303,
      headers: { location: "/dashboard", "set-cookie": sessionCookie(await newSession(env)), "cache-control": "no-store" },
    });
  }
  if (path === "/dashboard/logout") {
    return new Response(null, { status: 303, headers: { location: "/dashboard", "set-cookie": sessionCookie("", 0), "cache-control": "no-store" } });
  }

  const authed = await validSession(request, env);
  if (path === "/dashboard") {
    if (method !== "GET" && method !== "HEAD") throw new HttpError(405, { error: "method not allowed" });
    return authed ? html(200, dashboardPage()) : html(200, loginPage(null));
  }
  if (!authed) throw new HttpError(401, { error: "unauthorized", message: "log in at /dashboard" });

  if (path === "/dashboard/ws") {
    if (!sameOrigin(request)) throw new HttpError(403, { error: "forbidden", message: "cross-origin WebSocket refused" });
    return dashboard(env).fetch(request);
  }
  if (path === "/dashboard/api/snapshot") return json(200, await dashboard(env).snapshot());
  if (path.startsWith("/dashboard/api/admin/")) {
    if (method !== "GET" && !sameOrigin(request)) throw new HttpError(403, { error: "forbidden", message: "cross-origin request refused" });
    if (request.headers.get("x-codecell-dashboard") !== "1") throw new HttpError(403, { error: "forbidden", message: "missing dashboard header" });
    const url = new URL(request.url);
    url.pathname = path.slice("/dashboard/api".length);
    const headers = new Headers({ authorization: `Bearer ${expected}` });
    // The admin API's door counts this client as the one that signed in.
    const client = request.headers.get("cf-connecting-ip");
    if (client) headers.set("cf-connecting-ip", client);
    const ct = request.headers.get("content-type");
    if (ct) headers.set("content-type", ct);
    const body = method === "GET" || method === "HEAD" ? undefined : await request.arrayBuffer();
    return adminFetch(new Request(url.toString(), { method, headers, body }));
  }
  throw new HttpError(404, { error: "not found" });
}
