// A small HTTP(S) client for a local stack: self-signed certificates accepted, keep-alive sockets,
// the body parsed as JSON when it is JSON.
import http from "node:http";
import https from "node:https";

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A value to send as JSON. */
  body?: unknown;
  /** Raw bytes (e.g. invalid UTF-8), sent as they are. */
  raw?: Buffer | string;
  /** The client address to connect from (any 127.x.y.z on loopback: another client to the edge). */
  localAddress?: string;
}

// Idle sockets are closed by us (3 s) before a server's usual 5 s keep-alive timeout closes them under us.
const agent = new https.Agent({ keepAlive: true, timeout: 3_000, rejectUnauthorized: false, maxSockets: 64 });

class StaleSocket extends Error {}

/**
 * One request. A keep-alive socket that the server closed while idle can be picked for the next
 * request just as the close arrives; the request then never reached the server, so it is sent
 * again on a new socket (Node's documented `reusedSocket` pattern). So is a request whose body
 * could not be written whole (EPIPE: the server closed the connection first, e.g. after refusing
 * a body over its limit): a server cannot have acted on a request it did not receive whole. Any
 * other error is the caller's.
 */
export function request(base: string, method: string, path: string, opts: RequestOptions = {}): Promise<Res> {
  return requestOnce(base, method, path, opts).catch((e: unknown) => {
    if (e instanceof StaleSocket) return requestOnce(base, method, path, opts);
    throw e;
  });
}

function requestOnce(base: string, method: string, path: string, opts: RequestOptions): Promise<Res> {
  const url = new URL(path, base);
  const headers: Record<string, string> = { ...opts.headers };
  let payload: Buffer | undefined;
  if (opts.raw !== undefined) payload = Buffer.isBuffer(opts.raw) ? opts.raw : Buffer.from(opts.raw);
  else if (opts.body !== undefined) {
    payload = Buffer.from(JSON.stringify(opts.body));
    headers["content-type"] ??= "application/json";
  }
  const secure = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, { method, headers, agent: secure ? agent : undefined, localAddress: opts.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown = undefined;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on("error", reject);
    });
    req.on("error", (e: NodeJS.ErrnoException) => {
      reject((req.reusedSocket && e.code === "ECONNRESET") || e.code === "EPIPE" ? new StaleSocket(e.message) : e);
    });
    req.setTimeout(60_000, () => req.destroy(new Error("request timeout")));
    req.end(payload);
  });
}

/** A client bound to one edge and (optionally) one API key. */
export class Client {
  base: string;
  key: string | null;
  constructor(base: string, key: string | null) {
    this.base = base;
    this.key = key;
  }
  call(method: string, path: string, opts: RequestOptions = {}): Promise<Res> {
    const headers = { ...(this.key ? { "x-api-key": this.key } : {}), ...opts.headers };
    return request(this.base, method, path, { ...opts, headers });
  }
  submit(body: unknown, opts: { wait?: boolean; headers?: Record<string, string> } = {}): Promise<Res> {
    return this.call("POST", `/api/submit${opts.wait ? "?wait=true" : ""}`, { body, headers: opts.headers });
  }
  result(id: string): Promise<Res> {
    return this.call("GET", `/api/result/${id}`);
  }
  async until(id: string, pred: (r: Res) => boolean, timeoutMs = 30_000): Promise<Res> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.result(id);
      if (pred(r)) return r;
      if (Date.now() > deadline) throw new Error(`timed out waiting on ${id}: ${r.status} ${r.text.slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  terminal(id: string, timeoutMs = 30_000): Promise<Res> {
    return this.until(id, (r) => r.status === 200 && (r.json.job_status === "completed" || r.json.job_status === "error"), timeoutMs);
  }
}
