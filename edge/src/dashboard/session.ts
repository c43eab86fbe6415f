// Operator sessions for the dashboard. A browser cannot send a bearer header on navigation, so the
// login form posts the operator token once and gets a cookie: `<expiry>.<HMAC-SHA256(token, expiry)>`,
// HttpOnly, Secure, SameSite=Strict, Path=/dashboard. Stateless: rotating OPERATOR_TOKEN ends every
// session. The token itself never appears in a URL, a cookie or a log line.
import type { Env } from "../env.ts";
import { secretsEqual } from "../lib/keys.ts";
import { withoutTrailing } from "../../../proto/trim.ts";

export const COOKIE = "cc_dash";
export const SESSION_SECS = 12 * 3600;

function b64url(bytes: ArrayBuffer): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return withoutTrailing(btoa(s).replace(/\+/g, "-").replace(/\//g, "_"), "=");
}

async function mac(token: string, exp: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(token), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return b64url(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`codecell-dashboard-session:v1:${exp}`)));
}

export async function newSession(env: Env, now = Date.now()): Promise<string> {
  const exp = Math.floor(now / 1000) + SESSION_SECS;
  return `${exp}.${await mac(env.OPERATOR_TOKEN ?? "", exp)}`;
}

export function sessionCookie(value: string, maxAge = SESSION_SECS): string {
  return `${COOKIE}=${value}; Path=/dashboard; HttpOnly; Secure; SameSite=Strict; Max-Age=${maxAge}`;
}

function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
}

export async function validSession(request: Request, env: Env): Promise<boolean> {
  if (!env.OPERATOR_TOKEN) return false;
  const value = readCookie(request, COOKIE);
  if (!value) return false;
  const [expText, sig] = value.split(".");
  const exp = Number(expText);
  if (!sig || !Number.isInteger(exp) || exp * 1000 < Date.now()) return false;
  return secretsEqual(sig, await mac(env.OPERATOR_TOKEN, exp));
}

/** State-changing and WebSocket requests must come from the dashboard's own origin. */
export function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null") return origin === new URL(request.url).origin;
  // Browsers send `Origin: null` in some same-origin cases; Sec-Fetch-Site is set by the browser
  // itself and cannot be forged by a page.
  return request.headers.get("sec-fetch-site") === "same-origin";
}
