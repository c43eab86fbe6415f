// Who may reach a live session, and its deadlines, through the real stack (docs/live-sessions.md):
// only keys of the project that started it attach; the idle deadline is kept in storage, so an
// edge restart does not start it again; a message Piston's protocol ignores is no activity.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { before } from "../hooks.ts";
import { Client, keyOnPlan, startEdge, useStack } from "./harness.ts";
import { SessionSocket } from "../../scripts/stack/session-socket.ts";
import { upgradeStatus } from "./upgrade-status.ts";

const stack = useStack();
// The maximum far above the idle deadline: a session closed at its maximum is told apart.
const CAPS = { rate_per_minute: 1000, session_idle_secs: 3, session_max_secs: 40 };
const READER = "import sys\nfor line in sys.stdin:\n    print('got', line.strip(), flush=True)\n";

/** Keys of two projects of one account, on a plan with CAPS. */
async function keysOfTwoProjects(): Promise<[Client, Client]> {
  assert.equal((await stack.ops.call("PUT", "/admin/plans/owned", CAPS)).status, 201);
  const a = await stack.ops.call("POST", "/admin/projects", { name: "a" });
  const b = await stack.ops.call("POST", "/admin/projects", { name: "b", account_id: a.json.account_id });
  assert.equal(b.json.account_id, a.json.account_id);
  const key = async (project: string) => (await stack.ops.call("POST", `/admin/projects/${project}/keys`, { name: "k", plan: "owned" })).json.key as string;
  return [new Client(stack.edge.base, await key(a.json.id)), new Client(stack.edge.base, await key(b.json.id))];
}

async function startReader(c: Client): Promise<{ s: SessionSocket; accepted: Record<string, any> }> {
  const s = new SessionSocket(stack.edge.base, "/api/sessions", { "x-api-key": c.key! });
  s.send({ type: "start", language: "python", code: READER });
  const accepted = await s.next((m) => m.type === "accepted" || m.type === "error");
  assert.equal(accepted.type, "accepted", JSON.stringify(accepted));
  return { s, accepted };
}

describe("a live session's owner and deadlines", () => {
  let owner: Client;
  let sibling: Client;
  before(async () => ([owner, sibling] = await keysOfTwoProjects()));

  it("a key of another project of the same account cannot attach (404), so cannot feed or kill the program", async () => {
    const { s, accepted } = await startReader(owner);
    const path = `/api/sessions/${accepted.session_id}`;
    const refused = await upgradeStatus(stack.edge.base, path, { "x-api-key": sibling.key! });
    assert.equal(refused.status, 404);
    assert.equal(JSON.parse(refused.body).error, "not found");
    assert.equal((await upgradeStatus(stack.edge.base, path, { "x-api-key": owner.key! })).status, 101, "the owner's project attaches");
    s.send({ type: "stdin", data: "still mine\n" });
    await s.seen("got still mine\n");
    s.send({ type: "end" });
    const { record } = await s.next((m) => m.type === "result");
    assert.equal(record.verdict, "AC");
  });

  it("an edge restart while a session idles: its idle deadline is kept, so a reconnect after it is closed (4410) before its input is taken", async () => {
    // An idle deadline longer than the edge takes to start, and the edge down for longer than it: a
    // clock started again by the new object (when its alarm first fires, as the edge starts) would
    // still run at the reconnect; the stored one has run out.
    const patient = await keyOnPlan(stack, "restart-idle", { session_idle_secs: 20, session_max_secs: 120 });
    const { s, accepted } = await startReader(patient);
    s.send({ type: "stdin", data: "once\n" });
    await s.seen("got once\n");
    const { persistDir, port, operatorToken } = stack.edge;
    await stack.edge.stop();
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    stack.edge = await startEdge({ persistDir, port, operatorToken });
    const again = new SessionSocket(stack.edge.base, `/api/sessions/${accepted.session_id}`, { "x-api-key": patient.key! });
    await again.next((m) => m.type === "attached");
    // A clock started again by the new object would let this in, and the program would answer it.
    again.send({ type: "stdin", data: "after\n" });
    const closed = await again.closed;
    assert.equal(closed.code, 4410, JSON.stringify(again.messages));
    // Output after a restart comes only in the record (docs/live-sessions.md): it shows what was fed.
    const record = (await patient.terminal(accepted.id, 120_000)).json;
    assert.equal(record.stdout, "got once\n", "the program was killed, not fed");
    assert.equal(record.verdict, "SIG");
  });

  it("Piston messages of unknown types are no activity: the session closes at its idle deadline while they come", async () => {
    const s = new SessionSocket(stack.edge.base, "/piston/api/v2/connect", { authorization: `Bearer ${owner.key}` });
    s.send({ type: "init", language: "python", version: "*", files: [{ content: READER }] });
    await s.next((m) => m.type === "runtime" || m.type === "error");
    let open = true;
    void s.closed.then(() => (open = false));
    while (open) {
      s.send({ type: "keepalive" });
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const closed = await s.closed;
    assert.equal(closed.code, 4002, JSON.stringify(s.messages));
    assert.match(String(s.messages.find((m) => m.type === "error")?.message), /nothing came from the client/);
  });
});
