// Webhooks end to end: the real Worker on workerd + a real fleet node (test/edge/harness.ts),
// local HTTP receivers admitted by the development-only WEBHOOK_DEV_ALLOW. Scenarios run
// concurrently against one edge (each in its own project):
//   signed delivery verified by `standardwebhooks`, body = the record's exact bytes; 500, 500, 200 →
//   three attempts ≈ 0 / 1 / 6 s; 400 → one attempt; no answer → timeouts and retries; 302 → one
//   failed attempt, never followed; inactive endpoint skipped; a submission ending in `error` is
//   delivered; rotation → one signature per active secret; the delivery log; the CLI; hostile URLs
//   refused through the admin API; a non-empty allow-list outside development refused loudly; no
//   secret in any log line.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Webhook } from "standardwebhooks";
import { verifyWebhook } from "../../client/src/verify-webhook.ts";
import { Client, ROOT, admin, cleanup, sleep, startEdge, startFleet } from "../edge/harness.ts";
import type { Edge, Fleet } from "../edge/harness.ts";
import { GOOD, HOSTILE } from "./urls.ts";
import { startReceiver, type Hit, type Receiver } from "../webhook-receiver.ts";

const TIMEOUT_MS = 1_500;
let fleet: Fleet;
let edge: Edge;
let prodEdge: Edge;
let receiver: Receiver;
let port = 0;
let hits: Hit[] = [];
const counters = new Map<string, number>();
/** Every secret the edge handed out: none may appear in a log line or a later answer. */
const secrets: string[] = [];

const by = (path: string) => hits.filter((h) => h.path === path);
const url = (path: string) => `http://127.0.0.1:${port}${path}`;

function respond(path: string, res: ServerResponse): void {
  const n = (counters.get(path) ?? 0) + 1;
  counters.set(path, n);
  if (path.endsWith("/hang")) return; // never answers
  if (path.endsWith("/flaky")) return void res.writeHead(n <= 2 ? 500 : 200).end();
  if (path.endsWith("/bad")) return void res.writeHead(400).end();
  if (path.endsWith("/fail")) return void res.writeHead(503).end();
  if (path.endsWith("/redirect")) return void res.writeHead(302, { location: url("/p1/target") }).end();
  res.writeHead(200).end("ok");
}

