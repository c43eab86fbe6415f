// The SDK's event-stream reader and its resume, against a local HTTP server that speaks SSE the
// way GET /api/result/{id}/events does and drops the first connection mid-message. (The real
// endpoint is exercised in sdk.test.ts once it is routed.) Also the retry wait rule.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Codecell, ConnectionError } from "../../client/src/index.ts";
import type { StreamEvent } from "../../client/src/index.ts";
import { retryDelay } from "../../client/src/http.ts";
import { readSse } from "../../client/src/sse.ts";

const ID = "0b9d3c4e-1111-4222-8333-444455556666";
const seenHeaders: { key: string | undefined; last: string | undefined }[] = [];
let mode: "drop-once" | "always-drop" = "drop-once";
let base = "";
let server: ReturnType<typeof createServer>;

const message = (id: number, event: string, data: unknown) => `id: ${id}\r\nevent: ${event}\r\ndata: ${JSON.stringify(data)}\r\n\r\n`;

function handle(req: IncomingMessage, res: ServerResponse): void {
  const last = req.headers["last-event-id"] as string | undefined;
  seenHeaders.push({ key: req.headers["x-api-key"] as string | undefined, last });
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write(": comment lines are ignored\n\n");
  if (mode === "always-drop") {
    // Accepts the connection, sends nothing new, drops it.
    setTimeout(() => res.destroy(), 20);
    return;
  }
  if (last === undefined) {
    res.write(message(1, "queued", { position: 0 }));
    // A message split across writes, its CRLF split too.
    res.write(`id: 2\r\nevent: stdout\r\ndata: {"data":"a\\n"}\r`);
    setTimeout(() => {
      res.write("\n\r\n");
      res.write('id: 3\nevent: stdout\ndata: {"da'); // dropped before its end: never delivered
      setTimeout(() => res.destroy(), 20);
    }, 20);
    return;
  }
  assert.equal(last, "2");
  res.write(message(3, "stdout", { data: "b\n" }));
  res.end(message(4, "completed", { id: ID, stdout: "a\nb\n" }));
}

before(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

describe("SDK event stream", () => {
  it("a dropped connection is resumed with Last-Event-ID: every event once, in order, ending at completed", async () => {
    const cc = new Codecell({ baseUrl: base, apiKey: "k1" });
    const events: StreamEvent[] = [];
    for await (const e of cc.events(ID)) events.push(e);
    assert.deepEqual(events.map((e) => [e.id, e.event]), [["1", "queued"], ["2", "stdout"], ["3", "stdout"], ["4", "completed"]]);
    assert.deepEqual(events[1]!.data, { data: "a\n" });
    assert.deepEqual(seenHeaders, [{ key: "k1", last: undefined }, { key: "k1", last: "2" }]);
  });

  it("gives up with ConnectionError when reconnecting makes no progress", async () => {
    mode = "always-drop";
    const cc = new Codecell({ baseUrl: base, apiKey: "k2" });
    const events: string[] = [];
    const before = seenHeaders.length;
    await assert.rejects(async () => {
      for await (const e of cc.events(ID, { lastEventId: "2", maxReconnects: 1 })) events.push(e.id);
    }, ConnectionError);
    assert.deepEqual(events, []);
    assert.deepEqual(seenHeaders.slice(before), [{ key: "k2", last: "2" }, { key: "k2", last: "2" }]);
    mode = "drop-once";
  });

  it("readSse: multi-line data, default event name, a field without a value", async () => {
    const text = "data: one\ndata: two\n\nevent\ndata\n\n";
    const body = new Blob([text]).stream();
    const got = [];
    for await (const m of readSse(body)) got.push(m);
    assert.deepEqual(got, [{ id: null, event: "message", data: "one\ntwo" }, { id: null, event: "message", data: "" }]);
  });
});

describe("retry wait", () => {
  const retry = { retries: 3, maxDelayMs: 10_000, baseDelayMs: 500 };
  it("waits at least Retry-After, at most a second more; refuses to wait beyond the cap", () => {
    for (const r of [0, 0.5, 0.999]) {
      const d = retryDelay(new Headers({ "retry-after": "2" }), 0, retry, () => r)!;
      assert.ok(d >= 2000 && d <= 3000, String(d));
    }
    assert.equal(retryDelay(new Headers({ "retry-after": "11" }), 0, retry), null);
    const date = new Date(Date.now() + 4_000).toUTCString();
    const d = retryDelay(new Headers({ "retry-after": date }), 0, retry, () => 0)!;
    assert.ok(d >= 3000 && d <= 5000, String(d));
    assert.equal(retryDelay(new Headers(), 2, retry, () => 0), 2000);
  });
});

describe("SDK event stream: stopping early", () => {
  it("breaking out of the loop closes the connection", async () => {
    const closed = new Promise<void>((resolve) => {
      const s = createServer((req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(message(1, "queued", { position: 3 }));
        req.socket.on("close", () => {
          s.close();
          resolve();
        });
      });
      s.listen(0, "127.0.0.1", async () => {
        const cc = new Codecell({ baseUrl: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, apiKey: "k" });
        for await (const e of cc.events(ID)) {
          assert.equal(e.event, "queued");
          break;
        }
      });
    });
    await closed;
  });
});
