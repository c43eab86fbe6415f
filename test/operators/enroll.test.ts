// Fleet enrollment with two (then three) nodes, each started by the enrollment command
// (fleet/src/enroll/main.ts) as an operator would on a host: enrollment, heartbeats, a node that
// disappears (its run is dispatched again elsewhere, queued work runs there too), drain, and stop = drain + leave.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, ROOT, admin, cleanup, freePort, sleep, startEdge, tempDir } from "../edge/harness.ts";
import type { Edge } from "../edge/harness.ts";
import { cliJson } from "./cli-helpers.ts";

const NODE = join(ROOT, "node_modules", ".bin", "node");

interface Agent {
  name: string;
  proc: ChildProcess;
  childPid: () => number | null;
  stateDir: string;
  log: () => string;
  exited: Promise<number | null>;
}

let edge: Edge;
let enrollToken = "";
const agents: Agent[] = [];

async function startAgent(name: string, pool?: string): Promise<Agent> {
  const webPort = await freePort();
  const stateDir = tempDir(`enroll-${name}`);
  let out = "";
  const proc = spawn(NODE, ["--no-warnings", join(ROOT, "fleet", "src", "enroll", "main.ts"), "--edge", edge.base, "--name", name, ...(pool ? ["--pool", pool] : [])], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env, CODECELL_ENROLL_TOKEN: enrollToken, CODECELL_INSECURE: "1", FLEET_HOST: "127.0.0.1", FLEET_GRPC_PORT: "0",
      FLEET_GRPC_WEB_PORT: String(webPort),
      FLEET_STATE_DIR: stateDir, FLEET_SLOTS: "1", FLEET_NODE_ID: name, FLEET_LOG_LEVEL: "warn", FLEET_DRAIN_GRACE_SECS: "1",
    },
  });
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  const a: Agent = {
    name, proc, stateDir, log: () => out, exited,
    childPid: () => {
      const m = /"msg":"fleet node started","pid":(\d+)/.exec(out);
      return m ? Number(m[1]) : null;
    },
  };
  agents.push(a);
  return a;
}

/** Both the agent and its node, at once, as if the host lost power. */
function killHard(a: Agent): void {
  const child = a.childPid();
  for (const pid of [a.proc.pid, child]) {
    if (!pid) continue;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
  }
}

async function nodes(): Promise<any[]> {
  return (await cliJson(edge, "nodes", "list")).json;
}

