// The API key on the compatibility routes, sent the way the peers' clients send it. Both dialects:
// `X-API-Key` (ours), `X-Auth-Token` (Judge0's header), `Authorization: Bearer <key>` (Piston's
// hosted API), or HTTP Basic with the key as the user name (a base URL such as
// https://KEY@host/piston, for clients that cannot add a header). Judge0 only: the token as a query
// parameter under Judge0's header name (`?X-Auth-Token=`, as judge0.conf allows). Piston only: a
// bare `Authorization: <key>` (aiopyston's form); on the Judge0 routes an Authorization header
// without a scheme is no key, so a proxy's own header there is never taken for one.
// Pure; unit tested.

/** Judge0's header names, which Judge0 also reads as query parameters: the token and the user (authorization). */
export const JUDGE0_QUERY_CREDENTIALS = ["X-Auth-Token", "X-Auth-User"] as const;

export type Dialect = "judge0" | "piston";

/** The dialect of a compatibility path, by its prefix. */
export const dialectOf = (pathname: string): Dialect => (pathname === "/piston" || pathname.startsWith("/piston/") ? "piston" : "judge0");

function fromAuthorization(header: string, dialect: Dialect): string | null {
  const [scheme = "", value = "", ...rest] = header.trim().split(/\s+/);
  if (scheme === "") return null;
  const named = scheme.toLowerCase();
  if (value === "") return dialect === "piston" && named !== "bearer" && named !== "basic" ? scheme : null;
  if (rest.length > 0) return null;
  if (named === "bearer") return value;
  if (named !== "basic") return null;
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return null;
  }
  const user = decoded.split(":", 1)[0] ?? "";
  try {
    return user ? decodeURIComponent(user) : null;
  } catch {
    return null;
  }
}

/** The key a compatibility request carries, or null. Headers first, then (Judge0) the query, as Judge0 reads them. */
export function compatKey(request: Pick<Request, "headers" | "url">): string | null {
  const url = new URL(request.url);
  const dialect = dialectOf(url.pathname);
  const direct = request.headers.get("x-api-key") ?? request.headers.get("x-auth-token");
  if (direct?.trim()) return direct.trim();
  const auth = request.headers.get("authorization");
  const authorized = auth === null ? null : fromAuthorization(auth, dialect);
  if (authorized !== null || dialect === "piston") return authorized;
  return url.searchParams.get("X-Auth-Token")?.trim() || null;
}

/**
 * The URL as we may log it: every Judge0 credential parameter's value replaced, whatever the case
 * of its name (keys in URLs end up in logs; ours never hold one).
 */
export function redactedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "(unparsable URL)";
  }
  const secret = new Set(JUDGE0_QUERY_CREDENTIALS.map((n) => n.toLowerCase()));
  const names = [...new Set([...url.searchParams.keys()].filter((n) => secret.has(n.toLowerCase())))];
  if (names.length === 0 && url.username === "" && url.password === "") return raw;
  for (const name of names) url.searchParams.set(name, "REDACTED");
  url.username = "";
  url.password = "";
  return url.toString();
}
