// A node's platform fault is an outage, not a loss: a real node whose launcher becomes unusable
// (zygote killed, binary made unexecutable) refuses work, submissions accepted meanwhile wait (or
// are put back in the queue when the node refuses them), and all complete when the node heals
// by itself. None ends in `error`.
import assert from "node:assert/strict";
import { chmodSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { LAUNCHER_PATH } from "../../fleet/src/sandbox/launcher.ts";
import { Client, admin, cleanup, sleep, startEdge, startFleet, tempDir } from "./harness.ts";
import type { Edge, Fleet } from "./harness.ts";
import { hostProcessesWith, requireKernel } from "../helpers.ts";

let fleet: Fleet;
let edge: Edge;
let launcher: string;
let client: Client;

/** The node's launcher zygote: the one process started from our private copy of the binary. */
function zygotePid(): number | undefined {
  return hostProcessesWith(`${launcher}\0--serve`)[0];
}

before(async () => {
  if (!requireKernel()) return;
  const dir = tempDir("outage");
  launcher = join(dir, "codecell-launcher");
  copyFileSync(LAUNCHER_PATH, launcher);
  chmodSync(launcher, 0o755);
  fleet = await startFleet({ env: { FLEET_LAUNCHER_PATH: launcher } });
  // A long health TTL: the edge still believes the node ready when the first run reaches it.
  edge = await startEdge({ vars: { HEALTH_TTL_MS: "60000" } });
  const ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  assert.equal(reg.status, 201, reg.text);
  client = new Client(edge.base, (await ops.newKey()).key);
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

describe("a node outage is not a loss", { skip: !requireKernel() }, () => {
  it("runs accepted while the node is out complete once it heals by itself; none ends in error", async () => {
    const warm = await client.submit({ language: "python", code: "print('before')" }, { wait: true });
    assert.equal(warm.json.verdict, "AC", warm.text);

    const zygote = zygotePid();
    assert.ok(zygote, "the node's launcher zygote");
    chmodSync(launcher, 0o000);
    process.kill(zygote, "SIGKILL");

    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await client.submit({ language: "python", code: `print(${i} * 7)` });
      assert.equal(r.status, 202, r.text);
      ids.push(r.json.id);
    }
    await sleep(3_000);
    for (const id of ids) {
      const r = await client.call("GET", `/api/result/${id}`);
      assert.equal(r.json.job_status, "pending", `${id} waits while the node is out: ${r.text}`);
    }
    const ready = await client.call("GET", "/api/health/ready");
    assert.equal(ready.status, 503, ready.text);

    chmodSync(launcher, 0o755);
    for (const [i, id] of ids.entries()) {
      const r = await client.until(id, (res) => res.json.job_status === "completed" || res.json.job_status === "error", 90_000);
      assert.equal(r.json.job_status, "completed", r.text);
      assert.equal(r.json.verdict, "AC", r.text);
      assert.equal(r.json.stdout, `${i * 7}\n`);
    }
    // The edge still believed the node ready (long health TTL), so the node's refusal was met and
    // the run put back in the queue rather than ended.
    assert.match(edge.log(), /refused before it started; requeued/);
  });
});
