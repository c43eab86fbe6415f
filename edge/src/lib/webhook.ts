// Webhooks (docs/api.md): Standard Webhooks secrets and signing, the attempt schedule and outcome rules.
// Pure (WebCrypto only): runs in the Worker and in Node. URL rules live in webhook-url.ts.
export { checkWebhookUrl, hostReason, webhookPolicy } from "./webhook-url.ts";
export type { UrlCheck, WebhookPolicy } from "./webhook-url.ts";

export const SECRET_PREFIX = "whsec_";
/**
 * Spec §6.7 ("immediately, then after 1 second, then after 5 seconds") and the issue ("attempts at
 * 0 s, 1 s and 5 s"): attempt 1, 2, 3 start at these offsets from the first attempt's start — but
 * never before the previous attempt has ended (a timed-out attempt pushes the next one back).
 */
export const ATTEMPT_OFFSETS_MS = [0, 1_000, 5_000] as const;
export const MAX_ATTEMPTS = ATTEMPT_OFFSETS_MS.length;
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export function b64encode(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function b64decode(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  try {
    const s = atob(text);
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** `whsec_` + base64 of 32 random bytes (a secret of 24–64 bytes is accepted). */
export function generateSecret(): string {
  return SECRET_PREFIX + b64encode(crypto.getRandomValues(new Uint8Array(32)));
}

/** The HMAC key bytes of a secret, or null when it is not `whsec_` + base64 of 24–64 bytes. */
export function secretKey(secret: string): Uint8Array | null {
  if (typeof secret !== "string" || !secret.startsWith(SECRET_PREFIX)) return null;
  const key = b64decode(secret.slice(SECRET_PREFIX.length));
  return key && key.length >= 24 && key.length <= 64 ? key : null;
}

/** `v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>`. Errors never include the secret. */
export async function sign(secret: string, msgId: string, timestampSecs: number, body: string | Uint8Array): Promise<string> {
  const key = secretKey(secret);
  if (!key) throw new Error("invalid webhook secret");
  const k = await crypto.subtle.importKey("raw", key as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const enc = new TextEncoder();
  const prefix = enc.encode(`${msgId}.${timestampSecs}.`);
  const bodyBytes = typeof body === "string" ? enc.encode(body) : body;
  const msg = new Uint8Array(prefix.length + bodyBytes.length);
  msg.set(prefix, 0);
  msg.set(bodyBytes, prefix.length);
  const mac = await crypto.subtle.sign("HMAC", k, msg);
  return `v1,${b64encode(new Uint8Array(mac))}`;
}

/** The `webhook-signature` header: one `v1,…` per active secret, space-separated (rotation). */
export async function signatureHeader(secrets: readonly string[], msgId: string, timestampSecs: number, body: string | Uint8Array): Promise<string> {
  if (secrets.length === 0) throw new Error("no active webhook secret");
  return (await Promise.all(secrets.map((s) => sign(s, msgId, timestampSecs, body)))).join(" ");
}

export type AttemptOutcome = "delivered" | "retry" | "failed";

/**
 * Spec §6.7: 2xx delivered; 5xx, timeouts and network errors (status null) retry while attempts
 * remain; 4xx stops; 3xx is a failed attempt (redirects are never followed) and is not retried.
 */
export function classify(status: number | null, attempt: number): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return "delivered";
  const retryable = status === null || status >= 500;
  return retryable && attempt < MAX_ATTEMPTS ? "retry" : "failed";
}

/** When attempt `next` (1-based) starts: its offset from the first attempt, once the previous one has ended. */
export function nextAttemptAt(firstStartMs: number, previousEndMs: number, next: number): number {
  const offset: number = ATTEMPT_OFFSETS_MS[next - 1] ?? 5_000;
  return Math.max(previousEndMs, firstStartMs + offset);
}
