// The codecell API client. Runs wherever fetch, URL, TextDecoder and WebCrypto exist: Node ≥ 20,
// Deno, browsers, Cloudflare Workers.
import { ConnectionError, SyncTimeoutError } from "./errors.ts";
import { expect, send, sleep } from "./http.ts";
import type { RetryOptions, Transport } from "./http.ts";
import { readSse } from "./sse.ts";
import { globalWebSocket, openSession } from "./session-open.ts";
import type { WebSocketFactory } from "./session-open.ts";
import type { Session } from "./session.ts";
import type { SessionRequest } from "./api-types.ts";
import type { Accepted, BatchItem, Health, ResultRecord, ResultsEntry, Runtime, StreamEvent, SubmitRequest } from "./api-types.ts";

export interface CodecellOptions {
  /** The edge's origin, e.g. https://codecell.example.com */
  baseUrl: string;
  apiKey: string;
  /** A fetch to use instead of the global one (a proxy, a test's TLS settings). */
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** Makes a live session's WebSocket instead of the global one (custom TLS, a runtime without one). */
  webSocket?: WebSocketFactory;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface SubmitOptions extends CallOptions {
  /** Hold the request until the record is terminal (200), or throw SyncTimeoutError after the server's hold. */
  wait?: boolean;
  /** A UUID: repeating a submission with the same key returns the first one's record and runs nothing. */
  idempotencyKey?: string;
}

export interface WaitOptions extends CallOptions {
  /** First poll interval in ms (default 250), growing to maxPollIntervalMs (default 2000). */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
}

export interface EventsOptions extends CallOptions {
  /** Resume after this event id. */
  lastEventId?: string;
  /** Reconnections after a dropped stream without progress (default 5). */
  maxReconnects?: number;
}

const isTerminal = (r: { job_status: string }) => r.job_status === "completed" || r.job_status === "error";
const isRecord = (r: Accepted | ResultRecord): r is ResultRecord => "schema_version" in r;

export class Codecell {
  readonly #t: Transport;
  readonly #webSocket: WebSocketFactory;

  constructor(opts: CodecellOptions) {
    if (!opts.baseUrl) throw new TypeError("baseUrl is required");
    if (!opts.apiKey) throw new TypeError("apiKey is required");
    this.#t = {
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      fetch: opts.fetch ?? globalThis.fetch.bind(globalThis),
      retry: { retries: 3, maxDelayMs: 30_000, baseDelayMs: 500, ...opts.retry },
    };
    this.#webSocket = opts.webSocket ?? globalWebSocket;
  }

