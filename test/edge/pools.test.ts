// Scheduling in pools with a real edge (workerd) and two real fleet nodes, one per pool: the
// request's location routes a submission to pool A ("west"); with A's node drained, new
// submissions run on B ("east"); health, readiness and languages aggregate over both pools.
// Pool A's name sorts after B's, so only the route (not the fallback order) sends work to A.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, sleep, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet, Res } from "./harness.ts";

let edge: Edge;
let nodeA: Fleet;
let nodeB: Fleet;
let client: Client;
const SLEEPER = "import time\ntime.sleep(2)\nprint('done')";

before(async () => {
  [nodeA, nodeB] = await Promise.all([startFleet({ env: { FLEET_SLOTS: "1" } }), startFleet({ env: { FLEET_SLOTS: "1" } })]);
  // Every request the platform locates goes to pool "west" first (locally workerd places every request in one data center).
  edge = await startEdge({ vars: { POOL_ROUTES: "colo:*=west", RATE_LIMIT_PER_MIN: "1000" } });
  const ops = admin(edge);
  for (const [fleet, name, pool] of [[nodeA, "node-a", "west"], [nodeB, "node-b", "east"]] as const) {
    const r = await ops.call("POST", "/admin/nodes", { url: fleet.url, token: fleet.token, name, pool });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.pool, pool);
  }
  client = new Client(edge.base, (await ops.newKey()).key);
});

after(async () => {
  await edge?.stop();
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
  if (edge) cleanup(edge.persistDir);
  for (const f of [nodeA, nodeB]) if (f) cleanup(f.stateDir);
});

async function inFlight(): Promise<Record<string, number>> {
  const list = await admin(edge).call("GET", "/admin/nodes");
  return Object.fromEntries(list.json.map((n: { name: string; in_flight: number }) => [n.name, n.in_flight]));
}

/** Submits a run that sleeps, and tells which node took it while it runs. */
async function whereDoesItRun(): Promise<{ node: string; id: string }> {
  const r = await client.submit({ language: "python", code: SLEEPER });
  assert.equal(r.status, 202, r.text);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const busy = Object.entries(await inFlight()).filter(([, n]) => n > 0).map(([name]) => name);
    if (busy.length === 1) return { node: busy[0]!, id: r.json.id };
    assert.ok(Date.now() < deadline, `the run was never assigned (busy: ${busy.join(", ")})`);
    await sleep(50);
  }
}

async function finished(id: string): Promise<Res> {
  const r = await client.terminal(id, 60_000);
  assert.equal(r.json.job_status, "completed", r.text);
  assert.equal(r.json.stdout, "done\n");
  return r;
}

describe("pools", () => {
  it("health, readiness and languages aggregate over both pools; the pools are listed", async () => {
    const health = await client.call("GET", "/api/health");
    assert.equal(health.status, 200, health.text);
    assert.deepEqual({ status: health.json.status, workers: health.json.workers, queue_depth: health.json.queue_depth }, { status: "ok", workers: 2, queue_depth: 0 });
    const ready = await client.call("GET", "/api/health/ready");
    assert.equal(ready.status, 200, ready.text);
    assert.equal(ready.json.ready_nodes, 2);
    const langs = await client.call("GET", "/api/languages");
    assert.ok(langs.json.includes("python"), langs.text);
    const fleet = await admin(edge).call("GET", "/admin/fleet");
    const pools = Object.fromEntries(fleet.json.pools.map((p: { pool: string; nodes: number; ready_nodes: number }) => [p.pool, [p.nodes, p.ready_nodes]]));
    assert.deepEqual(pools, { west: [1, 1], east: [1, 1], default: [0, 0] });
  });

  it("a submission routed to pool A runs on A's node", async () => {
    const run = await whereDoesItRun();
    assert.equal(run.node, "node-a");
    await finished(run.id);
  });

  it("with A's node drained, new submissions run on B", async () => {
    const drained = await admin(edge).call("POST", "/admin/nodes/node-a/drain");
    assert.equal(drained.status, 200, drained.text);
    const run = await whereDoesItRun();
    assert.equal(run.node, "node-b");
    await finished(run.id);
    const health = await client.call("GET", "/api/health");
    assert.equal(health.json.workers, 1, "only B's run slot counts while A is drained");
  });

  it("with every ready node busy, a submission waits in the queue of a pool that has a ready node", async () => {
    const first = await whereDoesItRun();
    assert.equal(first.node, "node-b");
    const second = await client.submit({ language: "python", code: "print('queued')" });
    assert.equal(second.status, 202, second.text);
    const done = await client.terminal(second.json.id, 60_000);
    assert.equal(done.json.stdout, "queued\n", done.text);
    await finished(first.id);
  });
});
