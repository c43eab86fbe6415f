// A raw WebSocket to the test stack's edge (undici's client: the stack's certificate is
// self-signed), for the live-session tests: every message kept, waits by predicate, the close.
import { Agent, WebSocket } from "undici";

const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });

export interface Closed {
  code: number;
  reason: string;
}

export class SessionSocket {
  readonly ws: WebSocket;
  readonly messages: Record<string, any>[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<Closed>;
  #waiters: { test: (m: Record<string, any>) => boolean; resolve: (m: Record<string, any>) => void }[] = [];

  constructor(base: string, path: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(base.replace(/^http/, "ws") + path, { dispatcher, headers } as never);
    this.opened = new Promise((resolve, reject) => {
      this.ws.addEventListener("open", () => resolve());
      this.ws.addEventListener("error", () => reject(new Error("the WebSocket did not open")));
    });
    this.opened.catch(() => {});
    this.closed = new Promise((resolve) => this.ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })));
    this.ws.addEventListener("message", (e) => {
      const m = JSON.parse(String(e.data)) as Record<string, any>;
      this.messages.push(m);
      for (const w of this.#waiters.filter((w) => w.test(m))) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(m);
      }
    });
  }

  /** Sends now, or once open (in the order sent). */
  send(message: Record<string, unknown> | string): void {
    const text = typeof message === "string" ? message : JSON.stringify(message);
    if (this.ws.readyState === 0) void this.opened.then(() => this.ws.send(text), () => {});
    else this.ws.send(text);
  }

  /** The first message (already here or to come) that passes `test`. */
  next(test: (m: Record<string, any>) => boolean): Promise<Record<string, any>> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  /** Text of the output messages so far (native stdout, or Piston's data on stdout). */
  stdout(): string {
    return this.messages.filter((m) => m.type === "stdout" || (m.type === "data" && m.stream === "stdout")).map((m) => m.data).join("");
  }

  /** Waits until stdout contains `text`. */
  async seen(text: string): Promise<void> {
    while (!this.stdout().includes(text)) await this.next((m) => (m.type === "stdout" || m.type === "data") && this.stdout().includes(text));
  }
}
