// Webhook signing (docs/api.md): Standard Webhooks secrets and signatures. Pure (WebCrypto only):
// runs in the Worker and in Node. The attempt schedule is attempt-policy.ts; URL rules endpoint-url.ts.

export const SECRET_PREFIX = "whsec_";

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
