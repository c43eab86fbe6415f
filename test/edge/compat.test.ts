// Judge0 CE and Piston v2 compatible routes against the real Worker (workerd, HTTPS) and a
// real fleet node, driven with requests shaped like the examples in each project's documentation,
// plus one auth header; and the `piston-client` package from the npm registry given only our base
// URL and a key.
import assert from "node:assert/strict";
import https from "node:https";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { piston } from "piston-client";
import { Client, admin, request, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet, Res } from "./harness.ts";
import { assertDocumented } from "./openapi-check.ts";

let fleet: Fleet;
let edge: Edge;
let ops: ReturnType<typeof admin>;
let key: string;
let projectId: string;

const b64 = (s: string) => Buffer.from(s).toString("base64");
const unb64 = (s: string) => Buffer.from(s, "base64").toString("utf8");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Judge0's documentation example: a C program that greets the name it reads. */
const GREETER_C = '#include <stdio.h>\n\nint main(void) {\n  char name[10];\n  scanf("%s", name);\n  printf("hello, %s\\n", name);\n  return 0;\n}\n';

/** Every answer is checked against the OpenAPI document (docs/openapi.json) as well. */
async function documented(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Res> {
  const r = await request(edge.base, method, path, { headers, body });
  assertDocumented(method, path, r);
  return r;
}

function judge0(method: string, path: string, body?: unknown, headers: Record<string, string> = { "x-auth-token": key }): Promise<Res> {
  return documented(method, `/judge0${path}`, body, headers);
}

function pistonCall(method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }): Promise<Res> {
  return documented(method, `/piston${path}`, body, headers);
}

async function judge0Until(token: string, query = ""): Promise<Res> {
  for (let i = 0; i < 200; i++) {
    const r = await judge0("GET", `/submissions/${token}${query}`);
    assert.equal(r.status, 200, r.text);
    if (r.json.status.id > 2) return r;
    await new Promise((res) => setTimeout(res, 150));
  }
  throw new Error(`submission ${token} did not finish`);
}

before(async () => {
  fleet = await startFleet({ env: { FLEET_SLOTS: "2" } });
  // The default plan's rate (60 a minute) is not under test here (its own plan below is): polling
  // a slow machine's runs must not turn into 429s.
  edge = await startEdge({ vars: { SYNC_HOLD_MS: "20000", RATE_LIMIT_PER_MIN: "1000" } });
  ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  assert.equal(reg.status, 201, reg.text);
  const k = await ops.newKey();
  key = k.key;
  projectId = k.project_id;
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
});

