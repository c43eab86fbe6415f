// GET /api/result/{id}/events (Server-Sent Events) against the real Worker (workerd, HTTPS)
// and a real fleet node: order, live chunks, resume, replay after completion, auth and errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet } from "./harness.ts";
import { openEvents } from "../../scripts/stack/sse-client.ts";
import type { SseEvent, SseStream } from "../../scripts/stack/sse-client.ts";

let fleet: Fleet;
let edge: Edge;
let ops: ReturnType<typeof admin>;
let key: string;
let c: Client;

before(async () => {
  fleet = await startFleet();
  // A short heartbeat so that a one-second run sees some.
  edge = await startEdge({ vars: { SSE_HEARTBEAT_MS: "100" } });
  ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  assert.equal(reg.status, 201, reg.text);
  key = (await ops.newKey()).key;
  c = new Client(edge.base, key);
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

const events = (id: string, headers: Record<string, string> = {}, query = ""): Promise<SseStream> =>
  openEvents(edge.base, `/api/result/${id}/events${query}`, { "x-api-key": key, ...headers });

async function submit(code: string, language = "python"): Promise<string> {
  const r = await c.submit({ language, code });
  assert.equal(r.status, 202, r.text);
  return r.json.id as string;
}

/** edge/src/submission/events.ts OUTPUT_EVENT_CAP (that module needs the Workers types). */
const OUTPUT_EVENT_CAP = 1000;
const strip = (evs: SseEvent[]) => evs.map(({ id, event, data }) => ({ id, event, data }));
const stdoutOf = (evs: SseEvent[]) => evs.filter((e) => e.event === "stdout").map((e) => e.data.data as string).join("");

/** The shape every complete stream has: ids 1.., queued?, started, output, completed last. */
function assertWellFormed(evs: SseEvent[]): void {
  assert.deepEqual(evs.map((e) => e.id), evs.map((_, i) => i + 1), "ids are 1, 2, 3, ...");
  const names = evs.map((e) => e.event);
  assert.equal(names.at(-1), "completed", names.join(","));
  assert.equal(names.filter((n) => n === "completed").length, 1);
  assert.equal(names.filter((n) => n === "started").length, 1, names.join(","));
  const started = names.indexOf("started");
  for (const [i, n] of names.entries()) {
    if (n === "queued") assert.ok(i < started, `queued after started: ${names.join(",")}`);
    if (n === "stdout" || n === "stderr") assert.ok(i > started, `output before started: ${names.join(",")}`);
  }
}

describe("event stream of a submission", () => {
  it("a hello world: queued, started, one stdout chunk, completed with the record; the stream then ends", async () => {
    // One write (Python runs unbuffered: print() writes its text and its newline apart).
    const id = await submit('import sys\nsys.stdout.write("hello, events\\n")');
    const s = await events(id);
    assert.equal(s.status, 200);
    assert.match(String(s.headers["content-type"]), /^text\/event-stream/);
    assert.equal(s.headers["cache-control"], "no-store");
    assert.ok(s.headers["ratelimit-remaining"] !== undefined, "rate-limit headers as every endpoint");
    const evs = await s.rest();
    assertWellFormed(evs);
    const names = evs.map((e) => e.event);
    assert.deepEqual(names.filter((n) => n !== "queued"), ["started", "stdout", "completed"], "one Output event for a hello world");
    const started = evs.find((e) => e.event === "started")!;
    assert.match(started.data.started_at, /^\d{4}-\d{2}-\d{2}T/);
    const completed = evs.at(-1)!;
    const rec = await c.result(id);
    assert.equal(rec.status, 200);
    assert.deepEqual(completed.data, rec.json, "completed carries the whole record");
    assert.equal(completed.data.job_status, "completed");
    assert.equal(completed.data.started_at, started.data.started_at);
    assert.equal(stdoutOf(evs), "hello, events\n");
    assert.deepEqual(evs.find((e) => e.event === "stdout")!.data, { data: "hello, events\n" }, "no test index without tests");
  });

  it("a run without output: started then completed; replay, resume and the rate limit (one request each) without any chunk", async () => {
    const id = await submit("x = 6 * 7");
    const live = await (await events(id)).rest();
    assertWellFormed(live);
    assert.deepEqual(live.map((e) => e.event).filter((n) => n !== "queued"), ["started", "completed"]);
    assert.deepEqual(live.at(-1)!.data, (await c.result(id)).json);
    const again = await events(id);
    const replay = await again.rest();
    assert.deepEqual(strip(replay), strip(live), "after completion: the stored events, then completed, then the end");
    const started = live.find((e) => e.event === "started")!.id;
    const resumed = await events(id, { "last-event-id": String(started) });
    assert.deepEqual(strip(await resumed.rest()), strip(live.filter((e) => e.id > started)));
    assert.equal(Number(resumed.headers["ratelimit-remaining"]), Number(again.headers["ratelimit-remaining"]) - 1, "each stream counts once");
  });

  it("chunks arrive while the program still runs (it prints, sleeps, prints)", async () => {
    const id = await submit('import sys, time\nsys.stdout.write("first\\n"); sys.stdout.flush()\ntime.sleep(1)\nprint("second")');
    const s = await events(id);
    assert.equal(s.status, 200);
    const seen: SseEvent[] = [];
    let ev: SseEvent | null;
    while ((ev = await s.next()) && ev.event !== "stdout") seen.push(ev);
    assert.ok(ev, "a stdout chunk arrived");
    assert.match(ev.data.data, /^first/, "the first write");
    assert.doesNotMatch(ev.data.data, /second/, "without the second");
    const now = await c.result(id);
    assert.equal(now.json.job_status, "running", "the run had not ended when its first chunk arrived");
    seen.push(ev, ...(await s.rest()));
    assertWellFormed(seen);
    assert.equal(stdoutOf(seen), "first\nsecond\n");
    assert.ok(seen.filter((e) => e.event === "stdout").length >= 2, "the second write is a chunk of its own");
    assert.ok(s.comments() > 0, "heartbeat comments while the program slept");
  });

  it("after completion the stored events are replayed, identical to the live stream; Last-Event-ID resumes after an id", async () => {
    const id = await submit('import sys\nsys.stdout.write("a\\n"); sys.stdout.flush()\nsys.stderr.write("oops\\n")\nprint("b")');
    const live = await (await events(id)).rest();
    assertWellFormed(live);
    const replay = await (await events(id)).rest();
    assert.deepEqual(strip(replay), strip(live), "a client connecting after completion gets the same events");
    const rec = (await c.result(id)).json;
    assert.equal(stdoutOf(live), rec.stdout);
    assert.equal(live.filter((e) => e.event === "stderr").map((e) => e.data.data).join(""), rec.stderr);
    const started = live.find((e) => e.event === "started")!.id;
    const resumed = await (await events(id, { "last-event-id": String(started) })).rest();
    assert.deepEqual(strip(resumed), strip(live.filter((e) => e.id > started)), "only the events after Last-Event-ID");
    const byQuery = await (await events(id, {}, `?last_event_id=${started + 1}`)).rest();
    assert.deepEqual(strip(byQuery), strip(live.filter((e) => e.id > started + 1)), "?last_event_id= resumes as the header does");
    const none = await (await events(id, { "last-event-id": String(live.at(-1)!.id) })).rest();
    assert.deepEqual(none, [], "nothing after the last event; the stream ends");
  });

  it("Last-Event-ID while the run is live: the resumed stream continues exactly where the first left off", async () => {
    const id = await submit('import time\nprint("one", flush=True)\ntime.sleep(1)\nprint("two")');
    const first = await events(id);
    const got: SseEvent[] = [];
    let ev: SseEvent | null;
    while ((ev = await first.next()) && ev.event !== "stdout") got.push(ev);
    assert.ok(ev);
    got.push(ev);
    first.close(); // the client goes away mid-run
    const rest = await (await events(id, { "last-event-id": String(ev.id) })).rest();
    const all = [...got, ...rest];
    assertWellFormed(all);
    assert.equal(stdoutOf(all), "one\ntwo\n");
    assert.equal((await c.result(id)).json.job_status, "completed", "the run went on without its first client");
  });

  it("the concatenated stdout chunks equal the record's stdout byte for byte (multi-byte text over many writes)", async () => {
    const code = [
      "import sys, time",
      "for i in range(40):",
      "    sys.stdout.buffer.write(('é€😀 %d ' % i).encode() * 300 + b'\\n')",
      "    sys.stdout.flush()",
      "    if i % 10 == 0: time.sleep(0.05)",
      "sys.stdout.buffer.write('😀'.encode()[:2])",
    ].join("\n");
    const id = await submit(code);
    const evs = await (await events(id)).rest();
    assertWellFormed(evs);
    const rec = (await c.result(id)).json;
    assert.equal(rec.verdict, "AC", JSON.stringify(rec).slice(0, 300));
    assert.ok(evs.filter((e) => e.event === "stdout").length > 1, "several chunks");
    assert.equal(Buffer.byteLength(stdoutOf(evs)), Buffer.byteLength(rec.stdout));
    assert.equal(stdoutOf(evs), rec.stdout, "same text, including the cut character at the end");
  });

  it("past the output-event cap the rest of the output comes as one chunk at the end; the whole still equals the record", async () => {
    const code = "import sys, time\nfor i in range(1500):\n    sys.stdout.write('line %d\\n' % i); sys.stdout.flush(); time.sleep(0.002)";
    const id = await submit(code);
    const evs = await (await events(id)).rest();
    assertWellFormed(evs);
    const rec = (await c.result(id)).json;
    const chunks = evs.filter((e) => e.event === "stdout");
    assert.ok(chunks.length <= OUTPUT_EVENT_CAP + 1, `at most the cap and one held chunk, got ${chunks.length}`);
    assert.equal(stdoutOf(evs), rec.stdout);
    assert.match(rec.stdout, /line 1499\n$/);
    const replay = await (await events(id)).rest();
    assert.deepEqual(strip(replay), strip(evs), "the held chunk is stored like any other");
  });
});

describe("event stream: auth and bad input", () => {
  it("at most 16 clients follow one run live: the 17th gets 429 with Retry-After; after the run, replays are not limited", async () => {
    // A key of its own, on a plan whose rate does not bind (34 requests in a few seconds).
    assert.ok((await ops.call("PUT", "/admin/plans/sse-many", { rate_per_minute: 1000 })).status < 300);
    const p = await ops.call("POST", "/admin/projects", { name: "sse-many" });
    const k = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "many", plan: "sse-many" });
    assert.equal(k.status, 201, k.text);
    const own = new Client(edge.base, k.json.key);
    const follow = (id: string) => openEvents(edge.base, `/api/result/${id}/events`, { "x-api-key": k.json.key });
    const r = await own.submit({ language: "python", code: 'import time\ntime.sleep(2)\nprint("done")' });
    assert.equal(r.status, 202, r.text);
    const id = r.json.id as string;
    const events = follow;
    const live = await Promise.all(Array.from({ length: 16 }, () => events(id)));
    assert.deepEqual(live.map((s) => s.status), Array(16).fill(200));
    const extra = await events(id);
    assert.equal(extra.status, 429);
    assert.equal(extra.headers["retry-after"], "5");
    for (const s of live) assertWellFormed(await s.rest());
    const replays = await Promise.all(Array.from({ length: 17 }, () => events(id)));
    assert.deepEqual(replays.map((s) => s.status), Array(17).fill(200));
    for (const s of replays) await s.rest();
  });

  it("401 without or with a wrong API key", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const keys: Record<string, string>[] = [{}, { "x-api-key": "sk_live_" + "A".repeat(32) }];
    for (const h of keys) {
      const s = await openEvents(edge.base, `/api/result/${id}/events`, h);
      assert.equal(s.status, 401);
      assert.equal(s.error.error, "unauthorized");
    }
  });

  it("404 for an unknown id and for another account's submission; 400 for a non-UUID id and a bad Last-Event-ID", async () => {
    const unknown = await events("00000000-0000-4000-8000-000000000000");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.error.error, "submission not found");
    const id = await submit("print(1)");
    const other = (await ops.newKey()).key;
    const foreign = await openEvents(edge.base, `/api/result/${id}/events`, { "x-api-key": other });
    assert.equal(foreign.status, 404, "another account's id is not found");
    const bad = await events("not-a-uuid");
    assert.equal(bad.status, 400);
    assert.equal(bad.error.error, "invalid submission id");
    for (const [h, q, field] of [[{ "last-event-id": "x1" }, "", "Last-Event-ID"], [{}, "?last_event_id=-1", "last_event_id"], [{ "last-event-id": "99999999999" }, "", "Last-Event-ID"]] as const) {
      const s = await events(id, h, q);
      assert.equal(s.status, 400, JSON.stringify(s.error));
      assert.equal(s.error.error, `invalid ${field}`);
      assert.match(s.error.message, new RegExp(field));
    }
    const method = await c.call("POST", `/api/result/${id}/events`);
    assert.equal(method.status, 405);
  });
});
