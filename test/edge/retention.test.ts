// Records (and their idempotency keys) are removed after the retention period (a few seconds here).
import assert from "node:assert/strict";
import { it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, sleep, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet } from "./harness.ts";

let fleet: Fleet;
let edge: Edge;

before(async () => {
  fleet = await startFleet();
  // 0.00003 days ≈ 2.6 s.
  edge = await startEdge({ vars: { RETENTION_DAYS: "0.00003" } });
  assert.equal((await admin(edge).registerNode(fleet)).status, 201);
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

it("a record is readable during retention and 404 after it; its Idempotency-Key is released too", async () => {
  const c = new Client(edge.base, (await admin(edge).newKey()).key);
  const ik = crypto.randomUUID();
  const r = await c.submit({ language: "py", code: "print('kept')" }, { wait: true, headers: { "idempotency-key": ik } });
  assert.equal(r.status, 200, r.text);
  assert.equal((await c.result(r.json.id)).status, 200);
  const gone = await c.until(r.json.id, (x) => x.status === 404, 15_000);
  assert.equal(gone.json.error, "submission not found");
  await sleep(1_500);
  const again = await c.submit({ language: "py", code: "print('new')" }, { headers: { "idempotency-key": ik } });
  assert.equal(again.status, 202);
  assert.notEqual(again.json.id, r.json.id);
});
