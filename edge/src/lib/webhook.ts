// Webhooks (spec §6): Standard Webhooks signing and the SSRF rules for endpoint URLs. Pure.

export const SECRET_PREFIX = "whsec_";
/** Delays before attempts 1, 2, 3 (spec §6.7: immediately, then after 1 s, then after 5 s). */
export const ATTEMPT_DELAYS_MS = [0, 1_000, 5_000] as const;

function b64encode(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function b64decode(text: string): Uint8Array | null {
  try {
    const s = atob(text);
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** `whsec_` + base64 of 32 random bytes (DESIGN §2: 24–64 bytes). */
export function generateSecret(): string {
  return SECRET_PREFIX + b64encode(crypto.getRandomValues(new Uint8Array(32)));
}

/** The HMAC key bytes of a secret, or null when it is not `whsec_` + base64 of 24–64 bytes. */
export function secretKey(secret: string): Uint8Array | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const key = b64decode(secret.slice(SECRET_PREFIX.length));
  return key && key.length >= 24 && key.length <= 64 ? key : null;
}

/** `v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>` */
export async function sign(secret: string, msgId: string, timestampSecs: number, body: string): Promise<string> {
  const key = secretKey(secret);
  if (!key) throw new Error("invalid webhook secret");
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(`${msgId}.${timestampSecs}.${body}`));
  return `v1,${b64encode(new Uint8Array(mac))}`;
}

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

/** Why a host is not a permitted public target, or null. */
function blockedHost(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback addresses are not allowed";
  const v4 = ipv4(host);
  if (v4) {
    const [a = 0, b = 0] = v4;
    if (a === 127) return "loopback addresses are not allowed";
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private addresses are not allowed";
    if (a === 169 && b === 254) return "link-local addresses are not allowed";
    if (a === 0 || a >= 224 || (a === 100 && b >= 64 && b <= 127)) return "non-public addresses are not allowed";
    return null;
  }
  if (host.includes(":")) {
    if (host === "::1" || host === "::") return "loopback addresses are not allowed";
    if (/^f[cd]/.test(host)) return "private addresses are not allowed";
    if (/^fe[89ab]/.test(host)) return "link-local addresses are not allowed";
    // IPv4-mapped (::ffff:a.b.c.d; WHATWG URL normalises it to ::ffff:hhhh:hhhh).
    const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (dotted?.[1]) return blockedHost(dotted[1]);
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (hex?.[1] && hex[2]) {
      const hi = parseInt(hex[1], 16);
      const lo = parseInt(hex[2], 16);
      return blockedHost(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
  }
  return null;
}

/**
 * Spec §6.8: HTTPS only, no private, link-local or loopback targets. `devAllow` (host:port entries,
 * development only) admits local receivers, over http too, so delivery can be tested end to end.
 */
export function checkWebhookUrl(raw: string, devAllow: readonly string[] = []): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL are not allowed" };
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const hostPort = `${url.hostname.replace(/^\[|\]$/g, "")}:${port}`.toLowerCase();
  if (devAllow.includes(hostPort) && (url.protocol === "https:" || url.protocol === "http:")) return { ok: true, url };
  if (url.protocol !== "https:") return { ok: false, reason: "the URL must use https" };
  const blocked = blockedHost(url.hostname);
  return blocked ? { ok: false, reason: blocked } : { ok: true, url };
}

export type AttemptOutcome = "delivered" | "retry" | "failed";

/** Spec §6.7: 2xx delivered; 5xx or no answer → retry while attempts remain; 4xx (and others) → stop. */
export function classify(status: number | null, attempt: number): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return "delivered";
  const retryable = status === null || status >= 500;
  return retryable && attempt < ATTEMPT_DELAYS_MS.length ? "retry" : "failed";
}