describe("Judge0 CE", () => {
  it("create then poll, base64 off: the documentation's greeter; the native record has the same id", async () => {
    const created = await judge0("POST", "/submissions", { source_code: GREETER_C, language_id: 50, stdin: "world" });
    assert.equal(created.status, 201, created.text);
    assert.match(created.json.token, UUID);
    assert.deepEqual(Object.keys(created.json), ["token"]);
    const done = await judge0Until(created.json.token);
    assert.deepEqual(done.json.status, { id: 3, description: "Accepted" });
    assert.equal(done.json.stdout, "hello, world\n");
    assert.equal(done.json.compile_output, null);
    assert.match(done.json.time, /^\d+\.\d{3}$/);
    assert.equal(typeof done.json.memory, "number");
    const native = await new Client(edge.base, key).result(created.json.token);
    assert.equal(native.status, 200);
    assert.equal(native.json.verdict, "AC");
  });

  it("create then poll, base64 on, with wait=true and fields", async () => {
    const created = await judge0("POST", "/submissions?base64_encoded=true&wait=true&fields=token,stdout,status_id,language_id", {
      source_code: b64(GREETER_C), language_id: 50, stdin: b64("base64"),
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.json).sort(), ["language_id", "status_id", "stdout", "token"]);
    assert.equal(created.json.status_id, 3);
    assert.equal(unb64(created.json.stdout), "hello, base64\n");
    assert.equal(created.json.language_id, 50);
    const plain = await judge0("GET", `/submissions/${created.json.token}?base64_encoded=false&fields=stdout`);
    assert.deepEqual(plain.json, { stdout: "hello, base64\n" });
  });

  it("status ids: AC 3, WA 4, TLE 5, CE 6, RE (SIGSEGV) 7, RE (NZEC) 11", async () => {
    const cases: [string, Record<string, unknown>, number][] = [
      ["AC", { source_code: "print(input())", language_id: 71, stdin: "7", expected_output: "7" }, 3],
      ["WA", { source_code: "print(input())", language_id: 71, stdin: "7", expected_output: "8" }, 4],
      ["TLE", { source_code: "while True: pass", language_id: 71, cpu_time_limit: 0.5 }, 5],
      ["CE", { source_code: "int main( { return 0; }", language_id: 50 }, 6],
      ["SIGSEGV", { source_code: "int main(void) { volatile int *p = 0; *p = 1; return 0; }", language_id: 50 }, 7],
      ["NZEC", { source_code: "import sys\nsys.exit(3)", language_id: 71 }, 11],
    ];
    const tokens = await Promise.all(cases.map(async ([name, body]) => {
      const r = await judge0("POST", "/submissions", body);
      assert.equal(r.status, 201, `${name}: ${r.text}`);
      return r.json.token as string;
    }));
    for (const [i, [name, , id]] of cases.entries()) {
      const done = await judge0Until(tokens[i]!, "?fields=*");
      assert.equal(done.json.status.id, id, `${name}: ${done.text}`);
      if (name === "CE") {
        assert.match(done.json.compile_output, /error/);
        assert.equal(done.json.stdout, null);
      }
      if (name === "NZEC") assert.equal(done.json.exit_code, 3);
      if (name === "SIGSEGV") assert.equal(done.json.exit_signal, 11);
    }
  });

  it("batch: create several, one refused alone; read them back by tokens", async () => {
    const created = await judge0("POST", "/submissions/batch", {
      submissions: [
        { source_code: "print('a')", language_id: 71 },
        { source_code: "print('b')", language_id: 424242 },
        { source_code: GREETER_C, language_id: 50, stdin: "batch" },
      ],
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.length, 3);
    assert.match(created.json[0].token, UUID);
    assert.deepEqual(created.json[1].language_id, ["language with id 424242 doesn't exist"]);
    assert.match(created.json[2].token, UUID);
    const tokens = [created.json[0].token, created.json[2].token];
    await judge0Until(tokens[0]);
    await judge0Until(tokens[1]);
    const read = await judge0("GET", `/submissions/batch?tokens=${tokens.join(",")}&fields=token,stdout,status`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.json.submissions.map((s: { stdout: string }) => s.stdout), ["a\n", "hello, batch\n"]);
  });

  it("languages, statuses and about", async () => {
    const langs = await judge0("GET", "/languages");
    assert.equal(langs.status, 200);
    const ids = new Map(langs.json.map((l: { id: number; name: string }) => [l.id, l.name]));
    assert.match(String(ids.get(71) ?? ids.get(92)), /^Python \(3\./);
    assert.match(String(ids.get(50)), /^C \(GCC /);
    const statuses = await judge0("GET", "/statuses");
    assert.equal(statuses.json.length, 14);
    assert.deepEqual(statuses.json[5], { id: 6, description: "Compilation Error" });
    assert.equal((await judge0("GET", "/about")).status, 200);
  });

  it("fields it cannot honour and unknown fields are refused by name; nothing is created", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ source_code: "x", language_id: 71, enable_network: true }, /enable_network/],
      [{ source_code: "x", language_id: 71, favourite_colour: "blue" }, /favourite_colour/],
      [{ language_id: 71 }, /source_code/],
      [{ source_code: "x", language_id: 71, callback_url: "https://example.com/hook" }, /callback_url/],
      [{ source_code: "x", language_id: 71, memory_limit: 10_000_000 }, /memory_mb/],
    ];
    for (const [body, pattern] of cases) {
      const r = await judge0("POST", "/submissions", body);
      assert.equal(r.status, 422, r.text);
      assert.match(r.text, pattern);
    }
  });

  it("redirect_stderr_to_stdout: both streams in stdout, in the order written", async () => {
    const r = await judge0("POST", "/submissions?wait=true&fields=stdout,stderr,status_id", {
      source_code: "import sys\nfor i in range(3):\n    print('out', i, flush=True)\n    print('err', i, file=sys.stderr, flush=True)",
      language_id: 71, redirect_stderr_to_stdout: true,
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json, { stdout: "out 0\nerr 0\nout 1\nerr 1\nout 2\nerr 2\n", stderr: "", status_id: 3 });
  });

  it("callback_url: a webhook endpoint registered for the project is accepted", async () => {
    const url = "https://hooks.example.com/judge0";
    const hook = await ops.call("POST", `/admin/projects/${projectId}/webhooks`, { url });
    assert.equal(hook.status, 201, hook.text);
    const r = await judge0("POST", "/submissions", { source_code: "print(1)", language_id: 71, callback_url: url });
    assert.equal(r.status, 201, r.text);
  });

  it("the key as X-Auth-Token, X-API-Key or Bearer; none → 401", async () => {
    const ways: Record<string, string>[] = [{ "x-auth-token": key }, { "x-api-key": key }, { authorization: `Bearer ${key}` }];
    for (const headers of ways) {
      assert.equal((await judge0("GET", "/statuses", undefined, headers)).status, 200);
    }
    assert.equal((await judge0("GET", "/statuses", undefined, {})).status, 401);
    assert.equal((await judge0("GET", "/statuses", undefined, { "x-auth-token": "sk_live_wrongwrongwrongwrongwrongwrong12" })).status, 401);
  });
});

