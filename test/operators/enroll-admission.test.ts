// What an enrollment token lets a node be, through the real stack (workerd, the enrollment command,
// its fleet node): tokens expire after an hour by default, a token enrolls one node unless --uses
// says more (a node back at its address is not a new use), a node's run slots are capped by its
// token, a --require-approval token's node waits for an operator, and a revoked node is out at
// once, its run goes elsewhere, and it needs a new token.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, request, sleep, startEdge } from "../edge/harness.ts";
import type { Edge } from "../edge/harness.ts";
import { cli, cliJson } from "./cli-helpers.ts";
import { startAgent, stopAgents, waitNodes } from "./enroll-agent.ts";
import type { Agent } from "./enroll-agent.ts";

let edge: Edge;
let client: Client;
const agents: Agent[] = [];

async function token(...flags: string[]): Promise<any> {
  const t = await cliJson(edge, "nodes", "token", "create", ...flags);
  assert.equal(t.code, 0, t.stderr);
  return t.json;
}

async function agent(name: string, tok: string, opts: { slots?: number; webPort?: number } = {}): Promise<Agent> {
  const a = await startAgent(edge, name, tok, opts);
  agents.push(a);
  return a;
}

const wait = (pred: (l: any[]) => boolean, what: string, ms?: number) => waitNodes(edge, pred, what, ms, agents);
const named = (l: any[], name: string) => l.find((n) => n.name === name);

async function dashboardSnapshot(): Promise<any> {
  const login = await request(edge.base, "POST", "/dashboard/login", {
    headers: { origin: edge.base, "content-type": "application/x-www-form-urlencoded" }, raw: `token=${encodeURIComponent(edge.operatorToken)}`,
  });
  assert.equal(login.status, 303, login.text);
  const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
  const s = await request(edge.base, "GET", "/dashboard/api/snapshot", { headers: { cookie } });
  assert.equal(s.status, 200, s.text);
  return s.json;
}

before(async () => {
  edge = await startEdge({ vars: { NODE_HEARTBEAT_MS: "400", NODE_HEARTBEAT_MISSES: "3", RATE_LIMIT_PER_MIN: "100000", SYNC_HOLD_MS: "20000" } });
  client = new Client(edge.base, (await admin(edge).newKey()).key);
});

after(async () => {
  await stopAgents(agents);
  await edge?.stop();
  if (edge) cleanup(edge.persistDir);
});

