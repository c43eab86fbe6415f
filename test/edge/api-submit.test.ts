// The public API against the real Worker (workerd, HTTPS) and a real fleet node: authentication,
// health, readiness and languages, submit and result, and the OpenAPI document every answer is
// checked against (api-checks.ts).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Client, ROOT, sleep } from "./harness.ts";
import { CheckedClient, ISO_MS, RECORD_KEYS, UUID, assertJsonError, useApiStack, validated } from "./api-checks.ts";

const { stack, client } = useApiStack();

describe("authentication (docs/api.md)", () => {
  it("every endpoint answers 401 unauthorized without or with a wrong X-API-Key", async () => {
    const anon = new CheckedClient(stack.edge.base, null);
    const wrong = new CheckedClient(stack.edge.base, "sk_live_" + "A".repeat(32));
    const paths: [string, string][] = [
      ["GET", "/api/health"], ["GET", "/api/health/ready"], ["GET", "/api/languages"], ["POST", "/api/submit"],
      ["GET", "/api/result/00000000-0000-4000-8000-000000000000"], ["GET", "/api/nope"],
    ];
    for (const c of [anon, wrong]) {
      for (const [m, p] of paths) {
        const r = await c.call(m, p, m === "POST" ? { body: { language: "py", code: "print(1)" } } : {});
        assertJsonError(r, 401, "unauthorized");
        assert.equal(r.json.message, "missing or invalid API key");
      }
    }
  });
  it("a key is matched whole: a prefix, an extension or one changed character is refused", async () => {
    const { key } = await stack.ops.newKey();
    assert.equal((await new CheckedClient(stack.edge.base, key).call("GET", "/api/health")).status, 200);
    const last = key.at(-1) === "A" ? "B" : "A";
    for (const near of [key.slice(0, -1), `${key}A`, `${key.slice(0, -1)}${last}`, key.slice(0, 16)]) {
      const r = await new CheckedClient(stack.edge.base, near).call("GET", "/api/health");
      assertJsonError(r, 401, "unauthorized");
    }
  });

  it("a revoked key stops working", async () => {
    const k = await stack.ops.newKey();
    const c = new CheckedClient(stack.edge.base, k.key);
    assert.equal((await c.call("GET", "/api/health")).status, 200);
    assert.equal((await stack.ops.call("DELETE", `/admin/keys/${k.key_id}`)).status, 200);
    await sleep(50);
    // The isolate's short auth cache may still hold it for up to 10 s.
    const deadline = Date.now() + 12_000;
    let r = await c.call("GET", "/api/health");
    while (r.status !== 401 && Date.now() < deadline) {
      await sleep(500);
      r = await c.call("GET", "/api/health");
    }
    assertJsonError(r, 401, "unauthorized");
  });
});


describe("health, readiness, languages (docs/api.md)", () => {
  it("GET /api/health reports status, enforcement_mode, workers, queue_depth", async () => {
    const c = await client();
    const r = await c.call("GET", "/api/health");
    assert.equal(r.status, 200);
    assert.match(String(r.headers["content-type"]), /^application\/json/);
    assert.deepEqual(Object.keys(r.json).sort(), ["enforcement_mode", "queue_depth", "status", "workers"]);
    assert.equal(r.json.status, "ok");
    assert.equal(r.json.enforcement_mode, "strict");
    assert.ok(Number.isInteger(r.json.workers) && r.json.workers >= 1);
    assert.equal(r.json.queue_depth, 0);
    assert.equal(r.headers["ratelimit-limit"], "60");
  });
  it("GET /api/health/ready is 200 with a ready strict node", async () => {
    const r = await (await client()).call("GET", "/api/health/ready");
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.ready, true);
  });
  it("GET /api/languages lists canonical names from the ready nodes", async () => {
    const r = await (await client()).call("GET", "/api/languages");
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.json));
    assert.ok(r.json.includes("python") && r.json.includes("c"), r.text);
    for (const l of r.json) assert.ok(["python", "c", "cpp", "java", "javascript", "typescript", "go", "rust", "multi-file"].includes(l));
  });
  it("unknown paths are JSON 404s", async () => {
    const c = await client();
    assertJsonError(await c.call("GET", "/api/nope"), 404);
    assertJsonError(await c.call("GET", "/"), 404);
  });
});


