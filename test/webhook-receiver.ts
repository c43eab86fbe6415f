// A local webhook receiver for the tests: every request it gets is recorded as a hit (path, arrival
// time, headers, body) and answered by `respond` (default: 200). The edge reaches it through the
// development-only WEBHOOK_DEV_ALLOW, which `allow` names.
import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Hit {
  path: string;
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  port: number;
  /** `127.0.0.1:<port>`, for WEBHOOK_DEV_ALLOW. */
  allow: string;
  hits: Hit[];
  url(path: string): string;
  /** Closes the server and every connection still open (answers held back included). */
  close(): void;
}

/** `respond` answers one hit (all hits so far, this one last); it may also leave the request open. */
export async function startReceiver(respond: (hit: Hit, res: ServerResponse, hits: Hit[]) => void = (_, res) => void res.writeHead(200).end()): Promise<Receiver> {
  const hits: Hit[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const hit = { path: req.url ?? "", at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      hits.push(hit);
      respond(hit, res, hits);
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port, allow: `127.0.0.1:${port}`, hits,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
