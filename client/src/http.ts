// One request to the API: URL, key, JSON, AbortSignal, and the retry of 429 and 503 answers after
// their Retry-After (plus jitter), within a cap on the wait and on the number of retries.
import { ConnectionError, apiError, retryAfterSeconds } from "./errors.ts";

export interface RetryOptions {
  /** Retries of a 429 or 503 answer (default 3; 0 turns retrying off). */
  retries?: number;
  /** Longest wait before a retry, in ms (default 30 000): a longer Retry-After is not waited for. */
  maxDelayMs?: number;
  /** Wait before the first retry when the answer has no Retry-After (default 500 ms, doubling). */
  baseDelayMs?: number;
}

export interface Transport {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  retry: Required<RetryOptions>;
}

export interface RequestOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The wait before retry number `attempt` (0-based), or null when the server asks for longer than the cap. */
export function retryDelay(headers: Headers, attempt: number, retry: Required<RetryOptions>, random = Math.random): number | null {
  const asked = retryAfterSeconds(headers);
  const base = asked !== null ? asked * 1000 : retry.baseDelayMs * 2 ** attempt;
  if (base > retry.maxDelayMs) return null;
  // Never earlier than asked; spread clients that were refused together over up to a second more.
  return Math.min(retry.maxDelayMs, base + random() * Math.min(1000, base / 4 + 100));
}

export async function send(t: Transport, method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
  const url = new URL(path, t.baseUrl.endsWith("/") ? t.baseUrl : `${t.baseUrl}/`);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = { "x-api-key": t.apiKey, accept: "application/json" };
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] = "application/json";
  }
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await t.fetch(url, { method, headers, body, signal: opts.signal });
    } catch (e) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      throw new ConnectionError(`${method} ${url.pathname}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    if ((res.status !== 429 && res.status !== 503) || attempt >= t.retry.retries) return res;
    const delay = retryDelay(res.headers, attempt, t.retry);
    if (delay === null) return res;
    await res.body?.cancel().catch(() => {});
    await sleep(delay, opts.signal);
  }
}

/** The parsed JSON body of an answer with one of the `ok` statuses; any other answer throws its ApiError. */
export async function expect<T>(res: Response, ok: readonly number[]): Promise<T> {
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = { error: `HTTP ${res.status}`, message: text.slice(0, 200) };
  }
  if (!ok.includes(res.status)) throw apiError(res.status, body, res.headers);
  return body as T;
}
