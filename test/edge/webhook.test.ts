// Project webhooks (docs/api.md) end to end: signed delivery of the record, retries on 5xx at 0/1/5 s,
// no retry on 4xx, SSRF rules at registration. The receiver is a local http server admitted by the
// development-only WEBHOOK_DEV_ALLOW variable.
import assert from "node:assert/strict";
import { it } from "node:test";
import { after, before } from "../hooks.ts";
import { Webhook } from "standardwebhooks";
import { Client, admin, cleanup, sleep, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet } from "./harness.ts";
import { startReceiver, type Hit, type Receiver } from "../webhook-receiver.ts";

let fleet: Fleet;
let edge: Edge;
let receiver: Receiver;
let port = 0;
let hits: Hit[] = [];
const flakyCount = { n: 0 };

before(async () => {
  receiver = await startReceiver((hit, res) => {
    const status = hit.path === "/ok" ? 200 : hit.path === "/bad" ? 400 : hit.path === "/flaky" ? (++flakyCount.n <= 2 ? 503 : 204) : 503;
    res.writeHead(status).end();
  });
  ({ port, hits } = receiver);
  fleet = await startFleet();
  edge = await startEdge({ vars: { WEBHOOK_DEV_ALLOW: `127.0.0.1:${port}` } });
  assert.equal((await admin(edge).registerNode(fleet)).status, 201);
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  receiver?.close();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

it("delivers the signed record to every active endpoint, retrying 5xx at 0/1/5 s and never 4xx", async () => {
  const ops = admin(edge);
  const p = await ops.call("POST", "/admin/projects", { name: "hooks" });
  const pid = p.json.id as string;
  const secrets: Record<string, string> = {};
  for (const path of ["ok", "flaky", "bad", "down"]) {
    const r = await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: `http://127.0.0.1:${port}/${path}` });
    assert.equal(r.status, 201, r.text);
    assert.match(r.json.secret, /^whsec_/);
    secrets[path] = r.json.secret;
  }
  assert.equal((await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: `http://127.0.0.1:${port}/inactive`, active: false })).status, 201);
  const listed = await ops.call("GET", `/admin/projects/${pid}/webhooks`);
  assert.equal(listed.json.length, 5);
  assert.ok(!listed.text.includes("whsec_"));

  const k = await ops.call("POST", `/admin/projects/${pid}/keys`, {});
  const c = new Client(edge.base, k.json.key);
  const r = await c.submit({ language: "py", code: "print('hooked')" }, { wait: true });
  assert.equal(r.status, 200, r.text);
  const by = (path: string) => hits.filter((h) => h.path === path);
  // Attempts land at ~0, ~1 and ~6 s; allow for a loaded machine, then give stragglers a moment.
  const deadline = Date.now() + 30_000;
  while ((by("/flaky").length < 3 || by("/down").length < 3) && Date.now() < deadline) await sleep(200);
  await sleep(1_500);

  const ok = by("/ok");
  assert.equal(ok.length, 1);
  const h = ok[0]!;
  assert.equal(h.headers["webhook-id"], r.json.id);
  assert.equal(h.headers["content-type"], "application/json");
  const verified = new Webhook(secrets.ok!).verify(h.body, {
    "webhook-id": String(h.headers["webhook-id"]), "webhook-timestamp": String(h.headers["webhook-timestamp"]),
    "webhook-signature": String(h.headers["webhook-signature"]),
  });
  assert.deepEqual(verified, (await c.result(r.json.id)).json);
  assert.throws(() => new Webhook(secrets.bad!).verify(h.body, h.headers as Record<string, string>));

  const flaky = by("/flaky");
  assert.equal(flaky.length, 3);
  assert.ok(flaky[1]!.at - flaky[0]!.at >= 900, `gap 1: ${flaky[1]!.at - flaky[0]!.at}`);
  assert.ok(flaky[2]!.at - flaky[0]!.at >= 4_500, `attempt 3 at ${flaky[2]!.at - flaky[0]!.at} ms`);
  assert.equal(by("/bad").length, 1);
  assert.equal(by("/down").length, 3);
  assert.equal(by("/inactive").length, 0);
  // Delivery never changes the record.
  assert.equal((await c.result(r.json.id)).json.job_status, "completed");
});

it("refuses non-https, private, link-local and loopback webhook URLs", async () => {
  const ops = admin(edge);
  const pid = (await ops.call("POST", "/admin/projects", { name: "ssrf" })).json.id as string;
  for (const url of ["http://example.com/h", "https://10.0.0.1/h", "https://169.254.169.254/", "https://127.0.0.1/h", "https://localhost/h", `http://127.0.0.1:${port + 1}/h`]) {
    const r = await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url });
    assert.equal(r.status, 400, `${url}: ${r.text}`);
    assert.equal(r.json.error, "invalid webhook url");
  }
  assert.equal((await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: "https://hooks.example.com/h", secret: "whsec_short" })).status, 400);
});