  /** POST /api/submit: 202 Accepted; with wait, the finished record (or SyncTimeoutError). A repeated idempotency key answers with the existing record. */
  async submit(request: SubmitRequest, opts: SubmitOptions = {}): Promise<Accepted | ResultRecord> {
    const res = await send(this.#t, "POST", "api/submit", {
      query: { wait: opts.wait ? "true" : undefined }, body: request, headers: { "idempotency-key": opts.idempotencyKey }, signal: opts.signal,
    });
    return expect<Accepted | ResultRecord>(res, [200, 202]);
  }

  /** Submits and waits for the terminal record: the server's synchronous hold first, then polling. */
  async run(request: SubmitRequest, opts: WaitOptions & { idempotencyKey?: string } = {}): Promise<ResultRecord> {
    let answer: Accepted | ResultRecord;
    try {
      answer = await this.submit(request, { wait: true, idempotencyKey: opts.idempotencyKey, signal: opts.signal });
    } catch (e) {
      if (e instanceof SyncTimeoutError) return this.wait(e.id, opts);
      throw e;
    }
    return isRecord(answer) && isTerminal(answer) ? answer : this.wait(answer.id, opts);
  }

  /** Polls GET /api/result/{id} until the record is completed or error. */
  async wait(id: string, opts: WaitOptions = {}): Promise<ResultRecord> {
    let interval = opts.pollIntervalMs ?? 250;
    for (;;) {
      const record = await this.result(id, opts);
      if (isTerminal(record)) return record;
      await sleep(interval, opts.signal);
      interval = Math.min(opts.maxPollIntervalMs ?? 2_000, interval * 1.5);
    }
  }

  async result(id: string, opts: CallOptions = {}): Promise<ResultRecord> {
    return expect(await send(this.#t, "GET", `api/result/${encodeURIComponent(id)}`, opts), [200]);
  }

  /** GET /api/results: one entry per id, in order ({id, error} for an unknown one). */
  async results(ids: readonly string[], opts: CallOptions = {}): Promise<ResultsEntry[]> {
    const res = await send(this.#t, "GET", "api/results", { query: { ids: ids.join(",") }, signal: opts.signal });
    const body = await expect<{ results: ResultsEntry[] }>(res, [200]);
    return body.results;
  }

  /** POST /api/submit/batch: one entry per submission, in order ({id, job_status} or {error, message?}). */
  async batch(submissions: readonly SubmitRequest[], opts: CallOptions = {}): Promise<BatchItem[]> {
    const res = await send(this.#t, "POST", "api/submit/batch", { body: { submissions }, signal: opts.signal });
    return (await expect<{ submissions: BatchItem[] }>(res, [202])).submissions;
  }

  /**
   * GET /api/result/{id}/events as an async iterator, ending after `completed`. A dropped
   * connection is resumed with Last-Event-ID, so no event is seen twice or missed.
   */
  async *events(id: string, opts: EventsOptions = {}): AsyncGenerator<StreamEvent> {
    const state = { last: opts.lastEventId, progressed: false };
    for (let failures = 0; ; ) {
      state.progressed = false;
      for await (const event of this.#connectEvents(id, state, opts.signal)) {
        yield event;
        if (event.event === "completed") return;
      }
      failures = state.progressed ? 1 : failures + 1;
      if (failures > (opts.maxReconnects ?? 5)) throw new ConnectionError(`event stream of ${id} dropped ${failures} times without progress`);
      await sleep(Math.min(5_000, 250 * 2 ** (failures - 1)), opts.signal);
    }
  }

  /** One connection of the event stream; ends quietly when the connection fails or drops. */
  async *#connectEvents(id: string, state: { last?: string; progressed: boolean }, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    let res: Response;
    try {
      res = await send(this.#t, "GET", `api/result/${encodeURIComponent(id)}/events`, {
        headers: { accept: "text/event-stream", "last-event-id": state.last }, signal,
      });
    } catch (e) {
      if (e instanceof ConnectionError) return;
      throw e;
    }
    if (res.status !== 200 || !res.body) return void (await expect(res, []));
    const messages = readSse(res.body);
    try {
      for (;;) {
        let next: IteratorResult<{ id: string | null; event: string; data: string }>;
        try {
          next = await messages.next();
        } catch {
          if (signal?.aborted) throw signal.reason;
          return;
        }
        if (next.done) return;
        const message = next.value;
        if (message.id !== null) state.last = message.id;
        state.progressed = true;
        yield { id: message.id ?? "", event: message.event, data: JSON.parse(message.data) } as StreamEvent;
      }
    } finally {
      // Also when the caller stops iterating: the connection is closed.
      await messages.return(undefined).catch(() => {});
    }
  }

  /**
   * GET /api/sessions: a live session (docs/live-sessions.md). Resolves once the server has
   * accepted the start; a refusal rejects with SessionError (its close code and the server's error),
   * a refused key with AuthenticationError.
   */
  session(request: SessionRequest, opts: CallOptions = {}): Promise<Session> {
    return openSession(this.#t, this.#webSocket, request, opts.signal);
  }

  async runtimes(opts: CallOptions = {}): Promise<Runtime[]> {
    return expect(await send(this.#t, "GET", "api/runtimes", opts), [200]);
  }

  async languages(opts: CallOptions = {}): Promise<string[]> {
    return expect(await send(this.#t, "GET", "api/languages", opts), [200]);
  }

  async health(opts: CallOptions = {}): Promise<Health> {
    return expect(await send(this.#t, "GET", "api/health", opts), [200]);
  }
}
