// The URL rules are checked before every attempt, not only when an endpoint is created: an endpoint
// that stops passing them (here: the development allow-list that admitted a loopback receiver is
// gone after an edge restart) is never called again, and the delivery log says why.
import assert from "node:assert/strict";
import { it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, sleep, startEdge, startFleet } from "../edge/harness.ts";
import type { Edge, Fleet } from "../edge/harness.ts";
import { startReceiver, type Receiver } from "../webhook-receiver.ts";

let fleet: Fleet;
let edge: Edge;
let receiver: Receiver;
let port = 0;

before(async () => {
  receiver = await startReceiver((_, res) => void res.writeHead(500).end()); // always a retry, if the rules still allowed one
  port = receiver.port;
  fleet = await startFleet();
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  receiver?.close();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

it("an endpoint that no longer passes the URL rules gets no further attempt", async () => {
  edge = await startEdge({ vars: { WEBHOOK_DEV_ALLOW: `127.0.0.1:${port}` } });
  const ops = admin(edge);
  assert.equal((await ops.registerNode(fleet)).status, 201);
  const pid = (await ops.call("POST", "/admin/projects", { name: "recheck" })).json.id as string;
  assert.equal((await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: `http://127.0.0.1:${port}/r` })).status, 201);
  const r = await new Client(edge.base, (await ops.newKey(pid)).key).submit({ language: "python", code: "print(1)" }, { wait: true });
  assert.equal(r.status, 200, r.text);
  for (const deadline = Date.now() + 20_000; receiver.hits.length < 1 && Date.now() < deadline; ) await sleep(20);
  assert.equal(receiver.hits.length, 1, "the first attempt was allowed");

  // Same state, without the allow-list: loopback is refused again by the rules.
  const { persistDir, port: edgePort, operatorToken } = edge;
  await edge.stop();
  edge = await startEdge({ persistDir, port: edgePort, operatorToken });
  let attempts: { outcome: string; error?: string | null }[] = [];
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(250)) {
    const log = await admin(edge).call("GET", `/admin/projects/${pid}/webhooks/deliveries/${r.json.id}`);
    attempts = log.json?.endpoints?.[0]?.log ?? [];
    if (attempts.length >= 2) break;
  }
  assert.equal(receiver.hits.length, 1, "no attempt reached the endpoint after it stopped passing the rules");
  assert.ok(attempts.length >= 2, JSON.stringify(attempts));
  assert.match(JSON.stringify(attempts.slice(1)), /url refused/);
});