describe("Piston v2", () => {
  it("execute with two files, args and stdin: the entry file imports the other", async () => {
    const r = await pistonCall("POST", "/api/v2/execute", {
      language: "python", version: "3.x",
      files: [
        { name: "main.py", content: "import sys, helper\nprint(helper.greet(sys.stdin.read().strip()), sys.argv[1:])" },
        { name: "helper.py", content: "def greet(n):\n    return 'hi ' + n\n" },
      ],
      stdin: "piston", args: ["1", "2"], compile_timeout: 10000, run_timeout: 3000, compile_memory_limit: -1, run_memory_limit: -1,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.language, "python");
    assert.match(r.json.version, /^3\./);
    assert.equal(r.json.compile, undefined, "python has no compile stage");
    assert.equal(r.json.run.stdout, "hi piston ['1', '2']\n");
    assert.equal(r.json.run.output, "hi piston ['1', '2']\n");
    assert.equal(r.json.run.code, 0);
    assert.equal(r.json.run.signal, null);
  });

  it("a compile error: the compile stage with the diagnostics, no run stage", async () => {
    const r = await pistonCall("POST", "/api/v2/execute", { language: "c", version: "*", files: [{ content: "int main( {" }] });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.run, undefined);
    assert.match(r.json.compile.stderr, /error/);
    assert.notEqual(r.json.compile.code, 0);
  });

  it("a compiled language that compiles: an empty compile stage, then the run", async () => {
    const r = await pistonCall("POST", "/api/v2/execute", { language: "c++", version: "*", files: [{ name: "a.cpp", content: "#include <cstdio>\nint main(){std::puts(\"ok\");}" }] });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.compile.code, 0);
    assert.equal(r.json.run.stdout, "ok\n");
  });

  it("run_timeout: the run is stopped and its status is TO", async () => {
    const r = await pistonCall("POST", "/api/v2/execute", { language: "python", version: "*", files: [{ content: "import time\ntime.sleep(5)" }], run_timeout: 300 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.run.status, "TO");
    assert.equal(r.json.run.signal, "SIGKILL");
  });

  it("runtimes; unknown runtime, unknown field and a bad file encoding are 400 {message}", async () => {
    const rt = await pistonCall("GET", "/api/v2/runtimes");
    assert.equal(rt.status, 200);
    const cpp = rt.json.find((x: { language: string }) => x.language === "c++");
    assert.ok(cpp?.aliases.includes("cpp"), rt.text);
    for (const [body, pattern] of [
      [{ language: "cobol", version: "*", files: [{ content: "x" }] }, /cobol-\* runtime is unknown/],
      [{ language: "python", version: "*", files: [{ content: "x" }], run_priority: 1 }, /run_priority/],
      [{ language: "python", version: "*", files: [{ content: "zz", encoding: "hex" }] }, /hex/],
    ] as const) {
      const r = await pistonCall("POST", "/api/v2/execute", body);
      assert.equal(r.status, 400, r.text);
      assert.match(r.json.message, pattern);
    }
  });

  it("piston-client from the npm registry, given only our base URL and the key", async () => {
    // The local stack's certificate is self-signed; the client uses Node's default agent.
    const saved = https.globalAgent.options.rejectUnauthorized;
    https.globalAgent.options.rejectUnauthorized = false;
    try {
      const u = new URL(edge.base);
      const client = piston({ server: `https://${key}@${u.host}/piston` });
      const result = await client.execute("javascript", "console.log('from piston-client', process.argv.slice(2).join(','))");
      assert.equal(result.run?.stdout, "from piston-client 1,2,3\n", JSON.stringify(result));
      assert.equal(result.language, "javascript");
    } finally {
      https.globalAgent.options.rejectUnauthorized = saved;
    }
  });
});