async function waitNodes(pred: (list: any[]) => boolean, ms = 30_000, what = "nodes"): Promise<any[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const list = await admin(edge).call("GET", "/admin/nodes");
    if (list.status === 200 && pred(list.json)) return list.json;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(list.json)}\n${agents.map((a) => a.name + ": " + a.log()).join("\n")}`);
    await sleep(200);
  }
}

let client: Client;

before(async () => {
  edge = await startEdge({ vars: { NODE_HEARTBEAT_MS: "400", NODE_HEARTBEAT_MISSES: "3", RATE_LIMIT_PER_MIN: "100000", SYNC_HOLD_MS: "20000" } });
  const t = await cliJson(edge, "nodes", "token", "create", "--name", "test", "--uses", "10");
  assert.equal(t.code, 0, t.stderr);
  enrollToken = t.json.token;
  const k = await admin(edge).newKey();
  client = new Client(edge.base, k.key);
});

after(async () => {
  for (const a of agents) killHard(a);
  await Promise.all(agents.map((a) => Promise.race([a.exited, sleep(5_000)])));
  await edge?.stop();
  if (edge) cleanup(edge.persistDir);
  for (const a of agents) cleanup(a.stateDir);
});

describe("fleet enrollment", () => {
  it("a wrong enrollment token is refused and the command exits non-zero", async () => {
    const port = await freePort();
    const stateDir = tempDir("enroll-bad");
    const proc = spawn(NODE, ["--no-warnings", join(ROOT, "fleet", "src", "enroll", "main.ts"), "--edge", edge.base], {
      cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CODECELL_ENROLL_TOKEN: "cce_wrong", CODECELL_INSECURE: "1", FLEET_GRPC_PORT: "0", FLEET_GRPC_WEB_PORT: String(port), FLEET_STATE_DIR: stateDir, FLEET_LOG_LEVEL: "warn" },
    });
    let err = "";
    proc.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => proc.once("exit", (c) => r(c)));
    cleanup(stateDir);
    assert.equal(code, 2);
    assert.match(err, /refused the enrollment \(401\)/);
  });

  it("two nodes enroll with one command each; health and languages follow them", async () => {
    await startAgent("node-a");
    await startAgent("node-b");
    const list = await waitNodes((l) => l.length === 2 && l.every((n) => n.state === "healthy"), 60_000, "two healthy nodes");
    for (const n of list) {
      assert.equal(n.kind, "enrolled");
      assert.equal(n.slots, 1);
      assert.ok(n.last_heartbeat_at);
      assert.ok(n.languages.some((l: { name: string }) => l.name === "python"));
    }
    const h = await client.call("GET", "/api/health");
    assert.equal(h.json.workers, 2);
    assert.equal(h.json.status, "ok");
    const langs = await client.call("GET", "/api/languages");
    assert.ok(langs.json.includes("python"));
    // Heartbeats keep arriving.
    const before = Date.parse(list[0].last_heartbeat_at);
    await sleep(1_000);
    const later = await nodes();
    assert.ok(Date.parse(later.find((n) => n.id === list[0].id).last_heartbeat_at) > before);
  });

  it("a node that disappears: unhealthy, its run is dispatched again to the other node, queued work runs there too", async () => {
    const long = "import time\ntime.sleep(3)\nprint('done')";
    const x = await client.submit({ language: "python", code: long });
    const y = await client.submit({ language: "python", code: long });
    const z = await client.submit({ language: "python", code: "print('queued then ran')" });
    assert.deepEqual([x.status, y.status, z.status], [202, 202, 202]);
    assert.ok(z.json.queue_depth >= 1, "both slots busy: the third waits in the edge's queue");
    await sleep(500);
    const a = agents.find((g) => g.name === "node-a")!;
    killHard(a);
    await waitNodes((l) => l.find((n) => n.name === "node-a")?.state === "unhealthy", 10_000, "node-a unhealthy");
    const h = await client.call("GET", "/api/health");
    assert.equal(h.json.workers, 1);
    const [rx, ry, rz] = await Promise.all([x, y, z].map((s) => client.terminal(s.json.id, 30_000)));
    assert.deepEqual([rx!.json.job_status, ry!.json.job_status], ["completed", "completed"], "the run on the lost node completes elsewhere");
    assert.deepEqual([rx!.json.stdout, ry!.json.stdout], ["done\n", "done\n"]);
    assert.deepEqual([rx!.json.attempts, ry!.json.attempts].sort(), [2, undefined], "exactly the lost node's run was dispatched twice");
    assert.equal(rz!.json.job_status, "completed");
    assert.equal(rz!.json.stdout, "queued then ran\n");
    const list = await nodes();
    assert.equal(list.find((n) => n.name === "node-a").state, "unhealthy");
    const rm = await cliJson(edge, "nodes", "remove", "node-a");
    assert.equal(rm.code, 0, rm.stderr);
  });

  it("drain: the node's run finishes, new work goes to the other node (another pool), the node leaves rotation", async () => {
    await startAgent("node-c", "rack-2");
    const both = await waitNodes((l) => l.length === 2 && l.every((n) => n.state === "healthy"), 60_000, "node-b and node-c healthy");
    assert.deepEqual(both.map((n) => [n.name, n.pool]).sort(), [["node-b", "default"], ["node-c", "rack-2"]]);
    const r = client.submit({ language: "python", code: "import time\ntime.sleep(4)\nprint('drained ok')" }, { wait: true });
    let busy: any;
    await waitNodes((l) => (busy = l.find((n) => n.in_flight === 1)) !== undefined, 10_000, "a busy node");
    await sleep(500); // assigned at the edge; let the Execute call reach the node
    const d = await cliJson(edge, "nodes", "drain", busy.name);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.json.node.state, "draining");
    const other = client.submit({ language: "python", code: "print('elsewhere')" }, { wait: true });
    const [rr, ro] = await Promise.all([r, other]);
    assert.equal(rr.status, 200);
    assert.equal(rr.json.stdout, "drained ok\n");
    assert.equal(ro.status, 200);
    assert.equal(ro.json.stdout, "elsewhere\n");
    const list = await waitNodes((l) => l.find((n) => n.id === busy.id)?.state === "drained", 10_000, "drained");
    assert.equal(list.find((n) => n.id !== busy.id).state, "healthy");
    assert.equal((await client.call("GET", "/api/health")).json.workers, 1);
    // The drained node's agent is stopped like systemd would (SIGTERM): it leaves the registry.
    const agent = agents.find((g) => g.name === busy.name)!;
    process.kill(agent.proc.pid!, "SIGTERM");
    assert.equal(await agent.exited, 0);
    await waitNodes((l) => l.length === 1 && l[0].id !== busy.id, 10_000, "drained node gone");
  });

  it("stopping an enrolled node (SIGTERM) drains it: its run finishes, then it leaves", async () => {
    const [node] = await nodes();
    const agent = agents.find((g) => g.name === node.name)!;
    const r = client.submit({ language: "python", code: "import time\ntime.sleep(2)\nprint('finished before exit')" }, { wait: true });
    await waitNodes((l) => l[0]?.in_flight === 1, 10_000, "run in flight");
    await sleep(500);
    process.kill(agent.proc.pid!, "SIGTERM");
    await waitNodes((l) => l[0]?.state === "draining" || l.length === 0, 5_000, "draining on stop");
    const rr = await r;
    assert.equal(rr.status, 200, rr.text);
    assert.equal(rr.json.job_status, "completed");
    assert.equal(rr.json.stdout, "finished before exit\n");
    assert.equal(await agent.exited, 0);
    await waitNodes((l) => l.length === 0, 10_000, "no nodes");
    const ready = await client.call("GET", "/api/health/ready");
    assert.equal(ready.status, 503);
  });
});
