// A live session (docs/live-sessions.md): one program run while the client writes its stdin and
// reads its output as written. Codecell.session() opens it: the WebSocket, `start`, then `accepted`.
import type {
  AcceptedMessage, ResultRecord, SessionClientMessage, SessionErrorMessage, SessionEvent, SessionLimits, SessionRequest, SessionSignal,
} from "./api-types.ts";
import { ConnectionError, SessionError } from "./errors.ts";
import { EventQueue } from "./event-queue.ts";
import { parseServerMessage } from "./session-protocol.ts";
import { StdinWindow, chunkBytes, chunkText, toBase64 } from "./stdin-window.ts";

/** The largest stdin message sent: a longer write goes as several. */
const MAX_MESSAGE_BYTES = 64 * 1024;

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  // Rejections nobody waits for are not unhandled: a session closed before anyone asked.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** The WebSocket closed before it was open: its handshake failed (the HTTP answer is not visible to a WebSocket client). */
export class HandshakeError extends ConnectionError {
  override name = "HandshakeError";
}

export class Session implements AsyncIterable<SessionEvent> {
  /** The submission (GET /api/result/{id}). */
  id = "";
  /** Names the session for a reconnect (GET /api/sessions/{sessionId}). */
  sessionId = "";
  /** How many stdin bytes may be sent and not yet acknowledged. */
  window = 0;
  limits: SessionLimits = { max_duration_ms: 0, idle_timeout_ms: 0, stdin_bytes: 0, output_bytes: 0 };
  /** The record once the run has ended; rejects with SessionError when the session closes without it. */
  readonly result: Promise<ResultRecord>;

  readonly #ws: WebSocket;
  readonly #events = new EventQueue<SessionEvent>();
  readonly #accepted = deferred<void>();
  readonly #result = deferred<ResultRecord>();
  #stdin: StdinWindow | null = null;
  #writes: Promise<void> = Promise.resolve();
  #ended = false;
  #open = false;
  #over: Error | null = null;
  #said: SessionErrorMessage | null = null;

  readonly #sentWithStart: number;

  /** Use Codecell.session(); `sentWithStart`: the bytes of the start's own stdin, counted in the window. */
  constructor(ws: WebSocket, start: SessionRequest, sentWithStart: number) {
    this.#ws = ws;
    this.#sentWithStart = sentWithStart;
    this.result = this.#result.promise;
    ws.addEventListener("open", () => {
      this.#open = true;
      this.#send({ type: "start", ...start });
    });
    ws.addEventListener("message", (event) => this.#onMessage(event.data));
    ws.addEventListener("close", (event) => this.#onClose(event.code, event.reason));
  }

  /** Resolves once the server has accepted the start; rejects with why it did not. */
  get accepted(): Promise<void> {
    return this.#accepted.promise;
  }

  /**
   * Sends `data` as the program's input, cut into messages that fit the window; resolves once the
   * last is sent (the window had room for it). Writes go out in the order called.
   */
  write(data: string | Uint8Array): Promise<void> {
    if (this.#ended) return Promise.reject(new TypeError("write() after end()"));
    const max = Math.min(MAX_MESSAGE_BYTES, this.window);
    const pieces: { message: SessionClientMessage; bytes: number }[] = typeof data === "string"
      ? chunkText(data, max).map((p) => ({ message: { type: "stdin", data: p.text }, bytes: p.bytes }))
      : chunkBytes(data, max).map((b) => ({ message: { type: "stdin", data_b64: toBase64(b) }, bytes: b.length }));
    return this.#queue(async () => {
      for (const piece of pieces) {
        await this.#stdin!.room(piece.bytes);
        this.#stdin!.sending(piece.bytes);
        this.#send(piece.message);
      }
    });
  }

  /** The end of the program's input, after the writes before it. */
  end(): Promise<void> {
    if (this.#ended) return this.#writes;
    this.#ended = true;
    return this.#queue(async () => this.#send({ type: "end" }));
  }

  /** Sends a signal to the program at once, even while a write waits for room; nothing once the session is over. */
  signal(name: SessionSignal): void {
    if (this.#over === null && this.#open) this.#send({ type: "signal", signal: name });
  }

  kill(): void {
    this.signal("SIGKILL");
  }

  /** Closes the WebSocket. The iterator ends; `result` rejects unless the record had come. */
  close(): void {
    this.#ws.close(1000, "closed by the client");
  }

  /** The server's events: stages, output as written, then the result; ends after it or at a close. */
  [Symbol.asyncIterator](): AsyncIterator<SessionEvent> {
    return this.#events[Symbol.asyncIterator]();
  }

  #queue(step: () => Promise<void>): Promise<void> {
    const done = this.#writes.then(step);
    this.#writes = done.catch(() => {});
    return done;
  }

  #send(message: SessionClientMessage): void {
    if (this.#over) throw this.#over;
    this.#ws.send(JSON.stringify(message));
  }

  #onMessage(frame: unknown): void {
    const message = parseServerMessage(frame);
    if (!message) return;
    switch (message.type) {
      case "accepted":
        return this.#onAccepted(message);
      case "stdin_ack":
        return this.#stdin?.ack(message.taken);
      case "error":
        this.#said = message;
        return;
      case "result":
        this.#over = new SessionError(1000, "the session has ended");
        this.#stdin?.fail(this.#over);
        this.#events.push(message);
        this.#events.end();
        return this.#result.resolve(message.record);
      case "stage":
      case "stdout":
      case "stderr":
        return this.#events.push(message);
    }
  }

  #onAccepted(message: AcceptedMessage): void {
    this.id = message.id;
    this.sessionId = message.session_id;
    this.window = message.window;
    this.limits = message.limits;
    this.#stdin = new StdinWindow(message.window, this.#sentWithStart);
    this.#accepted.resolve();
  }

  #onClose(code: number, reason: string): void {
    const said = this.#said;
    const error = !this.#open
      ? new HandshakeError("the WebSocket handshake failed")
      : new SessionError(code, said?.error ?? reason, said?.message, said?.retry_after ?? null);
    this.#over ??= error;
    this.#stdin?.fail(this.#over);
    this.#accepted.reject(error);
    this.#result.reject(error);
    this.#events.end();
  }
}
