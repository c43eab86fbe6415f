// Webhook attempts survive an edge restart: the schedule lives in the WebhookDeliveryDO's storage
// and its alarm. The edge is stopped while the first attempt is in flight (the receiver holds it),
// restarted on the same state, and the remaining attempts still arrive; the log records the
// interrupted attempt.
import assert from "node:assert/strict";
import { it } from "node:test";
import { after, before } from "../hooks.ts";
import { Webhook } from "standardwebhooks";
import { Client, admin, cleanup, sleep, startEdge, startFleet } from "../edge/harness.ts";
import type { Edge, Fleet } from "../edge/harness.ts";
import { startReceiver, type Hit, type Receiver } from "../webhook-receiver.ts";

let fleet: Fleet;
let edge: Edge;
let receiver: Receiver;
let port = 0;
let hits: Hit[] = [];

before(async () => {
  // 1st: held open (the edge dies meanwhile); 2nd: 500; 3rd: 200.
  receiver = await startReceiver((_, res, all) => {
    if (all.length === 2) res.writeHead(500).end();
    else if (all.length >= 3) res.writeHead(200).end();
  });
  ({ port, hits } = receiver);
  fleet = await startFleet();
});

after(async () => {
  receiver?.close();
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

it("keeps the attempt schedule across an edge restart", async () => {
  const vars = { WEBHOOK_DEV_ALLOW: `127.0.0.1:${port}`, WEBHOOK_TIMEOUT_MS: "4000" };
  edge = await startEdge({ vars });
  const ops = admin(edge);
  assert.equal((await ops.registerNode(fleet)).status, 201);
  const pid = (await ops.call("POST", "/admin/projects", { name: "restart" })).json.id as string;
  const ep = await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: `http://127.0.0.1:${port}/r` });
  const k = await ops.newKey(pid);
  const r = await new Client(edge.base, k.key).submit({ language: "python", code: "print('restart')" }, { wait: true });
  assert.equal(r.status, 200, r.text);
  const deadline = Date.now() + 20_000;
  while (hits.length < 1 && Date.now() < deadline) await sleep(50);
  assert.equal(hits.length, 1);

  // Kill the edge mid-attempt and bring it back on the same state and port.
  const { persistDir, port: edgePort, operatorToken } = edge;
  await edge.stop();
  edge = await startEdge({ vars, persistDir, port: edgePort, operatorToken });
  const until = Date.now() + 40_000;
  while (hits.length < 3 && Date.now() < until) await sleep(100);
  assert.equal(hits.length, 3, "the remaining attempts arrived after the restart");
  for (const h of hits) {
    assert.equal(h.headers["webhook-id"], r.json.id);
    assert.ok(new Webhook(ep.json.secret).verify(h.body, { "webhook-id": String(h.headers["webhook-id"]), "webhook-timestamp": String(h.headers["webhook-timestamp"]), "webhook-signature": String(h.headers["webhook-signature"]) }));
  }
  await sleep(1_000);
  const log = await admin(edge).call("GET", `/admin/projects/${pid}/webhooks/deliveries/${r.json.id}`);
  assert.equal(log.status, 200, log.text);
  const attempts = log.json.endpoints[0].log.map((a: { outcome: string; status: number | null }) => `${a.outcome}:${a.status}`);
  assert.deepEqual(attempts, ["interrupted:null", "retry:500", "delivered:200"]);
  assert.equal(log.json.endpoints[0].state, "delivered");
});
