// Live sessions through the real stack (docs/live-sessions.md): the Worker in workerd, a real fleet
// node, the real kernel sandbox. Native and Piston protocols: an echo program answers each line as
// it is sent; a compiled program shows compile, then run; the record is the stored one; refusals
// close with their codes; a program that never reads holds the edge and the node to their caps.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { before } from "../hooks.ts";
import { keyOnPlan, startEdge, useStack } from "./harness.ts";
import type { Client } from "./harness.ts";
import { SessionSocket } from "../../scripts/stack/session-socket.ts";
import { upgradeStatus } from "./upgrade-status.ts";
import { LIVE_INPUT_BUFFER_BYTES } from "../../fleet/src/service/live-input.ts";

const stack = useStack({ fleet: { env: { FLEET_SLOTS: "2" } } });
let c: Client;
let key: Promise<Client> | undefined;
const useKey = () => before(async () => (c = await (key ??= keyOnPlan(stack, "live", { session_idle_secs: 3, session_stdin_kb: 64 * 1024 }))));

const ECHO = "import sys\nfor line in sys.stdin:\n    print('you said', line.strip(), flush=True)\nprint('bye')\n";
const C_ECHO = "#include <stdio.h>\nint main(void) { char line[256]; while (fgets(line, sizeof line, stdin)) { printf(\"got %s\", line); fflush(stdout); } return 0; }\n";
const native = (headers: Record<string, string> = { "x-api-key": c.key! }) => new SessionSocket(stack.edge.base, "/api/sessions", headers);
const piston = () => new SessionSocket(stack.edge.base, "/piston/api/v2/connect", { authorization: `Bearer ${c.key}` });

