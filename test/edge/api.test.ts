// The public API and admin API against the real Worker (workerd, HTTPS) and a real fleet node.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, ROOT, admin, cleanup, sleep, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet, Res } from "./harness.ts";
import { DOCUMENT, assertDocumented, templateOf } from "./openapi-check.ts";

let fleet: Fleet;
let edge: Edge;
let ops: ReturnType<typeof admin>;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RECORD_KEYS = [
  "completed_at", "cpu_time_secs", "created_at", "error_message", "evidence", "exit_code", "id", "job_status", "language",
  "memory_peak_bytes", "output_integrity", "schema_version", "signal", "started_at", "stderr", "stdout", "verdict", "wall_time_secs",
].sort();

/** Every answer to a documented route is validated against docs/openapi.json (response validation). */
const validated = new Set<string>();
class CheckedClient extends Client {
  override async call(method: string, path: string, opts: Parameters<Client["call"]>[2] = {}): Promise<Res> {
    const r = await super.call(method, path, opts);
    let template: string | null = null;
    try {
      template = templateOf(path);
    } catch {}
    if (template && DOCUMENT.paths[template][method.toLowerCase()]) {
      assertDocumented(method, path, r);
      validated.add(`${method} ${template}`);
    }
    return r;
  }
}

async function client(): Promise<Client> {
  const k = await ops.newKey();
  return new CheckedClient(edge.base, k.key);
}

function assertJsonError(r: Res, status: number, error?: RegExp | string): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text.slice(0, 300)}`);
  assert.match(String(r.headers["content-type"]), /^application\/json/);
  assert.equal(typeof r.json?.error, "string", r.text);
  if (typeof error === "string") assert.equal(r.json.error, error);
  else if (error) assert.match(r.json.error, error);
}

before(async () => {
  fleet = await startFleet();
  edge = await startEdge();
  ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  assert.equal(reg.status, 201, reg.text);
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

describe("authentication (docs/api.md)", () => {
  it("every endpoint answers 401 unauthorized without or with a wrong X-API-Key", async () => {
    const anon = new CheckedClient(edge.base, null);
    const wrong = new CheckedClient(edge.base, "sk_live_" + "A".repeat(32));
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
    const { key } = await ops.newKey();
    assert.equal((await new CheckedClient(edge.base, key).call("GET", "/api/health")).status, 200);
    const last = key.at(-1) === "A" ? "B" : "A";
    for (const near of [key.slice(0, -1), `${key}A`, `${key.slice(0, -1)}${last}`, key.slice(0, 16)]) {
      const r = await new CheckedClient(edge.base, near).call("GET", "/api/health");
      assertJsonError(r, 401, "unauthorized");
    }
  });

  it("a revoked key stops working", async () => {
    const k = await ops.newKey();
    const c = new CheckedClient(edge.base, k.key);
    assert.equal((await c.call("GET", "/api/health")).status, 200);
    assert.equal((await ops.call("DELETE", `/admin/keys/${k.key_id}`)).status, 200);
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
    for (const l of r.json) assert.ok(["python", "c", "cpp", "java", "javascript", "typescript", "go", "rust"].includes(l));
  });
  it("unknown paths are JSON 404s", async () => {
    const c = await client();
    assertJsonError(await c.call("GET", "/api/nope"), 404);
    assertJsonError(await c.call("GET", "/"), 404);
  });
});

describe("submit and result (docs/api.md)", () => {
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

describe("errors of docs/api.md and bad input (never a 5xx)", () => {
  it("400 for empty code, unsupported language, oversize code and stdin, per-request webhooks", async () => {
    const c = await client();
    assertJsonError(await c.submit({ language: "py", code: "" }), 400, "code must not be empty");
    const lang = await c.submit({ language: "cobol", code: "x" });
    assertJsonError(lang, 400, /cobol/);
    assert.match(lang.json.error, /python/);
    assert.match(lang.json.error, /\bc\b/);
    // Accepted by the spec but not offered by any ready node (when the machine lacks one).
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
    // Exactly the spec's 256 KiB (262 144 bytes) is accepted and reaches the program whole.
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
    const k = await ops.newKey();
    const c = new CheckedClient(edge.base, k.key);
    const ik = crypto.randomUUID();
    const rs = await Promise.all(
      Array.from({ length: 10 }, () => c.submit({ language: "py", code: "print('once')" }, { headers: { "idempotency-key": ik } })),
    );
    for (const r of rs) assert.equal(r.status, 202, r.text);
    const ids = new Set(rs.map((r) => r.json.id));
    assert.equal(ids.size, 1);
    const usage = await ops.call("GET", `/admin/keys/${k.key_id}/usage`);
    assert.equal(usage.json.counters.submissions, 1, usage.text);
    const [id] = [...ids];
    await c.terminal(id!);
    // Later duplicate: the existing (completed) record, still 202, still no new run.
    const again = await c.submit({ language: "py", code: "print('different')" }, { headers: { "idempotency-key": ik }, wait: true });
    assert.equal(again.status, 202);
    assert.equal(again.json.id, id);
    assert.equal(again.json.stdout, "once\n");
    assert.equal((await ops.call("GET", `/admin/keys/${k.key_id}/usage`)).json.counters.submissions, 1);
    // Scoped to the API key, not the project: another key of the SAME project gets its own run.
    const sibling = new CheckedClient(edge.base, (await ops.newKey(k.project_id)).key);
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
    const k = await ops.newKey();
    const c = new CheckedClient(edge.base, k.key);
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
      const u = await ops.call("GET", `/admin/keys/${k.key_id}/usage`);
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
    for (const h of [{}, { authorization: "Bearer nope" }, { authorization: edge.operatorToken }] as Record<string, string>[]) {
      const r = await new CheckedClient(edge.base, null).call("GET", "/admin/nodes", { headers: h });
      assertJsonError(r, 401, "unauthorized");
    }
  });
  it("creates projects and keys (shown once, stored hashed), lists nodes without their token", async () => {
    assertJsonError(await ops.call("POST", "/admin/projects", { nope: 1 }), 400);
    const p = await ops.call("POST", "/admin/projects", { name: "acme", account_id: "acct_acme" });
    assert.equal(p.status, 201);
    const k = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "ci" });
    assert.equal(k.status, 201);
    assert.match(k.json.key, /^sk_live_[0-9A-Za-z]{32}$/);
    assert.equal(k.json.account_id, "acct_acme");
    const list = await ops.call("GET", `/admin/projects/${p.json.id}/keys`);
    assert.equal(list.json.length, 1);
    assert.equal(list.json[0].key, undefined);
    assert.ok(!list.text.includes(k.json.key));
    assertJsonError(await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { key: "sk_live_short" }), 400);
    assertJsonError(await ops.call("POST", "/admin/projects/prj_nope/keys", {}), 404);
    const nodes = await ops.call("GET", "/admin/nodes");
    assert.equal(nodes.status, 200);
    assert.equal(nodes.json.length, 1);
    assert.equal(nodes.json[0].ready, true);
    assert.ok(!nodes.text.includes(fleet.token));
    assertJsonError(await ops.call("POST", "/admin/nodes", { url: "http://127.0.0.1:1", token: "x" }), 502);
    assertJsonError(await ops.call("POST", "/admin/nodes", { url: "http://10.0.0.1:50052", token: "x" }), 400);
  });
});

describe("the OpenAPI document (docs/openapi.json)", () => {
  it("GET /api/openapi.json needs no key and is docs/openapi.json byte for byte; /docs serves the renderer", async () => {
    const anon = new CheckedClient(edge.base, null);
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
