// The API key on the compatibility routes, sent the way the peers' clients can send it:
// `X-API-Key` (ours), `Authorization: Bearer <key>` (Piston's hosted API), `X-Auth-Token`
// (Judge0), or HTTP Basic with the key as the user name (a base URL such as
// https://KEY@host/piston, for clients that cannot add a header). Pure; unit tested.

export function compatKey(headers: Headers): string | null {
  const direct = headers.get("x-api-key") ?? headers.get("x-auth-token");
  if (direct) return direct.trim();
  const auth = headers.get("authorization") ?? "";
  const [scheme, value = ""] = auth.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === "bearer" && value) return value;
  if (scheme?.toLowerCase() === "basic" && value) {
    let decoded: string;
    try {
      decoded = atob(value);
    } catch {
      return null;
    }
    const user = decoded.split(":", 1)[0] ?? "";
    return user ? decodeURIComponent(user) : null;
  }
  return null;
}
