// A Server-Sent Events client for the tests and the benchmark: one HTTPS request, the body parsed
// as it arrives (event by event), comments counted. Closing it destroys the request (a client going away).
import https from "node:https";
import http from "node:http";
import type { IncomingHttpHeaders } from "node:http";

export interface SseEvent {
  id: number;
  event: string;
  data: any;
  /** Client wall clock (ms, sub-ms resolution) when the event arrived. */
  at: number;
}

export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body of a non-200 answer, parsed as JSON when it is. */
  error: any;
  /** The next event, or null once the stream has ended. */
  next(): Promise<SseEvent | null>;
  /** Every remaining event until the stream ends. */
  rest(): Promise<SseEvent[]>;
  comments(): number;
  close(): void;
}

const agent = new https.Agent({ keepAlive: false, rejectUnauthorized: false });

/** One block of the stream (the lines between blank lines): its event, if it names one, and its comments. */
function parseEventBlock(block: string): { event: SseEvent | null; comments: number } {
  const ev: Partial<SseEvent> = {};
  let data = "";
  let comments = 0;
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) comments++;
    else if (line.startsWith("id: ")) ev.id = Number(line.slice(4));
    else if (line.startsWith("event: ")) ev.event = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  const event = ev.event === undefined ? null : { id: ev.id ?? 0, event: ev.event, data: JSON.parse(data), at: performance.timeOrigin + performance.now() };
  return { event, comments };
}

export function openEvents(base: string, path: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const u = new URL(path, base);
  const lib = u.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const options = { method: "GET", headers: { accept: "text/event-stream", ...headers }, agent: u.protocol === "https:" ? agent : undefined };
    const req = lib.request(u, options, (res) => {
      const queue: SseEvent[] = [];
      let ended = false;
      let failed: Error | undefined;
      let wake: (() => void) | undefined;
      let comments = 0;
      let buf = "";
      let body = "";
      res.setEncoding("utf8");
      const status = res.statusCode ?? 0;
      const parseBlock = (block: string) => {
        const parsed = parseEventBlock(block);
        comments += parsed.comments;
        if (parsed.event) queue.push(parsed.event);
      };
      res.on("data", (chunk: string) => {
        if (status !== 200) {
          body += chunk;
          return;
        }
        buf += chunk;
        for (let cut = buf.indexOf("\n\n"); cut >= 0; cut = buf.indexOf("\n\n")) {
          parseBlock(buf.slice(0, cut));
          buf = buf.slice(cut + 2);
        }
        wake?.();
      });
      const finish = (e?: Error) => {
        ended = true;
        failed ??= e;
        wake?.();
      };
      res.on("end", () => finish());
      res.on("error", (e) => finish(e));
      res.on("close", () => finish());
      const next = async (): Promise<SseEvent | null> => {
        for (;;) {
          const ev = queue.shift();
          if (ev) return ev;
          if (ended) {
            if (failed) throw failed;
            return null;
          }
          await new Promise<void>((r) => (wake = r));
          wake = undefined;
        }
      };
      const stream: SseStream = {
        status, headers: res.headers, error: undefined, next,
        async rest() {
          const all: SseEvent[] = [];
          for (let ev = await next(); ev; ev = await next()) all.push(ev);
          return all;
        },
        comments: () => comments,
        close: () => req.destroy(),
      };
      if (status === 200) return resolve(stream);
      res.on("end", () => {
        try {
          stream.error = JSON.parse(body);
        } catch {
          stream.error = body;
        }
        resolve(stream);
      });
    });
    req.on("error", reject);
    req.end();
  });
}
