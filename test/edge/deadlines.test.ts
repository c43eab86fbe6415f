// A run's deadline and its cancellation, through the real edge and a real node: the deadline
// (MAX_RUN_MS) counts from the run's start at the node, not from its dispatch, so a run that waited
// in the node's own queue gets its whole budget; a submission that ends without the node (its
// deadline, an operator, its key deleted) stops its run there (FleetService.Cancel).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RunState } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, unary } from "../../proto/grpc-web/client.ts";
import { Client, sleep, useStack } from "./harness.ts";

const MAX_RUN_MS = 6_000;
// One run slot and one waiting-room place: a second run waits at the node for the first.
const stack = useStack({ fleet: { env: { FLEET_SLOTS: "1" } }, edge: { vars: { MAX_RUN_MS: String(MAX_RUN_MS), NODE_PREFETCH: "1" } } });

/** What the node itself knows of a submission (GetResult over gRPC-Web). */
function atNode(id: string) {
  return unary({ url: stack.fleet.url, token: stack.fleet.token }, fleetMethods.getResult, { submissionId: id }, 5_000);
}

async function nodeCompleted(id: string) {
  for (let i = 0; i < 100; i++) {
    const r = await atNode(id);
    if (r.state === RunState.RUN_STATE_COMPLETED) return r.result!;
    await sleep(100);
  }
  throw new Error(`the node never completed ${id}`);
}

const sleeper = (secs: number) => ({ language: "python", code: `import time\ntime.sleep(${secs})\nprint("done")` });

describe("run deadlines and cancellation", () => {
  it("the deadline counts from the run's start at the node: a run that waited in the node's queue still gets its whole budget", async () => {
    const c = new Client(stack.edge.base, (await stack.ops.newKey()).key);
    // Each runs for two thirds of MAX_RUN_MS; the second waits for the first at the node, so it
    // ends well past MAX_RUN_MS after its dispatch, but within it after its start.
    const secs = (MAX_RUN_MS * 2) / 3 / 1000;
    const first = await c.submit(sleeper(secs));
    const second = await c.submit(sleeper(secs));
    assert.equal(first.status, 202, first.text);
    assert.equal(second.status, 202, second.text);
    const a = await c.terminal(first.json.id, 60_000);
    const b = await c.terminal(second.json.id, 60_000);
    assert.equal(a.json.job_status, "completed", a.text);
    assert.equal(b.json.job_status, "completed", b.text);
    assert.equal(b.json.verdict, "AC", b.text);
    assert.equal(b.json.stdout, "done\n");
  });

  it("a run past its deadline ends the submission as error and is cancelled at the node", async () => {
    const c = new Client(stack.edge.base, (await stack.ops.newKey()).key);
    // 9 s is within the default 10 s wall limit, and past MAX_RUN_MS.
    const r = await c.submit(sleeper(9));
    assert.equal(r.status, 202, r.text);
    const end = await c.terminal(r.json.id, 60_000);
    assert.equal(end.json.job_status, "error", end.text);
    assert.match(end.json.error_message, /did not end within 6 s of its start/);
    const killed = await nodeCompleted(r.json.id);
    assert.ok(killed.evidence?.judgeActions.includes("sigkill_on_cancel"), JSON.stringify(killed.evidence));
    assert.ok(killed.wallTimeSecs < 9, "the program did not run to its own end");
    // The slot is free again: the next run starts and completes.
    const next = await c.submit({ language: "python", code: "print(2)" });
    assert.equal((await c.terminal(next.json.id, 30_000)).json.verdict, "AC");
  });

  it("an operator cancels a submission in flight: error with the reason, the run stops at the node; the answers for ended, unknown and malformed ids", async () => {
    const c = new Client(stack.edge.base, (await stack.ops.newKey()).key);
    const r = await c.submit(sleeper(8));
    assert.equal(r.status, 202, r.text);
    await c.until(r.json.id, (x) => x.json.job_status === "running", 30_000);
    const cancel = await stack.ops.call("POST", `/admin/submissions/${r.json.id}/cancel`, { reason: "runaway" });
    assert.equal(cancel.status, 200, cancel.text);
    assert.deepEqual(cancel.json, { id: r.json.id, cancelled: true });
    const end = await c.result(r.json.id);
    assert.equal(end.json.job_status, "error", end.text);
    assert.match(end.json.error_message, /cancelled by an operator: runaway/);
    const killed = await nodeCompleted(r.json.id);
    assert.ok(killed.evidence?.judgeActions.includes("sigkill_on_cancel"), JSON.stringify(killed.evidence));

    const again = await stack.ops.call("POST", `/admin/submissions/${r.json.id}/cancel`);
    assert.equal(again.status, 409, again.text);
    assert.equal(again.json.job_status, "error");
    const unknown = await stack.ops.call("POST", `/admin/submissions/${crypto.randomUUID()}/cancel`);
    assert.equal(unknown.status, 404, unknown.text);
    const malformed = await stack.ops.call("POST", "/admin/submissions/nope/cancel");
    assert.equal(malformed.status, 400, malformed.text);
    const badBody = await stack.ops.call("POST", `/admin/submissions/${r.json.id}/cancel`, { reason: 7 });
    assert.equal(badBody.status, 400, badBody.text);
  });

  it("deleting a key ends its submissions in flight, and their runs stop at the node", async () => {
    const k = await stack.ops.newKey();
    const c = new Client(stack.edge.base, k.key);
    const r = await c.submit(sleeper(8));
    assert.equal(r.status, 202, r.text);
    await c.until(r.json.id, (x) => x.json.job_status === "running", 30_000);
    const del = await stack.ops.call("DELETE", `/admin/keys/${k.key_id}`);
    assert.equal(del.status, 200, del.text);
    assert.equal(del.json.cancelled_submissions, 1);
    // Another key of the same project reads the record.
    const reader = new Client(stack.edge.base, (await stack.ops.newKey(k.project_id)).key);
    const end = await reader.result(r.json.id);
    assert.equal(end.json.job_status, "error", end.text);
    assert.match(end.json.error_message, /API key was revoked/);
    const killed = await nodeCompleted(r.json.id);
    assert.ok(killed.evidence?.judgeActions.includes("sigkill_on_cancel"), JSON.stringify(killed.evidence));
  });
});
