// Plans (admin API and CLI), batches and GET /api/results, against the real Worker (workerd,
// HTTPS) and a real fleet node.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client, sleep } from "./harness.ts";
import { cli, cliJson } from "../operators/cli-helpers.ts";
import { UUID, assert400, useV11Stack } from "./api-v11-checks.ts";
import { assertDocumented } from "./openapi-check.ts";

const { stack, keyOn, usage } = useV11Stack();

describe("plans", () => {
  it("admin API: the default plan lists today's numbers; PUT makes and changes a plan; bad input is a 400", async () => {
    const list = await stack.ops.call("GET", "/admin/plans");
    assert.equal(list.status, 200, list.text);
    const def = list.json.find((p: { name: string }) => p.name === "default");
    assert.deepEqual(def, {
      name: "default", rate_per_minute: 60, max_in_flight: 10, max_wall_time_ms: 10_000, max_cpu_time_ms: 10_000, max_memory_mb: 256,
      max_processes: 64, max_output_kb: 1024, max_tests: 100, max_batch: 20,
    });
    const put = await stack.ops.call("PUT", "/admin/plans/small", { max_memory_mb: 64, max_tests: 2 });
    assert.equal(put.status, 201, put.text);
    assert.equal(put.json.max_memory_mb, 64);
    assert.equal(put.json.rate_per_minute, 60, "fields not given start from the default plan");
    const again = await stack.ops.call("PUT", "/admin/plans/small", { max_batch: 3 });
    assert.equal(again.status, 200);
    assert.equal(again.json.max_memory_mb, 64, "fields not given keep their value");
    assert.equal((await stack.ops.call("GET", "/admin/plans/small")).json.max_batch, 3);
    assert.equal((await stack.ops.call("GET", "/admin/plans/nope")).status, 404);
    assert400(await stack.ops.call("PUT", "/admin/plans/small", { max_memory_mb: 512 }), "invalid request", /max_memory_mb/);
    assert400(await stack.ops.call("PUT", "/admin/plans/small", { compile_memory_mb: 1025 }), "invalid request", /compile_memory_mb/);
    assert400(await stack.ops.call("PUT", "/admin/plans/small", { rate: 5 }), "invalid request", /unknown field/);
    assert400(await stack.ops.call("PUT", "/admin/plans/Bad%20Name", {}), "invalid plan name");
  });

  it("GET /api/limits: the key's plan, every default filled in; counted like every request", async () => {
    assert.equal((await stack.ops.call("PUT", "/admin/plans/shown", { max_memory_mb: 128, max_sessions: 3, output_budget_kb: 512 })).status, 201);
    const { c } = await keyOn("shown");
    const r = await c.call("GET", "/api/limits");
    assert.equal(r.status, 200, r.text);
    assertDocumented("GET", "/api/limits", r);
    assert.deepEqual(r.json, {
      name: "shown", rate_per_minute: 60, max_in_flight: 10, max_wall_time_ms: 10_000, max_cpu_time_ms: 10_000, max_memory_mb: 128,
      max_processes: 64, max_output_kb: 1024, max_tests: 100, max_batch: 20,
      checker_wall_time_ms: 5000, checker_cpu_time_ms: 5000, checker_memory_mb: 256,
      compile_wall_time_ms: 30_000, compile_cpu_time_ms: 60_000, compile_memory_mb: 1024, tests_wall_budget_ms: 120_000,
      session_max_secs: 300, session_idle_secs: 60, session_stdin_kb: 16 * 1024, max_sessions: 3, output_budget_kb: 512, shard_storage_mb: 256,
    });
    assert.equal(Number(r.headers["ratelimit-remaining"]), 59, "the request itself is counted");
    assert.equal((await c.call("POST", "/api/limits")).status, 405);
  });

  it("a key on a plan is held to its caps (limits, tests, batch, rate)", async () => {
    assert.equal((await stack.ops.call("PUT", "/admin/plans/tight", { rate_per_minute: 4, max_memory_mb: 64, max_tests: 2, max_batch: 2, compile_memory_mb: 128 })).status, 201);
    const { c } = await keyOn("tight");
    const base = { language: "py", code: "print(1)" };
    assert.deepEqual((await c.submit({ ...base, limits: { memory_mb: 65 } })).json, {
      error: "limits.memory_mb above the plan's cap", message: "limits.memory_mb is 65; the plan 'tight' allows at most 64",
    });
    assert400(await c.submit({ ...base, tests: [{}, {}, {}] }), "tests above the plan's cap", /the plan 'tight' allows at most 2/);
    assert.deepEqual((await c.submit({ ...base, compile_limits: { memory_mb: 129 } })).json, {
      error: "compile_limits.memory_mb above the plan's cap", message: "compile_limits.memory_mb is 129; the plan 'tight' allows at most 128",
    });
    const r = await c.submit(base);
    assert.equal(r.status, 202, r.text);
    assert.equal(r.headers["ratelimit-limit"], "4");
    const refused = await c.submit(base);
    assert.equal(refused.status, 429, refused.text);
    assert.match(refused.json.message, /rate limit of 4 requests per minute/);
  });

  it("synchronous submits count against the rate at once, before their hits are written", async () => {
    assert.equal((await stack.ops.call("PUT", "/admin/plans/sync3", { rate_per_minute: 3 })).status, 201);
    const { c, key_id } = await keyOn("sync3");
    for (let i = 0; i < 3; i++) {
      const r = await c.submit({ language: "py", code: `print(${i})` }, { wait: true });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers["ratelimit-remaining"], String(2 - i));
    }
    // Usually within a second of the first: the key's object still holds the three hits in memory only.
    const limited = await c.submit({ language: "py", code: "print(3)" }, { wait: true });
    assert.equal(limited.status, 429, limited.text);
    assert.match(limited.json.message, /rate limit of 3 requests per minute/);
    assert.deepEqual(await usage(key_id), { submissions: 3, requests_last_minute: 3, in_flight: 0 });
    await sleep(1_200);
    assert.equal((await c.submit({ language: "py", code: "print(4)" }, { wait: true })).status, 429, "written, they still count");
  });

  it("keys create with an unknown plan: a clear 400, no key made", async () => {
    const p = await stack.ops.call("POST", "/admin/projects", { name: "x" });
    const k = await stack.ops.call("POST", `/admin/projects/${p.json.id}/keys`, { plan: "gold-nope" });
    assert400(k, "unknown plan", /no plan named 'gold-nope'/);
    assert.equal((await stack.ops.call("GET", `/admin/keys?project=${p.json.id}`)).json.length, 0);
  });

  it("CLI: plans set and list; keys create --plan; a plan set by the CLI changes the key's caps", async () => {
    const set = await cliJson(stack.edge, "plans", "set", "cli-plan", "--rate", "3", "--max-in-flight", "1", "--max-memory-mb", "32", "--checker-memory-mb", "64", "--tests-wall-budget-ms", "30000");
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.json.rate_per_minute, 3);
    assert.equal(set.json.max_in_flight, 1);
    assert.equal(set.json.checker_memory_mb, 64);
    assert.equal(set.json.tests_wall_budget_ms, 30_000);
    const list = await cliJson(stack.edge, "plans", "list");
    assert.ok(list.json.some((p: { name: string }) => p.name === "cli-plan"));
    const human = await cli(stack.edge, ["--insecure", "plans", "list"]);
    assert.match(human.stdout, /cli-plan\s+3\s+1\s/);
    const bad = await cli(stack.edge, ["--insecure", "plans", "set", "cli-plan", "--rate", "many"]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--rate must be a whole number/);

    const p = await stack.ops.call("POST", "/admin/projects", { name: "cli" });
    const unknown = await cli(stack.edge, ["--insecure", "keys", "create", "--project", p.json.id, "--plan", "no-such-plan"]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /unknown plan: no plan named 'no-such-plan'/);
    const made = await cliJson(stack.edge, "keys", "create", "--project", p.json.id, "--plan", "cli-plan");
    assert.equal(made.code, 0, made.stderr);
    assert.equal(made.json.plan, "cli-plan");
    const c = new Client(stack.edge.base, made.json.key);
    assert400(await c.submit({ language: "py", code: "print(1)", limits: { memory_mb: 33 } }), "limits.memory_mb above the plan's cap", /'cli-plan' allows at most 32/);
    // In-flight cap 1: a second submission while the first sleeps is refused.
    const first = await c.submit({ language: "py", code: "import time\ntime.sleep(3)" });
    assert.equal(first.status, 202, first.text);
    const second = await c.submit({ language: "py", code: "print(2)" });
    assert.equal(second.status, 429, second.text);
    assert.match(second.json.message, /at most 1 submissions may be in flight/);
    // Raising the plan's caps by the CLI applies to the key at once (the edge forgets its cached copy).
    const limited = await c.submit({ language: "py", code: "print(3)" });
    assert.equal(limited.status, 429, "the 3 requests a minute are used up");
    assert.match(limited.json.message, /rate limit of 3 requests per minute/);
    assert.equal((await cliJson(stack.edge, "plans", "set", "cli-plan", "--rate", "50", "--max-in-flight", "5")).code, 0);
    const after = await c.submit({ language: "py", code: "print(3)" });
    assert.equal(after.status, 202, after.text);
    assert.equal(after.headers["ratelimit-limit"], "50");
  });
});