async function until(what: string, pred: () => boolean, ms = 40_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function headersOf(h: Hit): Record<string, string> {
  return { "webhook-id": String(h.headers["webhook-id"]), "webhook-timestamp": String(h.headers["webhook-timestamp"]), "webhook-signature": String(h.headers["webhook-signature"]) };
}

async function project(name: string): Promise<string> {
  const r = await admin(edge).call("POST", "/admin/projects", { name });
  assert.equal(r.status, 201, r.text);
  return r.json.id as string;
}

async function addEndpoint(pid: string, path: string, extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const r = await admin(edge).call("POST", `/admin/projects/${pid}/webhooks`, { url: url(path), ...extra });
  assert.equal(r.status, 201, r.text);
  assert.match(r.json.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  secrets.push(r.json.secret);
  return { id: r.json.id, secret: r.json.secret };
}

async function keyFor(pid: string): Promise<Client> {
  const k = await admin(edge).newKey(pid);
  return new Client(edge.base, k.key);
}

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(ROOT, "cli", "codecell"), ["--url", edge.base, "--token", edge.operatorToken, "--insecure", ...args], { timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

before(async () => {
  receiver = await startReceiver((hit, res) => respond(hit.path, res));
  ({ port, hits } = receiver);
  // Worker console output (the attempt log lines) is what the no-secret check reads.
  process.env.EDGE_LOG_LEVEL = "log";
  [fleet, prodEdge] = await Promise.all([
    startFleet(),
    // Production with a dev allow-list set: must refuse loudly, not honour or ignore it.
    startEdge({ vars: { ENVIRONMENT: "production", WEBHOOK_DEV_ALLOW: `127.0.0.1:${port}` } }),
  ]);
  edge = await startEdge({ vars: { WEBHOOK_DEV_ALLOW: `127.0.0.1:${port}`, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), MAX_RUN_MS: "4000" } });
  assert.equal((await admin(edge).registerNode(fleet)).status, 201);
});

after(async () => {
  receiver?.close();
  await Promise.all([edge?.stop(), prodEdge?.stop()]);
  await fleet?.stop();
  for (const e of [edge, prodEdge]) if (e) cleanup(e.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

describe("webhook delivery", { concurrency: true }, () => {
  it("delivers, retries and logs per the rules (200, 500×2→200, 400, no answer, 302, inactive)", async () => {
    const pid = await project("deliveries");
    const eps: Record<string, { id: string; secret: string }> = {};
    for (const name of ["ok", "flaky", "bad", "hang", "redirect"]) eps[name] = await addEndpoint(pid, `/p1/${name}`);
    eps.inactive = await addEndpoint(pid, "/p1/inactive", { active: false });
    const listed = await admin(edge).call("GET", `/admin/projects/${pid}/webhooks`);
    assert.equal(listed.json.length, 6);
    assert.ok(!listed.text.includes("whsec_"), "list never shows secrets");

    const c = await keyFor(pid);
    const r = await c.submit({ language: "python", code: "print('hooked')" }, { wait: true });
    assert.equal(r.status, 200, r.text);
    const sub = r.json.id as string;

    // ok: one signed POST whose body is the record's exact bytes.
    await until("the 200 endpoint", () => by("/p1/ok").length === 1);
    const h = by("/p1/ok")[0]!;
    assert.equal(h.headers["webhook-id"], sub);
    assert.equal(h.headers["content-type"], "application/json");
    assert.ok(Math.abs(Number(h.headers["webhook-timestamp"]) - Date.now() / 1000) < 60);
    assert.match(String(h.headers["webhook-signature"]), /^v1,[A-Za-z0-9+/]+=*$/);
    const rec = await c.result(sub);
    assert.equal(h.body, rec.text, "the body is the record, byte for byte");
    assert.deepEqual(new Webhook(eps.ok!.secret).verify(h.body, headersOf(h)), rec.json);
    assert.deepEqual(await verifyWebhook(eps.ok!.secret, h.body, headersOf(h)), rec.json);
    assert.throws(() => new Webhook(eps.bad!.secret).verify(h.body, headersOf(h)));

    await until("all attempts", () => by("/p1/flaky").length >= 3 && by("/p1/hang").length >= 3, 45_000);
    await sleep(2_000); // nothing more may arrive

    // 500, 500, 200 → three attempts at ≈ 0, 1 and 5 s (generous bounds for a loaded machine).
    const flaky = by("/p1/flaky");
    assert.equal(flaky.length, 3);
    const g1 = flaky[1]!.at - flaky[0]!.at;
    const g2 = flaky[2]!.at - flaky[0]!.at;
    assert.ok(g1 >= 800 && g1 < 4_000, `attempt 2 at ${g1} ms`);
    assert.ok(g2 >= 4_500 && g2 < 9_000, `attempt 3 at ${g2} ms`);
    for (const f of flaky) assert.ok(new Webhook(eps.flaky!.secret).verify(f.body, headersOf(f)));
    // 400 → once. No answer → three attempts, each ended by the per-attempt timeout.
    assert.equal(by("/p1/bad").length, 1);
    const hang = by("/p1/hang");
    assert.equal(hang.length, 3);
    // 302 → one failed attempt, the redirect target never called.
    assert.equal(by("/p1/redirect").length, 1);
    assert.equal(by("/p1/target").length, 0);
    assert.equal(by("/p1/inactive").length, 0);
    // A webhook never changes the record.
    assert.equal((await c.result(sub)).text, rec.text);

    // The delivery log: per endpoint, every attempt with time, status, latency, error.
    const log = await admin(edge).call("GET", `/admin/projects/${pid}/webhooks/deliveries/${sub}`);
    assert.equal(log.status, 200, log.text);
    const of = (ep: { id: string }) => log.json.endpoints.find((e: { endpoint_id: string }) => e.endpoint_id === ep.id);
    assert.equal(log.json.endpoints.length, 5, "inactive endpoint is not a target");
    assert.deepEqual(of(eps.ok!).log.map((a: { status: number }) => a.status), [200]);
    assert.equal(of(eps.ok!).state, "delivered");
    assert.deepEqual(of(eps.flaky!).log.map((a: { status: number; outcome: string }) => [a.status, a.outcome]), [[500, "retry"], [500, "retry"], [200, "delivered"]]);
    assert.deepEqual(of(eps.bad!).log.map((a: { status: number; outcome: string }) => [a.status, a.outcome]), [[400, "failed"]]);
    assert.equal(of(eps.hang!).state, "failed");
    assert.deepEqual(of(eps.hang!).log.map((a: { status: null; error: string }) => [a.status, /timeout/.test(a.error)]), [[null, true], [null, true], [null, true]]);
    assert.ok(of(eps.hang!).log.every((a: { latency_ms: number }) => a.latency_ms >= TIMEOUT_MS - 50));
    // A retry never starts before the timed-out attempt ended (the sender's own clock, from its log).
    const hangLog = of(eps.hang!).log as { started_at: string; latency_ms: number }[];
    for (let i = 1; i < hangLog.length; i++) {
      const previousEnd = Date.parse(hangLog[i - 1]!.started_at) + hangLog[i - 1]!.latency_ms;
      assert.ok(Date.parse(hangLog[i]!.started_at) >= previousEnd, `attempt ${i + 1} started before attempt ${i} ended`);
    }
    assert.match(of(eps.redirect!).log[0].error, /redirect/);
    assert.equal(of(eps.redirect!).state, "failed");
    for (const a of of(eps.ok!).log) assert.ok(Date.parse(a.started_at) > 0 && typeof a.latency_ms === "number");
    // Per endpoint too; another project cannot read it.
    const one = await admin(edge).call("GET", `/admin/projects/${pid}/webhooks/${eps.flaky!.id}/deliveries/${sub}`);
    assert.equal(one.json.endpoints.length, 1);
    const other = await project("other");
    assert.equal((await admin(edge).call("GET", `/admin/projects/${other}/webhooks/deliveries/${sub}`)).status, 404);
  });

  it("delivers a submission that ends in error", async () => {
    const pid = await project("errors");
    const ep = await addEndpoint(pid, "/p2/ok");
    const c = await keyFor(pid);
    // MAX_RUN_MS is 4 s on this edge: the watchdog ends this run in `error`.
    const r = await c.submit({ language: "python", code: "import time\ntime.sleep(9)" });
    assert.equal(r.status, 202, r.text);
    const done = await c.terminal(r.json.id, 30_000);
    assert.equal(done.json.job_status, "error");
    await until("the error delivery", () => by("/p2/ok").length === 1);
    const h = by("/p2/ok")[0]!;
    const rec = new Webhook(ep.secret).verify(h.body, headersOf(h)) as { id: string; job_status: string; error_message: string };
    assert.equal(rec.id, r.json.id);
    assert.equal(rec.job_status, "error");
    assert.ok(rec.error_message);
  });

  it("signs with every active secret during a rotation", async () => {
    const pid = await project("rotation");
    const ep = await addEndpoint(pid, "/p3/ok");
    const rot = await admin(edge).call("POST", `/admin/projects/${pid}/webhooks/${ep.id}/rotate`, { grace_seconds: 3600 });
    assert.equal(rot.status, 200, rot.text);
    const fresh = rot.json.secret as string;
    secrets.push(fresh);
    assert.notEqual(fresh, ep.secret);
    assert.equal(rot.json.secrets.length, 2);
    assert.ok(rot.json.previous_secrets_expire_at);
    const shown = await admin(edge).call("GET", `/admin/projects/${pid}/webhooks/${ep.id}`);
    assert.ok(!shown.text.includes("whsec_"));
    const c = await keyFor(pid);
    const r = await c.submit({ language: "python", code: "print(1)" }, { wait: true });
    await until("the rotated delivery", () => by("/p3/ok").length === 1);
    const h = by("/p3/ok")[0]!;
    assert.equal(String(h.headers["webhook-signature"]).split(" ").length, 2);
    // Receivers still on the old secret and those already on the new one both verify.
    assert.equal((new Webhook(ep.secret).verify(h.body, headersOf(h)) as { id: string }).id, r.json.id);
    assert.equal((new Webhook(fresh).verify(h.body, headersOf(h)) as { id: string }).id, r.json.id);
    // grace 0: the old secrets stop signing at once.
    const now = await admin(edge).call("POST", `/admin/projects/${pid}/webhooks/${ep.id}/rotate`, { grace_seconds: 0 });
    secrets.push(now.json.secret);
    assert.equal(now.json.secrets.length, 1);
  });

  it("refuses hostile URLs through the admin API and accepts good ones", async () => {
    const pid = await project("ssrf");
    const ops = admin(edge);
    const results = await Promise.all(HOSTILE.map((u) => ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: u })));
    results.forEach((r, i) => {
      assert.equal(r.status, 400, `${HOSTILE[i]}: ${r.text}`);
      assert.equal(r.json.error, "invalid webhook url");
    });
    // Port not in the allow-list: the local receiver's neighbour is refused.
    assert.equal((await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: `http://127.0.0.1:${port + 1}/h` })).status, 400);
    for (const u of GOOD.slice(0, 6)) {
      const r = await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: u });
      assert.equal(r.status, 201, `${u}: ${r.text}`);
      secrets.push(r.json.secret);
    }
    // Changing the URL is validated the same way.
    const list = await ops.call("GET", `/admin/projects/${pid}/webhooks`);
    const id = list.json[0].id as string;
    const p = await ops.call("PATCH", `/admin/projects/${pid}/webhooks/${id}`, { url: "https://0x7f.1/x" });
    assert.equal(p.status, 400, p.text);
    assert.equal((await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: "https://hooks.example.com/h", secret: "whsec_short" })).status, 400);
    assert.equal((await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: "https://hooks.example.com/h", extra: 1 })).status, 400);
  });

  it("refuses a dev allow-list outside development mode, loudly", async () => {
    const ops = admin(prodEdge);
    const pid = (await ops.call("POST", "/admin/projects", { name: "prod" })).json.id as string;
    for (const u of [url("/x"), "https://hooks.example.com/h"]) {
      const r = await ops.call("POST", `/admin/projects/${pid}/webhooks`, { url: u });
      assert.equal(r.status, 500, r.text);
      assert.equal(r.json.error, "webhook configuration error");
      assert.match(r.json.message, /WEBHOOK_DEV_ALLOW/);
    }
  });

  it("operates endpoints with the CLI (add, list, test, disable, enable, rotate, deliveries, remove)", async () => {
    const pid = await project("cli");
    const add = await cli("--json", "webhooks", "add", "--project", pid, url("/cli/ok"));
    assert.equal(add.code, 0, add.stderr);
    const ep = JSON.parse(add.stdout);
    assert.match(ep.secret, /^whsec_/);
    secrets.push(ep.secret);
    const human = await cli("webhooks", "add", "--project", pid, url("/cli/fail"));
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /only time/);
    const failing = /added endpoint (whk_\S+)/.exec(human.stdout)![1]!;
    secrets.push(/(whsec_\S+)/.exec(human.stdout)![1]!);

    const list = await cli("--json", "webhooks", "list", "--project", pid);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(JSON.parse(list.stdout).length, 2);
    assert.ok(!list.stdout.includes("whsec_"));
    assert.match((await cli("webhooks", "list", "--project", pid)).stdout, /ID\s+URL\s+ACTIVE/);

    const t = await cli("--json", "webhooks", "test", "--project", pid, ep.id);
    assert.equal(t.code, 0, t.stderr);
    const tj = JSON.parse(t.stdout);
    assert.equal(tj.delivered, true);
    const hit = by("/cli/ok").find((x) => x.headers["webhook-id"] === tj.webhook_id)!;
    assert.ok(new Webhook(ep.secret).verify(hit.body, headersOf(hit)));
    const tf = await cli("webhooks", "test", "--project", pid, failing);
    assert.equal(tf.code, 1);
    assert.match(tf.stdout, /failed: HTTP 503/);

    assert.equal((await cli("webhooks", "disable", "--project", pid, ep.id)).code, 0);
    assert.equal(JSON.parse((await cli("--json", "webhooks", "show", "--project", pid, ep.id)).stdout).active, false);
    assert.equal((await cli("webhooks", "enable", "--project", pid, ep.id)).code, 0);
    const rot = await cli("--json", "webhooks", "rotate", "--project", pid, ep.id, "--grace", "60");
    assert.equal(rot.code, 0, rot.stderr);
    secrets.push(JSON.parse(rot.stdout).secret);

    // A submission's delivery log through the CLI.
    const c = await keyFor(pid);
    const r = await c.submit({ language: "python", code: "print(2)" }, { wait: true });
    await until("the CLI endpoint's delivery", () => by("/cli/ok").some((x) => x.headers["webhook-id"] === r.json.id));
    await until("the failing endpoint's retries", () => by("/cli/fail").filter((x) => x.headers["webhook-id"] === r.json.id).length === 3);
    await sleep(500);
    const d = await cli("--json", "webhooks", "deliveries", "--project", pid, r.json.id);
    assert.equal(d.code, 0, d.stderr);
    const states = JSON.parse(d.stdout).endpoints.map((e: { state: string; attempts: number }) => `${e.state}/${e.attempts}`).sort();
    assert.deepEqual(states, ["delivered/1", "failed/3"]);
    const dh = await cli("webhooks", "deliveries", "--project", pid, r.json.id);
    assert.match(dh.stdout, /ATTEMPT\s+STARTED_AT\s+STATUS/);

    // Errors: clear message, non-zero exit.
    const bad = await cli("webhooks", "add", "--project", pid, "https://10.0.0.1/x");
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /invalid webhook url: private address 10\.0\.0\.1/);
    const missing = await cli("webhooks", "list", "--project", "prj_nope");
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /project not found/);
    assert.notEqual((await cli("webhooks", "add", "--project", pid)).code, 0, "the URL is required");
    const help = await cli("webhooks", "--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /rotate/);

    assert.equal((await cli("webhooks", "remove", "--project", pid, ep.id)).code, 0);
    assert.equal((await cli("webhooks", "remove", "--project", pid, ep.id)).code, 3);
  });
});

it("never writes a secret to a log line or an answer after creation", async () => {
  const log = edge.log();
  assert.match(log, /webhook attempt submission=/, "the attempt log lines are captured");
  assert.ok(secrets.length >= 10);
  for (const s of secrets) {
    assert.ok(!log.includes(s), "secret in the edge log");
    assert.ok(!log.includes(s.slice(6, 30)), "secret key material in the edge log");
  }
  assert.ok(!/whsec_/.test(log));
  assert.ok(!/whsec_/.test(prodEdge.log()));
});
