// A WebSocket upgrade asked for by hand: the HTTP status it was answered with (101 when upgraded)
// and the body of a refusal, which a WebSocket client never sees.
import { request } from "node:https";

export function upgradeStatus(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, {
      rejectUnauthorized: false,
      headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", ...headers },
    }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, body: "", headers: res.headers });
    });
    req.on("error", reject);
    req.end();
  });
}