describe("batches and GET /api/results", () => {
  it("an item too large for one fleet message is refused with its size, before anything is stored; the others are accepted", async () => {
    const { c, key_id } = await keyOn("default");
    const MiB = 1024 * 1024;
    const big = Buffer.alloc(MiB, 0x61).toString("base64");
    const tests = Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, stdin: "", expected_output: big }));
    const r = await c.call("POST", "/api/submit/batch", {
      body: { submissions: [{ language: "py", code: Buffer.from("print(1)").toString("base64"), encoding: "base64", tests }, { language: "py", code: "print('ok')" }] },
    });
    assert.equal(r.status, 202, r.text.slice(0, 500));
    const [tooLarge, ok] = r.json.submissions;
    assert.equal(tooLarge.error, "submission too large");
    assert.match(tooLarge.message, /encodes to \d+ bytes for the fleet; at most 4194304/);
    assert.match(ok.id, UUID);
    assert.equal((await usage(key_id)).submissions, 1);
  });

  it("a batch with one bad item accepts the others, in order; each counts against the rate", async () => {
    assert.equal((await stack.ops.call("PUT", "/admin/plans/batch3", { rate_per_minute: 3 })).status, 201);
    const { c, key_id } = await keyOn("batch3");
    const r = await c.call("POST", "/api/submit/batch", {
      body: {
        submissions: [
          { language: "py", code: "print('a')" },
          { language: "py", code: "print('b')", limits: { memory_mb: 9999 } },
          { language: "cobol", code: "x" },
          { language: "py", code: "print('c')" },
          { language: "py", code: "print('d')" },
          { language: "py", code: "print('e')" },
        ],
      },
    });
    assert.equal(r.status, 202, r.text);
    const s = r.json.submissions;
    assert.equal(s.length, 6);
    assert.match(s[0].id, UUID);
    assert.equal(s[0].job_status, "pending");
    assert.equal(s[1].error, "limits.memory_mb above the plan's cap");
    assert.match(s[2].error, /unsupported language "cobol"/);
    assert.match(s[3].id, UUID);
    assert.match(s[4].id, UUID);
    assert.equal(s[5].error, "quota exceeded", "the fourth valid item is over the rate of 3");
    assert.ok(s[5].retry_after >= 1);
    const u = await usage(key_id);
    assert.equal(u.submissions, 3);
    assert.equal(u.requests_last_minute, 3);

    // GET /api/results is a request too: this key is out of requests for the minute.
    assert.equal((await c.call("GET", `/api/results?ids=${s[0].id}`)).status, 429);
  });

  it("each batch item takes an in-flight unit", async () => {
    assert.equal((await stack.ops.call("PUT", "/admin/plans/inflight2", { max_in_flight: 2 })).status, 201);
    const { c } = await keyOn("inflight2");
    const sleep3 = { language: "py", code: "import time\ntime.sleep(3)" };
    const r = await c.call("POST", "/api/submit/batch", { body: { submissions: [sleep3, sleep3, sleep3] } });
    assert.equal(r.status, 202, r.text);
    assert.match(r.json.submissions[0].id, UUID);
    assert.match(r.json.submissions[1].id, UUID);
    assert.equal(r.json.submissions[2].error, "quota exceeded");
    assert.match(r.json.submissions[2].message, /at most 2 submissions may be in flight/);
  });

  it("results?ids: records in order, unknown ids marked, bad ids refused", async () => {
    const { c } = await keyOn();
    const b = await c.call("POST", "/api/submit/batch", { body: { submissions: [{ language: "py", code: "print(1)" }, { language: "py", code: "print(2)" }] } });
    assert.equal(b.status, 202, b.text);
    const [x, y] = b.json.submissions.map((s: { id: string }) => s.id);
    await c.terminal(x);
    await c.terminal(y);
    const missing = "00000000-0000-4000-8000-000000000000";
    const r = await c.call("GET", `/api/results?ids=${y},${missing},${x}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.results.length, 3);
    assert.equal(r.json.results[0].id, y);
    assert.equal(r.json.results[0].stdout, "2\n");
    assert.deepEqual(r.json.results[1], { id: missing, error: "submission not found" });
    assert.equal(r.json.results[2].stdout, "1\n");
    // Another key's submission is "not found" to this one.
    const other = await keyOn();
    assert.deepEqual((await other.c.call("GET", `/api/results?ids=${x}`)).json.results[0], { id: x, error: "submission not found" });
    assert400(await c.call("GET", "/api/results?ids=nope"), "invalid ids", /UUID/);
    assert400(await c.call("GET", "/api/results"), "invalid ids");
    assert400(await c.call("GET", `/api/results?ids=${Array.from({ length: 21 }, () => missing).join(",")}`), "ids above the plan's cap", /at most 20/);
  });

  it("batch-level problems: 400, nothing submitted", async () => {
    const { c, key_id } = await keyOn();
    const one = [{ language: "py", code: "print(1)" }];
    assert400(await c.call("POST", "/api/submit/batch?wait=true", { body: { submissions: one } }), "invalid wait parameter");
    assert400(await c.call("POST", "/api/submit/batch", { body: { submissions: [] } }), "invalid submissions");
    assert400(await c.call("POST", "/api/submit/batch", { body: { submissions: "x" } }), "invalid submissions");
    assert400(await c.call("POST", "/api/submit/batch", { body: { submissions: one, extra: 1 } }), "invalid request", /unknown field/);
    assert400(await c.call("POST", "/api/submit/batch", { body: { submissions: Array.from({ length: 21 }, () => one[0]) } }), "submissions above the plan's cap", /at most 20/);
    assert400(await c.call("POST", "/api/submit/batch", { body: { submissions: one }, headers: { "idempotency-key": "00000000-0000-4000-8000-000000000000" } }), "invalid Idempotency-Key");
    const allBad = await c.call("POST", "/api/submit/batch", { body: { submissions: [5, { language: "py" }] } });
    assert.equal(allBad.status, 202, allBad.text);
    assert.equal(allBad.json.submissions[0].error, "invalid request");
    assert.match(allBad.json.submissions[1].message, /code is required/);
    await sleep(10);
    assert.equal((await usage(key_id)).submissions, 0);
  });
});
