// The delivery set of a submission is fixed when it ends: an endpoint added (or activated) later
// never receives it, also when the hand-off is done again by the shard's later wake-up (after an
// edge restart). And the first attempt leaves from the hand-off itself: the delivery object starts
// it in the call that fixes its targets, not from a later alarm. Real Worker and node.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, sleep, startEdge, startFleet } from "../edge/harness.ts";
import type { Edge, Fleet } from "../edge/harness.ts";
import { startReceiver, type Hit, type Receiver } from "../webhook-receiver.ts";

/** Long enough that the edge is back, and the endpoint added, before the shard's wake-up. */
const WATCHDOG_MS = 60_000;
let fleet: Fleet;
let edge: Edge;
let receiver: Receiver;
let port = 0;
let hits: Hit[] = [];

const vars = () => ({ WEBHOOK_DEV_ALLOW: `127.0.0.1:${port}`, WATCHDOG_MS: String(WATCHDOG_MS) });

before(async () => {
  receiver = await startReceiver();
  ({ port, hits } = receiver);
  [fleet, edge] = await Promise.all([startFleet(), startEdge({ vars: vars() })]);
  assert.equal((await admin(edge).registerNode(fleet)).status, 201);
});

after(async () => {
  receiver?.close();
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

async function project(): Promise<{ pid: string; c: () => Client }> {
  const p = await admin(edge).call("POST", "/admin/projects", { name: "fixed-targets" });
  assert.equal(p.status, 201, p.text);
  const key = (await admin(edge).newKey(p.json.id)).key;
  return { pid: p.json.id, c: () => new Client(edge.base, key) };
}

async function addEndpoint(pid: string, path: string): Promise<string> {
  const r = await admin(edge).call("POST", `/admin/projects/${pid}/webhooks`, { url: `http://127.0.0.1:${port}${path}` });
  assert.equal(r.status, 201, r.text);
  return r.json.id;
}

describe("webhook targets", () => {
  it("an endpoint added right after a submission ended receives nothing for it, also after the shard's later wake-up", async (t) => {
    const { pid, c } = await project();
    const r = await c().submit({ language: "python", code: "print('before')" });
    assert.equal(r.status, 202, r.text);
    const done = await c().terminal(r.json.id);
    // An eviction right after the end: the hand-off is done again by the shard's wake-up.
    const { persistDir, port: edgePort, operatorToken } = edge;
    await edge.stop();
    edge = await startEdge({ persistDir, port: edgePort, operatorToken, vars: vars() });
    await addEndpoint(pid, "/late");
    t.diagnostic(`endpoint added ${Date.now() - Date.parse(done.json.completed_at)} ms after the end (edge restarted meanwhile)`);
    const wakeAt = Date.parse(done.json.completed_at) + WATCHDOG_MS + 1_000;
    assert.ok(Date.now() < wakeAt, "the endpoint was added before the shard's wake-up (else this test proves nothing)");
    // Past the wake-up (rounded up to a whole second), with room for a delivery to arrive.
    await sleep(wakeAt + 3_000 - Date.now());
    assert.deepEqual(hits.filter((h) => h.body.includes(r.json.id)), [], "the late endpoint received the earlier submission");
    const log = await admin(edge).call("GET", `/admin/projects/${pid}/webhooks/deliveries/${r.json.id}`);
    assert.equal(log.status, 404, log.text);
    // The endpoint itself works: the next submission reaches it.
    const next = await c().submit({ language: "python", code: "print('after')" });
    await c().terminal(next.json.id);
    for (let i = 0; i < 100 && !hits.some((h) => h.body.includes(next.json.id)); i++) await sleep(100);
    assert.ok(hits.some((h) => h.path === "/late" && h.body.includes(next.json.id)), "the next submission was delivered");
  });

  it("the first attempt is started by the hand-off itself (in the same event as the targets are fixed)", async () => {
    const { pid, c } = await project();
    await addEndpoint(pid, "/first");
    const r = await c().submit({ language: "python", code: "print('first')" });
    await c().terminal(r.json.id);
    // An attempt is logged once the endpoint has answered, a moment after the receiver saw it.
    const deliveries = () => admin(edge).call("GET", `/admin/projects/${pid}/webhooks/deliveries/${r.json.id}`);
    let log = await deliveries();
    for (let i = 0; i < 100 && !(log.status === 200 && log.json.endpoints[0]?.log.length > 0); i++) {
      await sleep(100);
      log = await deliveries();
    }
    assert.equal(log.status, 200, log.text);
    const first = log.json.endpoints[0].log[0];
    // Inside one Durable Object event the clock stands still (workerd): an attempt started in the
    // enqueue call carries the delivery's own creation time; one started by a later alarm does not.
    assert.equal(first.started_at, log.json.created_at, `first attempt ${first.started_at}, delivery created ${log.json.created_at}`);
  });
});
