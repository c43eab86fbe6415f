// The public API against the real Worker (workerd, HTTPS) and a real fleet node: errors and bad
// input (never a 5xx), idempotency, the rate and in-flight limits, and the admin API.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client, sleep } from "./harness.ts";
import { CheckedClient, UUID, assertJsonError, useApiStack } from "./api-checks.ts";

const { stack, client } = useApiStack();

describe("errors of docs/api.md and bad input (never a 5xx)", () => {
  it("400 for empty code, unsupported language, oversize code and stdin, per-request webhooks", async () => {
    const c = await client();
    assertJsonError(await c.submit({ language: "py", code: "" }), 400, "code must not be empty");
    const lang = await c.submit({ language: "cobol", code: "x" });
    assertJsonError(lang, 400, /cobol/);
    assert.match(lang.json.error, /python/);
    assert.match(lang.json.error, /\bc\b/);
    // Accepted by the API but not offered by any ready node (when the machine lacks one).
    const available: string[] = (await c.call("GET", "/api/languages")).json;
    assert.deepEqual(lang.json.available, available);
    const aliases: Record<string, string> = { "c++": "cpp", js: "javascript", ts: "typescript", rs: "rust", go: "go", java: "java" };
    const missing = Object.entries(aliases).find(([, canonical]) => !available.includes(canonical));
    if (missing) {
      const r = await c.submit({ language: missing[0], code: "x" });
      assertJsonError(r, 400, new RegExp(`'${missing[0].replace(/\+/g, "\\+")}'`));
      assert.deepEqual(r.json.available, available);
    }
    assertJsonError(await c.submit({ language: "py", code: "#".repeat(64 * 1024 + 1) }), 400, /code too large/);
    assert.equal((await c.submit({ language: "py", code: "#".repeat(64 * 1024) })).status, 202);
    assertJsonError(await c.submit({ language: "py", code: "print(1)", stdin: "x".repeat(262_145) }), 400, /stdin too large/);
    // Exactly the documented 256 KiB (262 144 bytes) is accepted and reaches the program whole.
    const full = await c.submit({ language: "py", code: "import sys\nprint(len(sys.stdin.buffer.read()))", stdin: "x".repeat(262_144) }, { wait: true });
    assert.equal(full.status, 200, full.text);
    assert.equal(full.json.stdout, "262144\n");
    assertJsonError(await c.submit({ language: "py", code: "print(1)", webhook_url: "https://example.com/h" }), 400, /webhook_url/);
    assertJsonError(await c.submit({ language: "py", code: "print(1)", webhook_secret: "whsec_x" }), 400, /webhook_secret/);
  });
  it("wrong types, unknown fields, wrong content type, invalid UTF-8 and JSON, huge bodies", async () => {
    const c = await client();
    const cases: [string, Parameters<Client["call"]>[2], number][] = [
      ["number language", { body: { language: 3, code: "x" } }, 400],
      ["array code", { body: { language: "py", code: ["x"] } }, 400],
      ["null stdin", { body: { language: "py", code: "x", stdin: null } }, 400],
      ["missing code", { body: { language: "py" } }, 400],
      ["unknown field", { body: { language: "py", code: "x", priority: 1 } }, 400],
      ["array body", { body: [1, 2] }, 400],
      ["string body", { body: "hello" }, 400],
      ["null body", { body: null }, 400],
      ["invalid JSON", { raw: "{language:", headers: { "content-type": "application/json" } }, 400],
      ["empty body", { raw: "", headers: { "content-type": "application/json" } }, 400],
      ["invalid UTF-8", { raw: Buffer.from([0x7b, 0x22, 0x61, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), headers: { "content-type": "application/json" } }, 400],
      ["text/plain", { raw: '{"language":"py","code":"x"}', headers: { "content-type": "text/plain" } }, 415],
      ["no content type", { raw: '{"language":"py","code":"x"}' }, 415],
      ["form", { raw: "language=py&code=x", headers: { "content-type": "application/x-www-form-urlencoded" } }, 415],
      ["latin1 charset", { raw: '{"language":"py","code":"x"}', headers: { "content-type": "application/json; charset=latin1" } }, 415],
      ["3 MiB body", { raw: Buffer.alloc(3 * 1024 * 1024, 0x20), headers: { "content-type": "application/json" } }, 413],
      ["deep nesting", { raw: "[".repeat(100_000), headers: { "content-type": "application/json" } }, 400],
      ["idempotency key not a UUID", { body: { language: "py", code: "x" }, headers: { "idempotency-key": "abc" } }, 400],
    ];
    for (const [name, opts, status] of cases) {
      const r = await c.call("POST", "/api/submit", opts);
      assert.equal(r.status, status, `${name}: ${r.status} ${r.text.slice(0, 200)}`);
      assert.equal(typeof r.json?.error, "string", `${name}: ${r.text.slice(0, 200)}`);
      if (c.key) await sleep(0);
    }
  });
  it("a body over the limit gets its 413 JSON answer every time, while the client is still sending it", async () => {
    const c = await client();
    for (let i = 0; i < 10; i++) {
      const r = await c.call("POST", "/api/submit", { raw: Buffer.alloc(3 * 1024 * 1024 + i * 4099, 0x20), headers: { "content-type": "application/json" } });
      assert.equal(r.status, 413, r.text.slice(0, 200));
      assert.equal(r.json?.error, "request body too large");
      await sleep(0);
    }
  });
  it("odd result ids and methods never produce a 5xx", async () => {
    const c = await client();
    for (const p of ["/api/result/%ff", "/api/result/..%2f..%2fadmin", "/api/result/" + "a".repeat(5000), "/api/result/%00"]) {
      const r = await c.call("GET", p);
      assert.ok(r.status >= 400 && r.status < 500, `${p}: ${r.status}`);
      assert.equal(typeof r.json?.error, "string");
    }
    assertJsonError(await c.call("DELETE", "/api/submit"), 405, "method not allowed");
    assertJsonError(await c.call("POST", "/api/health"), 405);
  });
});


describe("idempotency", () => {
  it("10 concurrent duplicates create one submission and all get its id with 202", async () => {
    const k = await stack.ops.newKey();
    const c = new CheckedClient(stack.edge.base, k.key);
    const ik = crypto.randomUUID();
    const rs = await Promise.all(
      Array.from({ length: 10 }, () => c.submit({ language: "py", code: "print('once')" }, { headers: { "idempotency-key": ik } })),
    );
    for (const r of rs) assert.equal(r.status, 202, r.text);
    const ids = new Set(rs.map((r) => r.json.id));
    assert.equal(ids.size, 1);
    const usage = await stack.ops.call("GET", `/admin/keys/${k.key_id}/usage`);
    assert.equal(usage.json.counters.submissions, 1, usage.text);
    const [id] = [...ids];
    await c.terminal(id!);
    // Later duplicate: the existing (completed) record, still 202, still no new run.
    const again = await c.submit({ language: "py", code: "print('different')" }, { headers: { "idempotency-key": ik }, wait: true });
    assert.equal(again.status, 202);
    assert.equal(again.json.id, id);
    assert.equal(again.json.stdout, "once\n");
    assert.equal((await stack.ops.call("GET", `/admin/keys/${k.key_id}/usage`)).json.counters.submissions, 1);
    // Scoped to the API key, not the project: another key of the SAME project gets its own run.
    const sibling = new CheckedClient(stack.edge.base, (await stack.ops.newKey(k.project_id)).key);
    const sib = await sibling.submit({ language: "py", code: "print('sibling')" }, { headers: { "idempotency-key": ik }, wait: true });
    assert.equal(sib.status, 200, sib.text);
    assert.notEqual(sib.json.id, id);
    assert.equal(sib.json.stdout, "sibling\n");
    const other = await client();
    const o = await other.submit({ language: "py", code: "print(1)" }, { headers: { "idempotency-key": ik } });
    assert.equal(o.status, 202);
    assert.notEqual(o.json.id, id);
  });
});


describe("limits (docs/api.md)", () => {
  it("61 requests in a minute: the 61st is 429 quota exceeded with Retry-After", async () => {
    const c = await client();
    for (let i = 0; i < 60; i++) {
      const r = await c.call("GET", i % 2 ? "/api/health" : "/api/languages");
      assert.equal(r.status, 200, `request ${i + 1}: ${r.text}`);
    }
    for (const [m, p] of [["GET", "/api/health"], ["POST", "/api/submit"], ["GET", "/api/result/0b9d3c4e-1111-4222-8333-444455556666"]] as const) {
      const r = await c.call(m, p, m === "POST" ? { body: { language: "py", code: "print(1)" } } : {});
      assertJsonError(r, 429, "quota exceeded");
      const ra = Number(r.headers["retry-after"]);
      assert.ok(Number.isInteger(ra) && ra >= 1 && ra <= 60, `Retry-After ${r.headers["retry-after"]}`);
      assert.equal(r.headers["ratelimit-remaining"], "0");
    }
  });
  it("11 concurrent long runs for one key: 10 accepted, the 11th is 429; never more than 10 in flight", async () => {
    const k = await stack.ops.newKey();
    const c = new CheckedClient(stack.edge.base, k.key);
    const code = "import time\ntime.sleep(1)\nprint('ok')";
    const rs = await Promise.all(Array.from({ length: 11 }, () => c.submit({ language: "py", code })));
    const accepted = rs.filter((r) => r.status === 202);
    const refused = rs.filter((r) => r.status === 429);
    assert.equal(accepted.length, 10, rs.map((r) => r.status).join(","));
    assert.equal(refused.length, 1);
    assertJsonError(refused[0]!, 429, "quota exceeded");
    assert.ok(Number(refused[0]!.headers["retry-after"]) >= 1);
    let maxSeen = 0;
    const pending = new Set(accepted.map((r) => r.json.id as string));
    const deadline = Date.now() + 60_000;
    while (pending.size > 0 && Date.now() < deadline) {
      const u = await stack.ops.call("GET", `/admin/keys/${k.key_id}/usage`);
      maxSeen = Math.max(maxSeen, u.json.in_flight);
      assert.ok(u.json.in_flight <= 10);
      await sleep(1_000);
      for (const id of [...pending]) {
        const r = await c.result(id);
        if (r.json.job_status === "completed") pending.delete(id);
        else assert.notEqual(r.json.job_status, "error", r.text);
      }
    }
    assert.equal(pending.size, 0);
    assert.ok(maxSeen <= 10);
    const next = await c.submit({ language: "py", code: "print(1)" });
    assert.equal(next.status, 202, next.text);
  });
});


describe("admin API", () => {
  it("requires the operator token", async () => {
    for (const h of [{}, { authorization: "Bearer nope" }, { authorization: stack.edge.operatorToken }] as Record<string, string>[]) {
      const r = await new CheckedClient(stack.edge.base, null).call("GET", "/admin/nodes", { headers: h });
      assertJsonError(r, 401, "unauthorized");
    }
  });
  it("creates projects and keys (shown once, stored hashed), lists nodes without their token", async () => {
    assertJsonError(await stack.ops.call("POST", "/admin/projects", { nope: 1 }), 400);
    const p = await stack.ops.call("POST", "/admin/projects", { name: "acme", account_id: "acct_acme" });
    assert.equal(p.status, 201);
    const k = await stack.ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "ci" });
    assert.equal(k.status, 201);
    assert.match(k.json.key, /^sk_live_[0-9A-Za-z]{32}$/);
    assert.equal(k.json.account_id, "acct_acme");
    const list = await stack.ops.call("GET", `/admin/projects/${p.json.id}/keys`);
    assert.equal(list.json.length, 1);
    assert.equal(list.json[0].key, undefined);
    assert.ok(!list.text.includes(k.json.key));
    assertJsonError(await stack.ops.call("POST", `/admin/projects/${p.json.id}/keys`, { key: "sk_live_short" }), 400);
    assertJsonError(await stack.ops.call("POST", "/admin/projects/prj_nope/keys", {}), 404);
    const nodes = await stack.ops.call("GET", "/admin/nodes");
    assert.equal(nodes.status, 200);
    assert.equal(nodes.json.length, 1);
    assert.equal(nodes.json[0].ready, true);
    assert.ok(!nodes.text.includes(stack.fleet.token));
    assertJsonError(await stack.ops.call("POST", "/admin/nodes", { url: "http://127.0.0.1:1", token: "x" }), 502);
    assertJsonError(await stack.ops.call("POST", "/admin/nodes", { url: "http://10.0.0.1:50052", token: "x" }), 400);
  });
});
