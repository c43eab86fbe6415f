// Verifying codecell webhook deliveries (Standard Webhooks scheme). Dependency-free TypeScript that
// runs in Node ≥ 20, Cloudflare Workers, Deno and browsers (WebCrypto only); exported by the SDK
// (@codecell/client). Copy this file into a receiver, or use the `standardwebhooks` npm package — both
// accept the same deliveries.
//
//   const record = await verifyWebhook(process.env.CODECELL_WEBHOOK_SECRET!, rawBody, request.headers);
//
// Pass the raw body exactly as received (string or bytes), never a re-serialised object. During a
// secret rotation pass every secret you still accept: a delivery carries one signature per active
// secret, and one match is enough. De-duplicate by `webhook-id` (the submission id): a retry after
// a lost answer delivers the same record again.

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const v = typeof (headers as Headers).get === "function" ? (headers as Headers).get(name) : (headers as Record<string, string | string[] | undefined>)[name];
  const s = Array.isArray(v) ? v[0] : v;
  if (!s) throw new WebhookVerificationError(`missing ${name} header`);
  return s;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const s = atob(text);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

async function hmacKey(secret: string) {
  const raw = fromBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  if (!raw || raw.length === 0) throw new WebhookVerificationError("invalid signing secret");
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
}

/**
 * Verifies a delivery and returns the parsed result record. Throws WebhookVerificationError when the
 * headers are missing, the timestamp is outside ±toleranceSeconds (default 300: clock skew and replay
 * window), or no `v1` signature matches any of the secrets. Comparison is constant-time
 * (crypto.subtle.verify).
 */
export async function verifyWebhook(
  secrets: string | readonly string[],
  body: string | Uint8Array,
  headers: HeaderSource,
  opts: { toleranceSeconds?: number; nowSeconds?: number } = {},
): Promise<any> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError("invalid webhook-timestamp");
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = opts.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError("webhook-timestamp outside the allowed clock skew");
  const bodyBytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix, 0);
  signed.set(bodyBytes, prefix.length);
  const candidates = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => fromBase64(s.slice(3)))
    .filter((s): s is Uint8Array<ArrayBuffer> => s !== null && s.length === 32);
  for (const secret of typeof secrets === "string" ? [secrets] : secrets) {
    const key = await hmacKey(secret);
    for (const sig of candidates) {
      if (await crypto.subtle.verify("HMAC", key, sig, signed)) {
        return JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body));
      }
    }
  }
  throw new WebhookVerificationError("no matching signature");
}

/**
 * A small in-memory de-duplication window for `webhook-id`s (a real receiver would use its
 * database: e.g. a unique index on the submission id). `seen(id)` is true for a repeat.
 */
export class RecentIds {
  #ids = new Map<string, number>();
  readonly #ttlMs: number;
  constructor(ttlMs = 24 * 3600_000) {
    this.#ttlMs = ttlMs;
  }
  seen(id: string, now = Date.now()): boolean {
    // Insertion order is time order: drop expired ids from the front.
    for (const [k, at] of this.#ids) {
      if (now - at <= this.#ttlMs) break;
      this.#ids.delete(k);
    }
    if (this.#ids.has(id)) return true;
    this.#ids.set(id, now);
    return false;
  }
}