describe("hostile input on the new routes", () => {
  it("malformed bodies and parameters get a 4xx, never a 5xx", async () => {
    // A key whose quotas do not bind, so that every request reaches its handler.
    assert.ok((await ops.call("PUT", "/admin/plans/compat-fuzz", { rate_per_minute: 1000, max_in_flight: 50 })).status < 300);
    const p = await ops.call("POST", "/admin/projects", { name: "fuzz" });
    const k = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "fuzz", plan: "compat-fuzz" });
    assert.equal(k.status, 201, k.text);
    const key = k.json.key as string;
    const bodies: unknown[] = [
      [], "text", 42, null, {}, { submissions: "x" }, { submissions: [null, 1, "a", []] }, { source_code: ["x"], language_id: "71" },
      { source_code: "x", language_id: 1e308 }, { source_code: "x", language_id: -1 }, { source_code: "x", language_id: 71, number_of_runs: 1e9 },
      { source_code: "x", language_id: 71, cpu_time_limit: -1 }, { source_code: "x", language_id: 71, memory_limit: "a lot" },
      { source_code: "x", language_id: 71, additional_files: "UEsDBA==" }, { source_code: "x", language_id: 71, command_line_arguments: "$(rm -rf /)" },
      { language: "python", version: "*", files: [{ content: 1 }] }, { language: "python", version: "*", files: [] },
      { language: "python", version: ">=x<y", files: [{ content: "print(1)" }] }, { language: "python", version: "*", files: [{ content: "x", encoding: "rot13" }] },
      { language: "python", version: "*", files: [{ content: "print(1)" }], args: [1, 2] }, { language: "python", version: "*", files: [{ name: "../../x", content: "a" }, { name: "../../y", content: "b" }] },
      { language: "python", version: "*", files: [{ content: "print(1)" }], run_timeout: 1e300 },
    ];
    const routes = ["/judge0/submissions", "/judge0/submissions/batch", "/piston/api/v2/execute", "/api/submit", "/api/submit/batch"];
    for (const path of routes) {
      for (const body of bodies) {
        const r = await request(edge.base, "POST", path, { headers: { "x-api-key": key }, body });
        assert.ok(r.status >= 400 && r.status < 500 || r.status === 201 || r.status === 200 || r.status === 202, `${path} ${JSON.stringify(body).slice(0, 80)} → ${r.status} ${r.text.slice(0, 200)}`);
      }
      const raw = await request(edge.base, "POST", path, { headers: { "x-api-key": key, "content-type": "application/json" }, raw: Buffer.from([0xff, 0xfe, 0x7b]) });
      assert.ok(raw.status >= 400 && raw.status < 500, `${path} invalid UTF-8 → ${raw.status}`);
    }
    for (const path of ["/judge0/submissions/not-a-token?fields=*", "/judge0/submissions/batch?tokens=,,,", "/judge0/submissions/batch?tokens=a,b&fields=nope", "/judge0/languages/abc",
      "/api/results?ids=", "/api/results?ids=x,y", "/api/result/00000000-0000-4000-8000-000000000000/events?last_event_id=-1", "/piston/api/v2/nothing"]) {
      const r = await request(edge.base, "GET", path, { headers: { "x-api-key": key } });
      assert.ok(r.status >= 400 && r.status < 500, `${path} → ${r.status} ${r.text.slice(0, 200)}`);
    }
  });
});

describe("rate limits on the compatibility routes", () => {
  it("a key's plan rate holds for Judge0 and Piston requests alike: 429 with Retry-After", async () => {
    const plan = await ops.call("PUT", "/admin/plans/compat-slow", { rate_per_minute: 3 });
    assert.equal(plan.status < 300, true, plan.text);
    const p = await ops.call("POST", "/admin/projects", { name: "slow" });
    const k = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "slow", plan: "compat-slow" });
    assert.equal(k.status, 201, k.text);
    const slow = k.json.key as string;
    const codes = [];
    codes.push((await judge0("GET", "/statuses", undefined, { "x-auth-token": slow })).status);
    codes.push((await pistonCall("GET", "/api/v2/runtimes", undefined, { authorization: `Bearer ${slow}` })).status);
    codes.push((await judge0("GET", "/languages", undefined, { "x-auth-token": slow })).status);
    const limited = await pistonCall("POST", "/api/v2/execute", { language: "python", version: "*", files: [{ content: "print(1)" }] }, { authorization: `Bearer ${slow}` });
    assert.deepEqual(codes, [200, 200, 200]);
    assert.equal(limited.status, 429, limited.text);
    assert.ok(Number(limited.headers["retry-after"]) >= 1);
    assert.equal((await judge0("GET", "/statuses", undefined, { "x-auth-token": slow })).status, 429);
  });
});
