// A node that goes away in the middle of a run: killed outright (SIGKILL of the enrollment command
// and the node, as a host losing power) or cut off while the run's stream is open. The submission
// must still end `completed` on another node with the right verdict, say that it was retried, and
// produce exactly one result (one record, one webhook delivery), even when the first node's late
// answer arrives after its link returns: the edge dispatches the run again (docs/edge.md).
import assert from "node:assert/strict";
import { beforeEach, it } from "node:test";
import { after, before } from "../hooks.ts";
import { sleep, startCluster } from "./harness.ts";
import type { Cluster, ClusterNode } from "./harness.ts";
import { linkDown, linkUp } from "./network.ts";

let c: Cluster;

before(async () => {
  c = await startCluster();
}, { timeout: 240_000 });

after(async () => {
  await c?.teardown();
});

// Every case starts from three running, healthy nodes (a node killed by the previous case is started again).
beforeEach(async () => {
  for (const n of c.nodes) if (!n.agent) await n.start();
  await c.waitNodes((l) => l.length === 3 && l.every((n) => n.state === "healthy"), "3 healthy nodes", 120_000);
}, { timeout: 180_000 });

/** A run long enough to be interrupted: its verdict (RE, exit 3) and output are known in advance. */
const LONG_RUN = {
  language: "python",
  code: "import sys, time\nprint('started', flush=True)\ntime.sleep(3)\nprint(sum(range(1000)))\nsys.exit(3)",
};
const EXPECTED_STDOUT = "started\n499500\n";

/** Submits LONG_RUN and waits until it runs; returns its id and the node running it. */
async function startLongRun(): Promise<{ id: string; node: ClusterNode }> {
  const sub = await c.client.submit(LONG_RUN);
  assert.equal(sub.status, 202, sub.text);
  const id = sub.json.id as string;
  await c.client.until(id, (r) => r.json?.job_status === "running", 60_000);
  const list = await c.waitNodes((l) => l.some((n) => n.in_flight === 1), "the node running it", 10_000);
  const name = list.find((n) => n.in_flight === 1).name;
  return { id, node: c.nodes.find((n) => n.name === name)! };
}

/** Where the record says how many times the run was dispatched (the field's place is the edge's choice). */
function attempts(rec: any): unknown {
  return rec.attempts ?? rec.metadata?.attempts ?? rec.evidence?.attempts;
}

/** The one terminal record, and proof that no second result appears after a while. */
async function exactlyOneResult(id: string, settleMs: number): Promise<any> {
  const rec = (await c.client.terminal(id, 90_000)).json;
  await sleep(settleMs);
  const again = (await c.client.result(id)).json;
  assert.deepEqual(again, rec, "the record changed after it was terminal");
  const deadline = Date.now() + 30_000;
  while (!c.hooks.some((h) => h.submission === id) && Date.now() < deadline) await sleep(100);
  await sleep(2_000);
  const deliveries = c.hooks.filter((h) => h.submission === id);
  assert.equal(deliveries.length, 1, `webhook deliveries for ${id}: ${deliveries.length}`);
  assert.deepEqual(deliveries[0]!.body, rec);
  return rec;
}

function assertRightAnswer(rec: any): void {
  assert.equal(rec.job_status, "completed", `${rec.job_status}: ${rec.error_message}`);
  assert.equal(rec.verdict, "RE");
  assert.equal(rec.exit_code, 3);
  assert.equal(rec.stdout, EXPECTED_STDOUT);
  assert.equal(attempts(rec), 2, "the record says the run was dispatched twice");
}

it("SIGKILL of a node mid-run: the run completes on another node with the right verdict, and one result", { timeout: 300_000 }, async () => {
  const { id, node } = await startLongRun();
  const others = c.nodes.filter((n) => n !== node);
  const runsBefore = await Promise.all(others.map((n) => n.runs()));
  await node.kill();
  const rec = await exactlyOneResult(id, 3_000);
  assertRightAnswer(rec);
  const runsAfter = await Promise.all(others.map((n) => n.runs()));
  assert.equal(runsAfter.reduce((a, b) => a + b, 0) - runsBefore.reduce((a, b) => a + b, 0), 1, "run again on exactly one other node");
});

it("a node cut off in the middle of the stream: the run completes elsewhere, the late answer is discarded, one result", { timeout: 300_000 }, async () => {
  const { id, node } = await startLongRun();
  linkDown(node.host);
  let rec: any;
  try {
    rec = await c.client.terminal(id, 90_000).then((r) => r.json);
  } finally {
    linkUp(node.host);
  }
  // The first node finished the run meanwhile; once it is back, its answer must not become a second result.
  await c.waitNodes((l) => l.find((n) => n.name === node.name)?.state === "healthy", `${node.name} rejoined`, 60_000);
  const final = await exactlyOneResult(id, 5_000);
  assert.deepEqual(final, rec);
  assertRightAnswer(final);
});
