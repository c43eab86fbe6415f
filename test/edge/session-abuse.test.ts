// A live session's routes and messages under abuse, through the real stack (docs/live-sessions.md):
// every upgrade and refusal counts against the key's rate; a key's open sockets are capped by its
// plan's max_sessions, before `start` too; a flood of signals is coalesced and closes the session.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyOnPlan, useStack } from "./harness.ts";
import type { Client } from "./harness.ts";
import { SessionSocket } from "../../scripts/stack/session-socket.ts";
import { MAX_CONTROLS_WAITING, MESSAGE_BURST } from "../../edge/src/session/message-budget.ts";
import { upgradeStatus } from "./upgrade-status.ts";

const stack = useStack();
const upgrade = (c: Client, path: string) => upgradeStatus(stack.edge.base, path, path.startsWith("/piston") ? { authorization: `Bearer ${c.key}` } : { "x-api-key": c.key! });

describe("a live session under abuse", () => {
  it("every upgrade and refusal counts against the key's rate (404, 426, opened), and past it they get 429", async () => {
    const c = await keyOnPlan(stack, "upgrades-metered", { rate_per_minute: 5 });
    assert.equal((await upgrade(c, `/api/sessions/${crypto.randomUUID()}`)).status, 404);
    assert.equal((await upgrade(c, "/api/sessions/not-a-session")).status, 404);
    assert.equal((await c.call("GET", "/api/sessions")).status, 426);
    assert.equal((await upgrade(c, "/api/sessions")).status, 101);
    const last = await upgrade(c, "/piston/api/v2/connect");
    assert.equal(last.status, 101);
    for (const path of ["/api/sessions", `/api/sessions/${crypto.randomUUID()}`, "/piston/api/v2/connect"]) {
      const over = await upgrade(c, path);
      assert.equal(over.status, 429, path);
      assert.equal(over.headers["ratelimit-remaining"], "0", path);
    }
    assert.equal((await c.call("GET", "/api/sessions")).status, 429);
  });

  it("a key holds at most max_sessions sockets, before start too; a closed or refused one is given back", async () => {
    const c = await keyOnPlan(stack, "two-sockets", { max_sessions: 2 });
    const first = new SessionSocket(stack.edge.base, "/api/sessions", { "x-api-key": c.key! });
    const piston = new SessionSocket(stack.edge.base, "/piston/api/v2/connect", { authorization: `Bearer ${c.key}` });
    await Promise.all([first.opened, piston.opened]);
    const third = await upgrade(c, "/api/sessions");
    assert.equal(third.status, 429);
    assert.equal(JSON.parse(third.body).error, "too many sessions");
    // Piston's socket is closed by the edge (no init within 1 s: 4001); the native one by its client.
    assert.equal((await piston.closed).code, 4001);
    first.ws.close();
    await first.closed;
    const again = [await openWhenFree(c), await openWhenFree(c)];
    assert.equal((await upgrade(c, "/api/sessions")).status, 429, "both sockets were given back, and the cap holds again");
    for (const s of again) s.ws.close();
  });

  it(`2000 SIGINTs at once: coalesced, so a few reach the program; past ${MAX_CONTROLS_WAITING} waiting the session closes with 4414 and the program is killed`, async () => {
    const c = await keyOnPlan(stack, "signal-flood");
    const s = new SessionSocket(stack.edge.base, "/api/sessions", { "x-api-key": c.key! });
    s.send({ type: "start", language: "python", code: "import signal, sys\nsignal.signal(signal.SIGINT, lambda *a: print('int', flush=True))\nprint('ready', flush=True)\nsys.stdin.read()\n" });
    const accepted = await s.next((m) => m.type === "accepted");
    await s.seen("ready\n");
    const frame = JSON.stringify({ type: "signal", signal: "SIGINT" });
    for (let i = 0; i < 2000; i++) s.send(frame);
    const closed = await s.closed;
    assert.equal(closed.code, 4414, JSON.stringify(s.messages.slice(-3)));
    const error = s.messages.find((m) => m.type === "error");
    assert.equal(error?.error, "flood");
    assert.match(error?.message, new RegExp(`more than ${MAX_CONTROLS_WAITING} end and signal messages`));
    const record = (await c.terminal(accepted.id, 60_000)).json;
    assert.equal(record.verdict, "SIG");
    assert.equal(record.signal, 9);
    // One signal in flight and one waiting at a time: the program got a few, not one per message.
    const delivered = String(record.stdout).split("\n").filter((l) => l === "int").length;
    assert.ok(delivered < MAX_CONTROLS_WAITING, `delivered ${delivered}`);
  });

  it(`past the message rate (${MESSAGE_BURST} at once) the session closes with 4414 and the program is killed`, async () => {
    const c = await keyOnPlan(stack, "message-flood");
    const s = new SessionSocket(stack.edge.base, "/api/sessions", { "x-api-key": c.key! });
    s.send({ type: "start", language: "python", code: "import sys\nprint('ready', flush=True)\nsys.stdin.read()\n" });
    const accepted = await s.next((m) => m.type === "accepted");
    await s.seen("ready\n");
    for (let i = 0; i < 10 * MESSAGE_BURST; i++) s.send({ type: "stdin", data: "x" });
    assert.equal((await s.closed).code, 4414);
    assert.match(s.messages.find((m) => m.type === "error")?.message, new RegExp(`more than ${MESSAGE_BURST} messages at once`));
    assert.equal((await c.terminal(accepted.id, 60_000)).json.verdict, "SIG");
  });
});

/** A native socket of `c`, opened once the cap lets it (a socket is given back just after its close). */
async function openWhenFree(c: Client): Promise<SessionSocket> {
  for (let i = 0; ; i++) {
    const s = new SessionSocket(stack.edge.base, "/api/sessions", { "x-api-key": c.key! });
    try {
      await s.opened;
      return s;
    } catch (e) {
      if (i === 100) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
