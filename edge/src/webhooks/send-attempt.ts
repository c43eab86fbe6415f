// One webhook attempt: a signed POST of the exact body bytes, redirects not followed, bounded by a
// per-attempt timeout. Shared by the delivery Durable Object and the admin "test" call.
import { signatureHeader } from "./signing.ts";

export interface AttemptResult {
  status: number | null;
  latency_ms: number;
  /** Human-readable failure; never contains a secret or a signature. */
  error: string | null;
}

export async function sendOnce(url: URL, secrets: readonly string[], msgId: string, body: string, timeoutMs: number): Promise<AttemptResult> {
  const ts = Math.floor(Date.now() / 1000);
  let signature: string;
  try {
    signature = await signatureHeader(secrets, msgId, ts, body);
  } catch (e) {
    return { status: null, latency_ms: 0, error: e instanceof Error ? e.message : "signing failed" };
  }
  const started = Date.now();
  try {
    const res = await fetch(url.toString(), {
      method: "POST",
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": "codecell-webhooks/1",
        "webhook-id": msgId,
        "webhook-timestamp": String(ts),
        "webhook-signature": signature,
      },
    });
    const latency_ms = Date.now() - started;
    await res.body?.cancel().catch(() => {});
    const status = res.status;
    let error: string | null = null;
    if (status >= 300 && status < 400) error = `redirect (HTTP ${status}) not followed`;
    else if (status < 200 || status >= 300) error = `HTTP ${status}`;
    return { status, latency_ms, error };
  } catch (e) {
    const latency_ms = Date.now() - started;
    const name = e instanceof Error ? e.name : "";
    const timedOut = name === "TimeoutError" || name === "AbortError" || latency_ms >= timeoutMs;
    const msg = timedOut ? `timeout after ${timeoutMs} ms` : `network error: ${e instanceof Error ? e.message : String(e)}`;
    return { status: null, latency_ms, error: msg.slice(0, 300) };
  }
}
