// The operator CLI against a real edge (workerd) and fleet node: every command, --json and
// human output, --help everywhere, exit codes, and that revoked or rotated-away keys stop at once.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, request, sleep, startEdge, startFleet } from "../edge/harness.ts";
import type { Edge, Fleet } from "../edge/harness.ts";
import { cli, cliJson } from "./cli-helpers.ts";

let edge: Edge;
let fleet: Fleet;

before(async () => {
  fleet = await startFleet({ env: { FLEET_SLOTS: "2" } });
  edge = await startEdge({ vars: { RATE_LIMIT_PER_MIN: "12", SYNC_HOLD_MS: "20000" } });
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

describe("operator CLI", () => {
  let projectId = "";

  it("--help works for the program, every group and every command", async () => {
    const commands = [
      [], ["keys"], ["keys", "create"], ["keys", "list"], ["keys", "revoke"], ["keys", "rotate"], ["keys", "show"],
      ["projects"], ["projects", "create"], ["projects", "list"], ["nodes"], ["nodes", "add"], ["nodes", "list"],
      ["nodes", "drain"], ["nodes", "remove"], ["nodes", "token"], ["nodes", "token", "create"], ["usage"], ["run"],
      ["submissions"], ["submissions", "cancel"],
    ];
    await Promise.all(commands.map(async (c) => {
      const r = await cli(null, [...c, "--help"]);
      assert.equal(r.code, 0, `${c.join(" ")} --help: ${r.stderr}`);
      assert.match(r.stdout, /Usage: codecell/);
    }));
  });

  it("nodes add registers a node (credential from the environment) and nodes list shows it healthy", async () => {
    const r = await cli(edge, ["--insecure", "--json", "nodes", "add", fleet.url, "--name", "cli-node"], { FLEET_TOKEN: fleet.token });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.name, "cli-node");
    assert.equal(r.json.state, "healthy");
    const l = await cliJson(edge, "nodes", "list");
    assert.equal(l.code, 0, l.stderr);
    assert.equal(l.json.length, 1);
    assert.equal(l.json[0].slots, 2);
    assert.ok(l.json[0].languages.some((x: { name: string }) => x.name === "python"));
    assert.ok(!JSON.stringify(l.json).includes(fleet.token), "never prints the fleet credential");
    const human = await cli(edge, ["--insecure", "nodes", "list"]);
    assert.match(human.stdout, /cli-node\s+registered\s+healthy/);
  });

  it("projects create and list", async () => {
    const c = await cliJson(edge, "projects", "create", "acme", "--account", "acct_acme");
    assert.equal(c.code, 0, c.stderr);
    assert.match(c.json.id, /^prj_/);
    projectId = c.json.id;
    const l = await cliJson(edge, "projects", "list");
    assert.ok(l.json.some((p: { id: string }) => p.id === projectId));
    const human = await cli(edge, ["--insecure", "projects", "list"]);
    assert.match(human.stdout, /acme/);
  });

  it("keys create prints the key once; keys list never shows it", async () => {
    const c = await cliJson(edge, "keys", "create", "--project", projectId, "--name", "ci");
    assert.equal(c.code, 0, c.stderr);
    assert.match(c.json.key, /^sk_live_[0-9A-Za-z]{32}$/);
    const human = await cli(edge, ["--insecure", "keys", "create", "--project", projectId]);
    assert.match(human.stdout, /only time the key is shown/);
    const l = await cliJson(edge, "keys", "list", "--project", projectId);
    assert.equal(l.json.length, 2);
    assert.ok(!l.stdout.includes(c.json.key));
    assert.ok(l.json.every((k: Record<string, unknown>) => !("key" in k)));
    const works = await new Client(edge.base, c.json.key).call("GET", "/api/health");
    assert.equal(works.status, 200);
  });

  it("a revoked key stops working at once", async () => {
    const k = await cliJson(edge, "keys", "create", "--project", projectId);
    const c = new Client(edge.base, k.json.key);
    assert.equal((await c.call("GET", "/api/health")).status, 200); // warms the Worker's key cache
    const r = await cliJson(edge, "keys", "revoke", k.json.key_id);
    assert.equal(r.code, 0, r.stderr);
    const after = await c.call("GET", "/api/health");
    assert.equal(after.status, 401);
    assert.equal((await c.submit({ language: "python", code: "print(1)" })).status, 401);
    const again = await cliJson(edge, "keys", "revoke", k.json.key_id);
    assert.equal(again.code, 3, "revoking an unknown key: exit 3 (not found)");
    assert.match(again.stderr, /key not found/);
  });

  it("submissions cancel ends a submission in flight with the reason; a second cancel is a conflict (exit code, message)", async () => {
    const k = await cliJson(edge, "keys", "create", "--project", projectId);
    const c = new Client(edge.base, k.json.key);
    const s = await c.submit({ language: "python", code: "import time\ntime.sleep(8)" });
    assert.equal(s.status, 202, s.text);
    await c.until(s.json.id, (x) => x.json.job_status === "running", 30_000);
    const r = await cliJson(edge, "submissions", "cancel", s.json.id, "--reason", "stuck");
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, { id: s.json.id, cancelled: true });
    const rec = await c.result(s.json.id);
    assert.equal(rec.json.job_status, "error");
    assert.match(rec.json.error_message, /cancelled by an operator: stuck/);
    const again = await cli(edge, ["--insecure", "submissions", "cancel", s.json.id]);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /already ended/);
  });

  it("a rotated key's old value stops working at once; the new one works", async () => {
    const k = await cliJson(edge, "keys", "create", "--project", projectId, "--name", "rot");
    const old = new Client(edge.base, k.json.key);
    assert.equal((await old.call("GET", "/api/health")).status, 200);
    const r = await cliJson(edge, "keys", "rotate", k.json.key_id);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.key_id, k.json.key_id);
    assert.notEqual(r.json.key, k.json.key);
    assert.equal((await old.call("GET", "/api/health")).status, 401);
    assert.equal((await old.submit({ language: "python", code: "print(1)" })).status, 401);
    const fresh = new Client(edge.base, r.json.key);
    const sub = await fresh.submit({ language: "python", code: "print('rotated')" }, { wait: true });
    assert.equal(sub.status, 200, sub.text);
    assert.equal(sub.json.stdout, "rotated\n");
    const show = await cliJson(edge, "keys", "show", k.json.key_id);
    assert.equal(show.json.fingerprint, r.json.fingerprint);
  });

  it("usage shows requests in the last minute, 429s, in flight vs quota and totals", async () => {
    const k = await cliJson(edge, "keys", "create", "--project", projectId, "--name", "busy");
    const c = new Client(edge.base, k.json.key);
    // A second key of the project reads the runs' state without counting against the first.
    const reader = new Client(edge.base, (await cliJson(edge, "keys", "create", "--project", projectId, "--name", "reader")).json.key);
    // Two long runs in flight (until their wall limit), then requests until the (test) limit of 12/min answers 429.
    const long = "import time\ntime.sleep(60)\n";
    const a = await c.submit({ language: "python", code: long });
    const b = await c.submit({ language: "python", code: long });
    assert.equal(a.status, 202);
    assert.equal(b.status, 202);
    let limited = 0;
    for (let i = 0; i < 12; i++) if ((await c.call("GET", "/api/health")).status === 429) limited++;
    assert.ok(limited > 0);
    // However slow the machine, in flight is what the runs' states say before and after the call.
    const ended = async () => (await Promise.all([a, b].map((r) => reader.result(r.json.id)))).filter((r) => ["completed", "error"].includes(r.json.job_status)).length;
    const endedBefore = await ended();
    const u = await cliJson(edge, "usage", k.json.key_id);
    const endedAfter = await ended();
    assert.equal(u.code, 0, u.stderr);
    assert.equal(u.json.requests_last_minute, 12);
    assert.equal(u.json.rate_limit_per_min, 12);
    assert.equal(u.json.rejected_429, limited);
    assert.ok(u.json.in_flight <= 2 - endedBefore && u.json.in_flight >= 2 - endedAfter, `in flight ${u.json.in_flight}, runs ended ${endedBefore} → ${endedAfter}`);
    assert.equal(u.json.max_in_flight, 10);
    assert.equal(u.json.totals.submissions, 2);
    const all = await cliJson(edge, "usage", "--project", projectId);
    assert.ok(all.json.some((x: { key_id: string }) => x.key_id === k.json.key_id));
    const human = await cli(edge, ["--insecure", "usage", "--project", projectId]);
    assert.match(human.stdout, /REQ\/MIN/);
    assert.match(human.stdout, /\b[0-2]\/10\b/);
  });

  it("nodes token create / list / revoke; a revoked enrollment token cannot enroll", async () => {
    const plain = await cli(edge, ["--insecure", "nodes", "token", "create", "--name", "rack-1", "--print-token"]);
    assert.equal(plain.code, 0, plain.stderr);
    const token = plain.stdout.trim();
    assert.match(token, /^cce_[0-9A-Za-z]{40}$/);
    const l = await cliJson(edge, "nodes", "token", "list");
    const row = l.json.find((t: { name: string }) => t.name === "rack-1");
    assert.ok(row);
    assert.ok(!l.stdout.includes(token));
    const enroll = (t: string) => request(edge.base, "POST", "/fleet/enroll", {
      headers: { authorization: `Bearer ${t}` }, body: { url: fleet.url, token: fleet.token, name: "via-token" },
    });
    assert.equal((await enroll("cce_wrong")).status, 401);
    const r = await cliJson(edge, "nodes", "token", "revoke", row.id);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await enroll(token)).status, 401);
    assert.equal((await cliJson(edge, "nodes", "token", "revoke", row.id)).code, 3);
  });

  it("clear errors and exit codes", async () => {
    const bad = await cli(edge, ["--insecure", "--json", "projects", "list"], { CODECELL_OPERATOR_TOKEN: "wrong-token-wrong-token" });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /codecell: .*401.*operator token/);
    const missing = await cli(edge, ["--insecure", "keys", "create"]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /required option/);
    const unknownProject = await cliJson(edge, "keys", "create", "--project", "prj_nope");
    assert.equal(unknownProject.code, 3);
    assert.match(unknownProject.stderr, /project not found/);
    const down = await cli(null, ["--url", "https://127.0.0.1:9", "--token", "x".repeat(20), "projects", "list"]);
    assert.equal(down.code, 4);
    assert.match(down.stderr, /cannot reach/);
    const noFleetToken = await cli(edge, ["--insecure", "nodes", "add", "http://127.0.0.1:1"], { FLEET_TOKEN: "" });
    assert.equal(noFleetToken.code, 1);
    assert.match(noFleetToken.stderr, /FLEET_TOKEN/);
  });

  it("nodes drain takes the node out of rotation while its run finishes; nodes remove forgets it", async () => {
    const k = await cliJson(edge, "keys", "create", "--project", projectId);
    const c = new Client(edge.base, k.json.key);
    // A synchronous submit (one request: this test's keys have a small rate limit) held while we drain.
    const run = c.submit({ language: "python", code: "import time\ntime.sleep(4)\nprint('finished')" }, { wait: true });
    const deadline = Date.now() + 15_000;
    while ((await admin(edge).call("GET", "/admin/nodes")).json[0]?.in_flight !== 1) {
      assert.ok(Date.now() < deadline, "the run was never assigned");
      await sleep(100);
    }
    await sleep(700); // assigned at the edge; let the Execute call reach the node
    const d = await cliJson(edge, "nodes", "drain", "cli-node");
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.json.node.state, "draining");
    assert.equal(d.json.in_flight_at_drain, 1);
    const health = await c.call("GET", "/api/health");
    assert.equal(health.json.workers, 0);
    const done = await run;
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.job_status, "completed");
    assert.equal(done.json.stdout, "finished\n");
    await sleep(300);
    const l = await cliJson(edge, "nodes", "list");
    assert.equal(l.json[0].state, "drained");
    const rm = await cliJson(edge, "nodes", "remove", l.json[0].id);
    assert.equal(rm.code, 0, rm.stderr);
    assert.deepEqual((await cliJson(edge, "nodes", "list")).json, []);
    assert.equal((await cliJson(edge, "nodes", "remove", "cli-node")).code, 3);
  });
});