describe("submit and result (docs/api.md)", () => {
  it("to a client that accepts gzip, a small answer goes out as it is and a large one compressed (edge/src/lib/http.ts)", async () => {
    const c = await client();
    const gzip = { headers: { "accept-encoding": "gzip, br" } };
    const small = await c.call("POST", "/api/submit?wait=true", { ...gzip, body: { language: "py", code: "print('hi')" } });
    assert.equal(small.status, 200, small.text);
    assert.equal(small.headers["content-encoding"], "identity");
    assert.equal(small.json.stdout, "hi\n");
    // unchecked: the body stays compressed (the stack's client does not inflate it)
    const large = await new Client(c.base, c.key).call("POST", "/api/submit?wait=true", { ...gzip, body: { language: "py", code: "print('x' * 20000)" } });
    assert.equal(large.status, 200);
    assert.equal(large.headers["content-encoding"], "gzip");
  });

  it("async: 202 {id, job_status, queue_depth}, then the completed record", async () => {
    const c = await client();
    const r = await c.submit({ language: "python", code: "import sys\nprint('hello', sys.stdin.read())", stdin: "world" });
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(Object.keys(r.json).sort(), ["id", "job_status", "queue_depth"]);
    assert.match(r.json.id, UUID);
    assert.equal(r.json.job_status, "pending");
    assert.ok(Number.isInteger(r.json.queue_depth));
    const early = await c.result(r.json.id);
    assert.equal(early.status, 200);
    assert.ok(["pending", "running", "completed"].includes(early.json.job_status));
    const done = (await c.terminal(r.json.id)).json;
    assert.deepEqual(Object.keys(done).sort(), RECORD_KEYS);
    assert.equal(done.job_status, "completed");
    assert.equal(done.schema_version, "1.0");
    assert.equal(done.language, "python");
    assert.equal(done.verdict, "AC");
    assert.equal(done.exit_code, 0);
    assert.equal(done.signal, null);
    assert.equal(done.stdout, "hello world\n");
    assert.equal(done.output_integrity, "complete");
    assert.equal(done.error_message, null);
    assert.equal(done.evidence.isolation_mode, "strict");
    for (const f of ["created_at", "started_at", "completed_at"]) assert.match(done[f], ISO_MS);
    assert.ok(done.created_at <= done.started_at || Date.parse(done.started_at) - Date.parse(done.created_at) > -50);
    assert.ok(done.started_at <= done.completed_at);
  });
  it("sync: ?wait=true returns the full record with 200", async () => {
    const c = await client();
    const r = await c.submit({ language: "c", code: '#include <stdio.h>\nint main(void){puts("hi");return 3;}' }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.json).sort(), RECORD_KEYS);
    assert.equal(r.json.job_status, "completed");
    assert.equal(r.json.verdict, "RE");
    assert.equal(r.json.exit_code, 3);
    assert.equal(r.json.stdout, "hi\n");
    assert.equal((await c.result(r.json.id)).json.verdict, "RE");
  });
  it("sync: 408 with {error, message, id, job_status} when the hold expires, and the run still completes", async () => {
    const c = await client();
    const r = await c.submit({ language: "python", code: "import time\ntime.sleep(6.5)\nprint('late')" }, { wait: true });
    assertJsonError(r, 408);
    assert.deepEqual(Object.keys(r.json).sort(), ["error", "id", "job_status", "message"]);
    assert.match(r.json.id, UUID);
    assert.ok(["pending", "running"].includes(r.json.job_status));
    const done = await c.terminal(r.json.id);
    assert.equal(done.json.stdout, "late\n");
  });
  it("wait=false is async; any other wait value is 400", async () => {
    const c = await client();
    const a = await c.call("POST", "/api/submit?wait=false", { body: { language: "py", code: "print(1)" } });
    assert.equal(a.status, 202);
    for (const w of ["1", "yes", "TRUE", ""]) {
      assertJsonError(await c.call("POST", `/api/submit?wait=${w}`, { body: { language: "py", code: "print(1)" } }), 400);
    }
  });
  it("language aliases resolve to the canonical name in the record", async () => {
    const c = await client();
    const py = await c.submit({ language: "py", code: "print(2)" }, { wait: true });
    assert.equal(py.status, 200, py.text);
    assert.equal(py.json.language, "python");
    const cc = await c.submit({ language: "c", code: "int main(void){return 0;}" }, { wait: true });
    assert.equal(cc.json.language, "c");
    assert.equal(cc.json.verdict, "AC");
  });
  it("result: malformed id 400, unknown UUID 404 {error: submission not found}", async () => {
    const c = await client();
    assertJsonError(await c.result("not-a-uuid"), 400, /invalid submission id/);
    assertJsonError(await c.result("12345"), 400);
    const r = await c.result("0b9d3c4e-1111-4222-8333-444455556666");
    assertJsonError(r, 404, "submission not found");
  });
  it("another account's submission is not visible", async () => {
    const c1 = await client();
    const c2 = await client();
    const r = await c1.submit({ language: "py", code: "print(1)" });
    assertJsonError(await c2.result(r.json.id), 404, "submission not found");
  });
});


describe("the OpenAPI document (docs/openapi.json)", () => {
  it("GET /api/openapi.json needs no key and is docs/openapi.json byte for byte; /docs serves the renderer", async () => {
    const anon = new CheckedClient(stack.edge.base, null);
    const r = await anon.call("GET", "/api/openapi.json");
    assert.equal(r.status, 200);
    assert.equal(r.text, readFileSync(join(ROOT, "docs", "openapi.json"), "utf8"));
    assert.equal(r.headers["ratelimit-limit"], undefined);
    assertJsonError(await anon.call("POST", "/api/openapi.json"), 405);
    const page = await anon.call("GET", "/docs");
    assert.equal(page.status, 200);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    assert.match(page.text, /\/api\/openapi\.json/);
    const bundle = await anon.call("GET", "/docs/swagger-ui-bundle.js");
    assert.equal(bundle.status, 200);
    assert.match(String(bundle.headers["content-type"]), /javascript/);
    assert.ok(bundle.text.includes("SwaggerUIBundle"));
    assertJsonError(await anon.call("GET", "/docs/package.json"), 404);
  });
  it("every route this file exercises had its answers validated against the document", () => {
    for (const op of ["POST /api/submit", "GET /api/result/{id}", "GET /api/health", "GET /api/health/ready", "GET /api/languages", "GET /api/openapi.json"]) {
      assert.ok(validated.has(op), `${op} never validated (validated: ${[...validated].join(", ")})`);
    }
  });
});
