// No poison pills: a submission whose run nodes lost twice is not dispatched again (it ends as its
// own failure, saying so), and a stack whose node and edge both restart with runs in flight serves
// again, whatever was in flight. Real edge, real node processes killed with SIGKILL.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RunState } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, unary } from "../../proto/grpc-web/client.ts";
import { Client, sleep, startEdge, startFleet, useStack } from "./harness.ts";

const stack = useStack();

/** The node killed and a new process started on the same address, state and credential. */
async function restartNode(): Promise<void> {
  const { fleet } = stack;
  await fleet.kill();
  stack.fleet = await startFleet({ webPort: fleet.webPort, token: fleet.token, stateDir: fleet.stateDir });
}

const slow = { language: "python", code: "import time\nprint('x', flush=True)\ntime.sleep(8)\nprint('y')" };

describe("no poison pills", () => {
  it("a run lost by its node twice is not dispatched a third time: the submission ends error, saying so; the next one runs", async () => {
    const c = new Client(stack.edge.base, (await stack.ops.newKey()).key);
    const r = await c.submit(slow);
    assert.equal(r.status, 202, r.text);
    await c.until(r.json.id, (x) => x.json.job_status === "running", 30_000);
    await restartNode();
    // Dispatched again once the watchdog finds the node has forgotten it; it starts there, and is lost again.
    let second = false;
    for (let i = 0; i < 200 && !second; i++) {
      await sleep(150);
      const known = await unary({ url: stack.fleet.url, token: stack.fleet.token }, fleetMethods.getResult, { submissionId: r.json.id }, 5_000);
      second = known.state === RunState.RUN_STATE_RUNNING;
    }
    assert.ok(second, "the run was dispatched a second time, and started");
    await restartNode();
    const end = await c.terminal(r.json.id, 60_000);
    assert.equal(end.json.job_status, "error", end.text);
    assert.match(end.json.error_message, /lost this submission's run 2 times, so it is not dispatched again/);
    const next = await c.submit({ language: "python", code: "print(3)" }, { wait: true });
    assert.equal(next.json.verdict, "AC", next.text);
  });

  it("node and edge restarted together with runs in flight: the stack serves again and every run in flight ends", async (t) => {
    const k = await stack.ops.newKey();
    let c = new Client(stack.edge.base, k.key);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await c.submit(slow)).json.id);
    await c.until(ids[0]!, (x) => x.json.job_status === "running", 30_000);
    const { persistDir, port, operatorToken } = stack.edge;
    await stack.edge.stop();
    await restartNode();
    stack.edge = await startEdge({ persistDir, port, operatorToken });
    const restarted = Date.now();
    c = new Client(stack.edge.base, k.key);
    const fresh = await c.submit({ language: "python", code: "print('again')" });
    assert.equal(fresh.status, 202, fresh.text);
    const served = await c.terminal(fresh.json.id, 60_000);
    assert.equal(served.json.verdict, "AC", served.text);
    t.diagnostic(`a new submission was answered ${Date.now() - restarted} ms after the restart`);
    for (const id of ids) {
      const end = await c.terminal(id, 60_000);
      assert.ok(["completed", "error"].includes(end.json.job_status), end.text);
      t.diagnostic(`in flight: ${end.json.job_status} ${end.json.error_message ?? end.json.verdict}`);
    }
    t.diagnostic(`every run in flight ended ${Date.now() - restarted} ms after the restart`);
  });
});