describe("a native live session", () => {
  useKey();

  it("an echo program answers each line as it is sent; the result is the stored record", async () => {
    const s = native();
    s.send({ type: "start", language: "python", code: ECHO });
    const accepted = await s.next((m) => m.type === "accepted" || m.type === "error");
    assert.equal(accepted.type, "accepted", JSON.stringify(accepted));
    for (const word of ["one", "two", "three"]) {
      s.send({ type: "stdin", data: `${word}\n` });
      await s.seen(`you said ${word}\n`);
    }
    s.send({ type: "end" });
    const { record } = await s.next((m) => m.type === "result");
    assert.equal((await s.closed).code, 1000);
    assert.equal(record.verdict, "AC");
    assert.equal(record.stdout, "you said one\nyou said two\nyou said three\nbye\n");
    const stored = await c.result(accepted.id);
    assert.deepEqual(stored.json, record);
    assert.deepEqual(s.messages.filter((m) => m.type === "stage").map((m) => m.stage), ["run"]);
  });

  it("a compiled program shows the compile stage, then the run stage", async () => {
    const s = native();
    s.send({ type: "start", language: "c", code: C_ECHO, stdin: "first\n" });
    await s.seen("got first\n");
    s.send({ type: "stdin", data: "second\n" });
    await s.seen("got second\n");
    s.send({ type: "end" });
    await s.next((m) => m.type === "result");
    assert.deepEqual(s.messages.filter((m) => m.type === "stage").map((m) => m.stage), ["compile", "run"]);
  });

  it("SIGINT reaches the program's handler", async () => {
    const s = native();
    s.send({ type: "start", language: "python", code: "import signal, sys, time\nsignal.signal(signal.SIGINT, lambda *a: (print('interrupted', flush=True), sys.exit(3)))\nprint('ready', flush=True)\ntime.sleep(60)\n" });
    await s.seen("ready\n");
    s.send({ type: "signal", signal: "SIGINT" });
    const { record } = await s.next((m) => m.type === "result");
    assert.equal(record.exit_code, 3);
    assert.match(record.stdout, /interrupted/);
  });

  it("the key's live sessions are counted in its usage (the dashboard's key table) while they run", async () => {
    const liveCount = async () => {
      const all = await stack.ops.call("GET", "/admin/usage");
      const mine = (all.json as Record<string, any>[]).find((u) => u.plan === "live" || u.live_sessions > 0);
      return mine?.live_sessions ?? 0;
    };
    const s = native();
    s.send({ type: "start", language: "python", code: ECHO });
    await s.next((m) => m.type === "accepted");
    assert.equal(await liveCount(), 1);
    s.send({ type: "end" });
    await s.next((m) => m.type === "result");
    for (let i = 0; i < 50 && (await liveCount()) !== 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await liveCount(), 0);
  });

  it("a reconnect attaches to the running program: it learns what was taken, and its stdin reaches the same program", async () => {
    const first = native();
    first.send({ type: "start", language: "python", code: ECHO });
    const accepted = await first.next((m) => m.type === "accepted");
    first.send({ type: "stdin", data: "one\n" });
    await first.seen("you said one\n");
    first.ws.close();
    await first.closed;
    const again = new SessionSocket(stack.edge.base, `/api/sessions/${accepted.session_id}`, { "x-api-key": c.key! });
    const attached = await again.next((m) => m.type === "attached");
    assert.deepEqual([attached.id, attached.taken], [accepted.id, 4]);
    again.send({ type: "stdin", data: "two\n" });
    await again.seen("you said two\n");
    const extra = [1, 2, 3].map(() => new SessionSocket(stack.edge.base, `/api/sessions/${accepted.session_id}`, { "x-api-key": c.key! }));
    await Promise.all(extra.map((x) => x.next((m) => m.type === "attached")));
    const fifth = await upgradeStatus(stack.edge.base, `/api/sessions/${accepted.session_id}`, { "x-api-key": c.key! });
    assert.equal(fifth.status, 429, "a session holds at most 4 sockets");
    for (const x of extra) x.ws.close();
    again.send({ type: "end" });
    const { record } = await again.next((m) => m.type === "result");
    assert.equal(record.stdout, "you said one\nyou said two\nbye\n");
    const other = await keyOnPlan(stack, "live-other");
    const stranger = await upgradeStatus(stack.edge.base, `/api/sessions/${accepted.session_id}`, { "x-api-key": other.key! });
    assert.equal(stranger.status, 404, "another account's session is not found");
    const unknown = await upgradeStatus(stack.edge.base, `/api/sessions/${crypto.randomUUID()}`, { "x-api-key": c.key! });
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.body).error, "not found");
  });

  it("an edge restart mid-session: the program goes on, a reconnect feeds it, the result comes", async () => {
    // An idle deadline that outlasts the restart: it is kept across it (session-ownership.test.ts).
    const patient = await keyOnPlan(stack, "live-patient", { session_idle_secs: 60 });
    const s = native({ "x-api-key": patient.key! });
    s.send({ type: "start", language: "python", code: ECHO });
    const accepted = await s.next((m) => m.type === "accepted");
    s.send({ type: "stdin", data: "before\n" });
    await s.seen("you said before\n");
    const { persistDir, port, operatorToken } = stack.edge;
    await stack.edge.stop();
    stack.edge = await startEdge({ persistDir, port, operatorToken });
    const again = new SessionSocket(stack.edge.base, `/api/sessions/${accepted.session_id}`, { "x-api-key": patient.key! });
    await again.next((m) => m.type === "attached");
    again.send({ type: "stdin", data: "after\n" });
    again.send({ type: "end" });
    const { record } = await again.next((m) => m.type === "result");
    assert.equal(record.stdout, "you said before\nyou said after\nbye\n");
    assert.deepEqual((await patient.result(accepted.id)).json, record);
  });

  it("SIGKILL reaches a program that does not read, past the input waiting for it", async () => {
    const s = native();
    s.send({ type: "start", language: "python", code: "import time\nprint('ready', flush=True)\ntime.sleep(60)\n" });
    const accepted = await s.next((m) => m.type === "accepted");
    await s.seen("ready\n");
    // Within the window, as a client should: the node's buffer fills (1 MiB and the socket's), then
    // up to a window more waits at the edge.
    const chunk = "b".repeat(64 * 1024);
    const taken = () => Math.max(0, ...s.messages.filter((m) => m.type === "stdin_ack").map((m) => m.taken as number));
    let sent = 0;
    for (let stalled = 0; stalled < 3 && sent < 4 * 1024 * 1024; ) {
      if (sent + chunk.length - taken() <= accepted.window) {
        s.send({ type: "stdin", data: chunk });
        sent += chunk.length;
      } else {
        const before = taken();
        await new Promise((resolve) => setTimeout(resolve, 100));
        stalled = taken() === before ? stalled + 1 : 0;
      }
    }
    assert.ok(taken() >= LIVE_INPUT_BUFFER_BYTES && sent - taken() > 512 * 1024, `sent ${sent}, taken ${taken()}`);
    s.send({ type: "signal", signal: "SIGKILL" });
    const { record } = await s.next((m) => m.type === "result");
    assert.equal(record.verdict, "SIG");
  });

  it("the plan's caps: stdin past its byte cap closes 4413; the maximum duration is the program's wall limit (TLE)", async () => {
    const small = await keyOnPlan(stack, "live-small", { session_stdin_kb: 1, session_max_secs: 1 });
    const capped = new SessionSocket(stack.edge.base, "/api/sessions", { "x-api-key": small.key! });
    capped.send({ type: "start", language: "python", code: ECHO });
    const accepted = await capped.next((m) => m.type === "accepted");
    assert.deepEqual([accepted.limits.stdin_bytes, accepted.limits.max_duration_ms], [1024, 1000]);
    capped.send({ type: "stdin", data: "x".repeat(2048) });
    assert.equal((await capped.closed).code, 4413);
    const timed = new SessionSocket(stack.edge.base, "/api/sessions", { "x-api-key": small.key! });
    timed.send({ type: "start", language: "python", code: "input()\n" });
    const { record } = await timed.next((m) => m.type === "result");
    assert.equal(record.verdict, "TLE");
    assert.equal((await timed.closed).code, 1000);
  });

  it("a request without a key is refused before anything runs (HTTP 401, no upgrade)", async () => {
    const r = await upgradeStatus(stack.edge.base, "/api/sessions", {});
    assert.equal(r.status, 401);
    assert.equal(JSON.parse(r.body).error, "unauthorized");
    const p = await upgradeStatus(stack.edge.base, "/piston/api/v2/connect", {});
    assert.equal(p.status, 401);
  });

  it("refusals close with their own codes", async () => {
    const bad = native();
    bad.send({ type: "start", language: "python", code: "" });
    assert.equal((await bad.closed).code, 4400);
    assert.match(bad.messages[0]!.message, /code/);
    const requests = async () => ((await stack.ops.call("GET", "/admin/usage")).json as Record<string, any>[]).find((u) => u.plan === "live")!.requests_last_minute as number;
    const before = await requests();
    const early = native();
    early.send({ type: "stdin", data: "x" });
    assert.equal((await early.closed).code, 4400);
    for (let i = 0; i < 20 && (await requests()) === before; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await requests(), before + 1, "a connection refused before its start counts as a request");
    const twice = native();
    twice.send({ type: "start", language: "python", code: ECHO });
    await twice.next((m) => m.type === "accepted");
    twice.send({ type: "start", language: "python", code: ECHO });
    assert.equal((await twice.closed).code, 4409);
    const tests = native();
    tests.send({ type: "start", language: "python", code: ECHO, tests: [{ stdin: "", expected_output: "" }] });
    assert.equal((await tests.closed).code, 4400);
  });

  it("an idle session is closed with 4410 and its program killed; the record is stored", async () => {
    const s = native();
    s.send({ type: "start", language: "python", code: "input()\n" });
    const accepted = await s.next((m) => m.type === "accepted");
    assert.equal((await s.closed).code, 4410);
    const rec = await waitTerminal(accepted.id);
    assert.equal(rec.verdict, "SIG");
  });

  it("a program that never reads while the client sends 10 MiB: the edge holds at most its window, the node its buffer", async () => {
    const s = native();
    s.send({ type: "start", language: "python", code: "import time\ntime.sleep(60)\n" });
    const accepted = await s.next((m) => m.type === "accepted");
    const chunk = "a".repeat(64 * 1024);
    let sent = 0;
    while (sent < 10 * 1024 * 1024 && s.ws.readyState === 1) {
      s.send({ type: "stdin", data: chunk });
      sent += chunk.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const closed = await s.closed;
    assert.equal(closed.code, 4411, JSON.stringify(s.messages.at(-1)));
    const taken = Math.max(0, ...s.messages.filter((m) => m.type === "stdin_ack").map((m) => m.taken));
    assert.ok(taken <= LIVE_INPUT_BUFFER_BYTES + 1024 * 1024, `the node took ${taken} bytes`);
    assert.ok(s.messages.at(-1)!.message.includes(String(accepted.window)));
    const rec = await waitTerminal(accepted.id);
    assert.equal(rec.verdict, "SIG", "the program was killed with the session");
  });
});