describe("enrollment tokens and node admission", () => {
  it("a token expires after an hour unless --ttl says otherwise (0: never); an expired token is refused", async () => {
    const t = await token("--name", "default-ttl");
    const left = Date.parse(t.expires_at) - Date.parse(t.created_at);
    assert.equal(left, 3_600_000, `expires_at ${t.expires_at}`);
    const api = await admin(edge).call("POST", "/admin/enrollment-tokens", {});
    assert.equal(api.status, 201, api.text);
    assert.equal(Date.parse(api.json.expires_at) - Date.parse(api.json.created_at), 3_600_000);
    assert.equal(api.json.max_uses, 1, "one node per token unless asked");
    assert.equal((await token("--ttl", "0")).expires_at, null);
    const bad = await admin(edge).call("POST", "/admin/enrollment-tokens", { max_slots: 0, max_uses: 0 });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.text, /max_slots/);
    assert.match(bad.text, /max_uses/);
    const short = await token("--ttl", "1");
    await sleep(1_500);
    const late = await agent("late", short.token);
    assert.equal(await late.exited, 2, late.log());
    assert.match(late.log(), /refused the enrollment \(401\): invalid or expired enrollment token/);
  });

  it("a node from a --require-approval token is pending: it gets no work until an operator approves it", async () => {
    const t = await token("--require-approval");
    assert.equal(t.require_approval, true);
    await agent("gated", t.token);
    const [n] = await wait((l) => named(l, "gated")?.state === "pending", "gated pending");
    assert.equal(n.approval, "pending");
    const sub = await client.submit({ language: "python", code: "print('approved')" });
    assert.equal(sub.status, 202, sub.text);
    await sleep(1_500);
    assert.equal((await client.result(sub.json.id)).json.job_status, "pending", "a pending node takes no work");
    const ready = await client.call("GET", "/api/health/ready");
    assert.equal(ready.status, 503);
    const fleet = await admin(edge).call("GET", "/admin/fleet");
    assert.ok(fleet.json.reasons.some((r: string) => /gated: awaiting an operator's approval/.test(r)), fleet.text);
    const listed = await cli(edge, ["--insecure", "nodes", "list"]);
    assert.match(listed.stdout, /gated\s+enrolled\s+pending/);
    assert.equal(named((await dashboardSnapshot()).nodes, "gated").state, "pending");
    const ok = await cliJson(edge, "nodes", "approve", "gated");
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.json.approval, null);
    const r = await client.terminal(sub.json.id, 30_000);
    assert.equal(r.json.stdout, "approved\n");
    assert.equal(named(await wait((l) => named(l, "gated")?.state === "healthy", "gated healthy"), "gated").approval, null);
  });

  it("a token enrolls one node unless --uses says more; a node back at its address is not a new use; run slots are capped by the token", async () => {
    const t = await token("--max-slots", "1");
    assert.deepEqual([t.max_uses, t.max_slots], [1, 1]);
    const solo = await agent("solo", t.token, { slots: 3 });
    const list = await wait((l) => named(l, "solo")?.state === "healthy", "solo healthy");
    const node = named(list, "solo");
    assert.deepEqual([node.slots, node.reported_slots, node.max_slots], [1, 3, 1], "capped at the token's max_slots");
    assert.equal((await client.call("GET", "/api/health")).json.workers, 2, "gated's 1 + solo's capped 1");
    const table = await cli(edge, ["--insecure", "nodes", "list"]);
    assert.match(table.stdout, /1 \(reports 3\)/);
    const second = await agent("second", t.token);
    assert.equal(await second.exited, 2, second.log());
    assert.match(second.log(), /refused the enrollment \(401\): this enrollment token was for one node only/);
    // Its service stops (drains, leaves the registry) and starts again at the same address, with the same token.
    solo.proc.kill("SIGTERM");
    assert.equal(await solo.exited, 0, solo.log());
    agents.splice(agents.indexOf(solo), 1);
    await wait((l) => !named(l, "solo"), "solo left");
    await agent("solo", t.token, { slots: 3, webPort: solo.webPort });
    await wait((l) => named(l, "solo")?.state === "healthy", "solo back with its token");
    const tokens = (await cliJson(edge, "nodes", "token", "list")).json;
    assert.deepEqual([tokens.find((x: any) => x.id === t.id).uses, tokens.find((x: any) => x.id === t.id).max_uses], [1, 1]);
    const rack = await token("--uses", "2");
    assert.deepEqual([rack.max_uses, rack.max_slots], [2, 16], "--uses; the default cap of slots");
    await agent("rack-a", rack.token);
    await agent("rack-b", rack.token);
    await wait((l) => named(l, "rack-a")?.state === "healthy" && named(l, "rack-b")?.state === "healthy", "two nodes from one --uses 2 token");
    const third = await agent("rack-c", rack.token);
    assert.equal(await third.exited, 2, third.log());
    assert.match(third.log(), /refused the enrollment \(401\): this enrollment token was for 2 nodes and all have enrolled with it/);
    for (const a of agents.filter((x) => x.name.startsWith("rack-a") || x.name.startsWith("rack-b"))) {
      a.proc.kill("SIGTERM");
      assert.equal(await a.exited, 0, a.log());
      agents.splice(agents.indexOf(a), 1);
    }
    await wait((l) => !named(l, "rack-a") && !named(l, "rack-b"), "the rack's nodes left");
  });

  it("revoke: the node's credential stops working, it leaves rotation, its run goes elsewhere; it must enroll again with a new token", async () => {
    const long = await client.submit({ language: "python", code: "import time\ntime.sleep(9)\nprint('done')" });
    assert.equal(long.status, 202, long.text);
    let busy: any;
    await wait((l) => (busy = l.find((n) => n.in_flight === 1)) !== undefined, "a busy node");
    await sleep(300);
    const r = await admin(edge).call("POST", `/admin/nodes/${busy.id}/revoke`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.state, "revoked");
    assert.ok(r.json.revoked_at);
    assert.equal((await client.call("GET", "/api/health")).json.workers, 1, "out of rotation at once");
    const revoked = agents.find((a) => a.name === busy.name)!;
    assert.equal(await revoked.exited, 2, "its heartbeat is refused, and so is enrolling again with the same token");
    assert.match(revoked.log(), /refused the enrollment \(403\): this node's credential was revoked/);
    const done = await client.terminal(long.json.id, 60_000);
    assert.equal(done.json.job_status, "completed", done.text);
    assert.equal(done.json.stdout, "done\n");
    assert.equal(done.json.attempts, 2, "the revoked node's run ran again elsewhere");
    const fresh = await token();
    await agent(`${busy.name}-again`, fresh.token, { webPort: revoked.webPort });
    const back = await wait((l) => l.find((n) => n.id === busy.id)?.state === "healthy", "re-enrolled with a new token");
    assert.equal(back.find((n) => n.id === busy.id).revoked_at, null);
    const cliRevoke = await cli(edge, ["--insecure", "nodes", "revoke", busy.id]);
    assert.equal(cliRevoke.code, 0, cliRevoke.stderr);
    assert.match(cliRevoke.stdout, /revoked node .*: no work, heartbeats refused/);
    assert.equal((await cliJson(edge, "nodes", "list")).json.find((n: any) => n.id === busy.id).state, "revoked");
  });
});
