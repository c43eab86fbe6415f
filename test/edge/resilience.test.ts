// Failure paths against the real Worker and a real fleet node: queue full, a node killed with
// SIGKILL mid-run, readiness without a node, an edge restart mid-run, plain HTTP refused.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client, sleep, startEdge, startFleet, useStack } from "./harness.ts";

// The rate limit is not under test here: polling a slow machine's runs must not meet 429s.
const VARS = { QUEUE_CAPACITY: "1", RATE_LIMIT_PER_MIN: "1000" };

async function client(): Promise<Client> {
  return new Client(stack.edge.base, (await stack.ops.newKey()).key);
}

const stack = useStack({ edge: { vars: VARS } });

describe("resilience", () => {
  it("queue full: 503 {error: queue full} once every slot is busy and the queue is at capacity; a 503 holds none of the key's quota", async () => {
    const k = await stack.ops.newKey();
    const c = new Client(stack.edge.base, k.key);
    const slots = (await c.call("GET", "/api/health")).json.workers as number;
    const code = "import time\ntime.sleep(2)";
    const ids: string[] = [];
    for (let i = 0; i < slots + 1; i++) {
      const r = await c.submit({ language: "py", code });
      assert.equal(r.status, 202, r.text);
      ids.push(r.json.id);
    }
    const h = await c.call("GET", "/api/health");
    assert.equal(h.json.queue_depth, 1);
    const full = await c.submit({ language: "py", code });
    assert.equal(full.status, 503, full.text);
    assert.equal(full.json.error, "queue full");
    assert.match(String(full.headers["content-type"]), /^application\/json/);
    // More refusals than the key's 10 in-flight units: none of them may keep a unit.
    for (let i = 0; i < 10; i++) assert.equal((await c.submit({ language: "py", code })).status, 503);
    // The queued one runs once a slot frees; all complete.
    for (const id of ids) assert.equal((await c.terminal(id, 30_000)).json.verdict, "AC");
    let inFlight = -1;
    for (let i = 0; i < 50 && inFlight !== 0; i++) {
      inFlight = (await stack.ops.call("GET", `/admin/keys/${k.key_id}/usage`)).json.in_flight;
      if (inFlight !== 0) await sleep(200);
    }
    assert.equal(inFlight, 0, "every unit is back once the accepted runs ended");
    assert.equal((await c.submit({ language: "py", code: "print(1)" })).status, 202);
  });

  it("a fleet node killed with SIGKILL mid-run: readiness drops, the run waits for a node and completes on its return, dispatched twice", async () => {
    const c = await client();
    const code = "import time\nprint('x', flush=True)\ntime.sleep(3)\nprint('y')";
    const r = await c.submit({ language: "py", code });
    assert.equal(r.status, 202);
    await c.until(r.json.id, (x) => x.json.job_status === "running", 10_000);
    await stack.fleet.kill();
    let ready = await c.call("GET", "/api/health/ready");
    for (let i = 0; i < 30 && ready.status !== 503; i++) {
      await sleep(200);
      ready = await c.call("GET", "/api/health/ready");
    }
    assert.equal(ready.status, 503, ready.text);
    assert.equal(ready.json.error, "not ready");
    assert.ok(Array.isArray(ready.json.reasons) && ready.json.reasons.length > 0);
    assert.equal((await c.call("GET", "/api/health")).json.workers, 0);
    // Lost, not failed: the run is not terminal while no node can take it.
    await sleep(4_000);
    assert.ok(!["completed", "error"].includes((await c.result(r.json.id)).json.job_status));
    // A new node process on the same address comes back as ready.
    stack.fleet = await startFleet({ webPort: stack.fleet.webPort, token: stack.fleet.token, stateDir: stack.fleet.stateDir });
    let back = await c.call("GET", "/api/health/ready");
    for (let i = 0; i < 20 && back.status !== 200; i++) {
      await sleep(300);
      back = await c.call("GET", "/api/health/ready");
    }
    assert.equal(back.status, 200, back.text);
    const done = await c.terminal(r.json.id, 30_000);
    assert.equal(done.json.job_status, "completed", done.text);
    assert.equal(done.json.stdout, "x\ny\n");
    assert.equal(done.json.attempts, 2, "the record says the run was dispatched twice");
  });

  it("the edge restarted (mid-run): records stay readable and in-flight runs still complete", async () => {
    const k = await stack.ops.newKey();
    let c = new Client(stack.edge.base, k.key);
    const done = await c.submit({ language: "py", code: "print('before')" }, { wait: true });
    assert.equal(done.status, 200, done.text);
    const inflight = await c.submit({ language: "py", code: "import time\ntime.sleep(2)\nprint('across')" });
    assert.equal(inflight.status, 202);
    await c.until(inflight.json.id, (x) => x.json.job_status === "running", 10_000);
    const { persistDir, port, operatorToken } = stack.edge;
    await stack.edge.stop();
    // Plain HTTP is refused (docs/api.md): the same edge served over http answers 403 JSON.
    stack.edge = await startEdge({ persistDir, port, operatorToken, vars: VARS, protocol: "http" });
    const plain = await new Client(stack.edge.base, k.key).call("GET", "/api/health");
    assert.equal(plain.status, 403, plain.text);
    assert.equal(plain.json.error, "https required");
    await stack.edge.stop();
    stack.edge = await startEdge({ persistDir, port, operatorToken, vars: VARS });
    c = new Client(stack.edge.base, k.key);
    const again = await c.result(done.json.id);
    assert.equal(again.status, 200);
    assert.deepEqual(again.json, done.json);
    const recovered = await c.terminal(inflight.json.id, 20_000);
    assert.equal(recovered.json.job_status, "completed", recovered.text);
    assert.equal(recovered.json.stdout, "across\n");
  });
});