describe("a Piston /connect session", () => {
  useKey();

  it("init, runtime, stage, data both ways, exit, then 4999", async () => {
    const s = piston();
    s.send({ type: "init", language: "python", version: "*", files: [{ content: ECHO }] });
    const runtime = await s.next((m) => m.type === "runtime" || m.type === "error");
    assert.equal(runtime.type, "runtime", JSON.stringify(runtime));
    assert.equal(runtime.language, "python");
    s.send({ type: "data", stream: "stdin", data: "hello\n" });
    await s.seen("you said hello\n");
    s.send({ type: "data", stream: "stdin", data: "again\n" });
    await s.seen("you said again\n");
    s.send({ type: "signal", signal: "SIGKILL" });
    assert.equal((await s.closed).code, 4999);
  });

  it("a compiled program: stage compile, exit compile, stage run, exit run", async () => {
    const s = piston();
    s.send({ type: "init", language: "c", version: "*", files: [{ content: C_ECHO }] });
    await s.next((m) => m.type === "stage" && m.stage === "run");
    s.send({ type: "data", stream: "stdin", data: "x\n" });
    await s.seen("got x\n");
    s.send({ type: "signal", signal: "SIGKILL" });
    const closed = await s.closed;
    assert.equal(closed.code, 4999);
    const kinds = s.messages.filter((m) => m.type === "stage" || m.type === "exit").map((m) => `${m.type}:${m.stage}`);
    assert.deepEqual(kinds, ["stage:compile", "exit:compile", "stage:run", "exit:run"]);
    assert.equal(s.messages.at(-1)!.signal, "SIGKILL");
  });

  it("a program that never reads while the client sends 10 MiB: an error, then 4002; the program is killed", async () => {
    const s = piston();
    s.send({ type: "init", language: "python", version: "*", files: [{ content: "import time\ntime.sleep(60)\n" }] });
    await s.next((m) => m.type === "stage" && m.stage === "run");
    const chunk = "a".repeat(64 * 1024);
    for (let sent = 0; sent < 10 * 1024 * 1024 && s.ws.readyState === 1; sent += chunk.length) {
      s.send({ type: "data", stream: "stdin", data: chunk });
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal((await s.closed).code, 4002);
    const error = s.messages.find((m) => m.type === "error");
    assert.match(error?.message, /more than 1048576 bytes of stdin wait for the program/);
    const usage = async () => ((await stack.ops.call("GET", "/admin/usage")).json as Record<string, any>[]).reduce((n, u) => n + (u.live_sessions ?? 0), 0);
    for (let i = 0; i < 50 && (await usage()) !== 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await usage(), 0, "the program was killed with the session");
  });

  it("Piston's protocol errors close with its codes", async () => {
    const cases: [string, (s: SessionSocket) => void, number][] = [
      ["a second init", (s) => {
        s.send({ type: "init", language: "python", version: "*", files: [{ content: ECHO }] });
        s.send({ type: "init", language: "python", version: "*", files: [{ content: ECHO }] });
      }, 4000],
      ["no init within 1 s", () => {}, 4001],
      ["not JSON", (s) => s.send("{nope"), 4002],
      ["data before init", (s) => s.send({ type: "data", stream: "stdin", data: "x" }), 4003],
      ["stdout from the client", (s) => {
        s.send({ type: "init", language: "python", version: "*", files: [{ content: ECHO }] });
        s.send({ type: "data", stream: "stdout", data: "x" });
      }, 4004],
      ["an unknown signal", (s) => {
        s.send({ type: "init", language: "python", version: "*", files: [{ content: ECHO }] });
        s.send({ type: "signal", signal: "SIGWHAT" });
      }, 4005],
    ];
    for (const [label, act, code] of cases) {
      const s = piston();
      await s.opened;
      act(s);
      assert.equal((await s.closed).code, code, label);
    }
  });
});

async function waitTerminal(id: string): Promise<Record<string, any>> {
  for (;;) {
    const r = await c.result(id);
    if (r.json.job_status === "completed" || r.json.job_status === "error") return r.json;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
