// The fields of record schema 1.1 on the public API, plans, batches and GET /api/results, against
// the real Worker (workerd, HTTPS) and a real fleet node. The tests marked "[node judge]"
// need the node side of the judge features (tests, checks, binary output).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, sleep, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet, Res } from "./harness.ts";
import { cli, cliJson } from "../operators/cli-helpers.ts";

let fleet: Fleet;
let edge: Edge;
let ops: ReturnType<typeof admin>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The 1.0 record's keys, in the order the edge has always written them. */
const RECORD_1_0 = [
  "id", "language", "job_status", "schema_version", "verdict", "exit_code", "signal", "stdout", "stderr", "output_integrity",
  "error_message", "cpu_time_secs", "wall_time_secs", "memory_peak_bytes", "evidence", "created_at", "started_at", "completed_at",
];
const EVIDENCE_1_0 = [
  "verdict_cause", "verdict_actor", "isolation_mode", "controls_applied", "controls_missing", "cgroup", "timing", "process_lifecycle",
  "judge_actions", "collection_errors",
];
const ECHO_BYTES = "import sys\nsys.stdout.buffer.write(sys.stdin.buffer.read())\n";

async function keyOn(plan?: string): Promise<{ c: Client; key_id: string; project_id: string }> {
  const p = await ops.call("POST", "/admin/projects", { name: "v11" });
  assert.equal(p.status, 201, p.text);
  const k = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, plan ? { name: "k", plan } : { name: "k" });
  assert.equal(k.status, 201, k.text);
  return { c: new Client(edge.base, k.json.key), key_id: k.json.key_id, project_id: p.json.id };
}

function assert400(r: Res, error: string | RegExp, message?: RegExp): void {
  assert.equal(r.status, 400, `expected 400, got ${r.status}: ${r.text.slice(0, 400)}`);
  assert.match(String(r.headers["content-type"]), /^application\/json/);
  if (typeof error === "string") assert.equal(r.json.error, error, r.text);
  else assert.match(r.json.error, error, r.text);
  if (message) assert.match(String(r.json.message), message, r.text);
}

async function usage(keyId: string): Promise<{ submissions: number; requests_last_minute: number; in_flight: number }> {
  const u = await ops.call("GET", `/admin/keys/${keyId}/usage`);
  assert.equal(u.status, 200, u.text);
  return { submissions: u.json.totals.submissions, requests_last_minute: u.json.requests_last_minute, in_flight: u.json.in_flight };
}

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");

before(async () => {
  fleet = await startFleet({ env: { FLEET_SLOTS: "2" } });
  edge = await startEdge({ vars: { SYNC_HOLD_MS: "20000" } });
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

describe("POST /api/submit: the 1.1 fields are checked, and a bad one is a 400 naming it", () => {
  const base = { language: "py", code: "print(1)" };
  const cases: [string, Record<string, unknown>, string | RegExp, RegExp?][] = [
    ["wrong type in limits", { limits: { memory_mb: "64" } }, "invalid limits.memory_mb", /limits\.memory_mb/],
    ["limit not positive", { limits: { wall_time_ms: 0 } }, "invalid limits.wall_time_ms", /limits\.wall_time_ms/],
    ["unknown limit", { limits: { disk_mb: 1 } }, "invalid request", /limits\.disk_mb/],
    ["unknown encoding", { encoding: "hex" }, "invalid encoding", /encoding/],
    ["bad base64 stdin", { encoding: "base64", code: b64("print(1)"), stdin: "not base64!" }, "invalid stdin", /stdin is not valid base64/],
    ["bad base64 code", { encoding: "base64", code: "cHJpbnQ" }, "invalid code", /code is not valid base64/],
    ["base64 code that is not UTF-8", { encoding: "base64", code: b64(Uint8Array.of(0xff, 0xfe)) }, "invalid code", /UTF-8/],
    ["bad base64 in a test", { encoding: "base64", code: b64("print(1)"), tests: [{ stdin: "%%%" }] }, "invalid tests[0].stdin", /base64/],
    ["bad base64 in a file", { files: [{ path: "a.txt", content: "???", encoding: "base64" }] }, "invalid files[0].content", /base64/],
    ["path escaping with ..", { files: [{ path: "../etc/passwd", content: "x" }] }, "invalid files[0].path", /relative path/],
    ["absolute path", { files: [{ path: "/etc/passwd", content: "x" }] }, "invalid files[0].path", /relative path/],
    ["path with a . segment", { files: [{ path: "a/./b", content: "x" }] }, "invalid files[0].path", /relative path/],
    ["path with a bad character", { files: [{ path: "a b.txt", content: "x" }] }, "invalid files[0].path", /relative path/],
    ["path too deep", { files: [{ path: "a/b/c/d/e/f/g/h/i.txt", content: "x" }] }, "invalid files[0].path", /at most 8 segments/],
    ["duplicate path", { files: [{ path: "a.txt", content: "x" }, { path: "a.txt", content: "y" }] }, "invalid files[1].path", /appears twice/],
    ["the main source's name", { files: [{ path: "main.py", content: "x" }] }, "invalid files[0].path", /main source/],
    ["too many files", { files: Array.from({ length: 33 }, (_, i) => ({ path: `f${i}.txt`, content: "x" })) }, "invalid files", /at most 32/],
    ["files too large in all", { files: [{ path: "a.bin", content: "a".repeat(600_000) }, { path: "b.bin", content: "b".repeat(600_000) }] }, "invalid files", /1048576 bytes/],
    ["too many args", { args: Array.from({ length: 65 }, () => "x") }, "invalid args", /at most 64/],
    ["an arg with NUL", { args: ["ok", "a\u0000b"] }, "invalid args[1]", /NUL/],
    ["an arg too long", { args: ["x".repeat(4097)] }, "invalid args[0]", /4096/],
    ["args not strings", { args: [1] }, "invalid args[0]", /args\[0\]/],
    ["too many compiler options", { compiler_options: Array.from({ length: 33 }, () => "-O2") }, "invalid compiler_options", /at most 32/],
    ["a compiler option with a control character", { compiler_options: ["-O2\n-o/tmp/x"] }, "invalid compiler_options[0]", /control character/],
    ["expected_output with tests", { expected_output: "1\n", tests: [{ stdin: "" }] }, "invalid expected_output", /each test its own/],
    ["compare without expected output", { compare: "tokens" }, "invalid compare", /expected_output/],
    ["unknown compare", { expected_output: "1", compare: "regex" }, "invalid compare", /compare/],
    ["float_epsilon above 1", { expected_output: "1", compare: "float", float_epsilon: 2 }, "invalid float_epsilon", /float_epsilon/],
    ["float_epsilon without float", { expected_output: "1", float_epsilon: 0.1 }, "invalid float_epsilon", /compare 'float'/],
    ["empty tests", { tests: [] }, "invalid tests", /tests/],
    ["tests above the default plan's cap", { tests: Array.from({ length: 51 }, () => ({})) }, "tests above the plan's cap", /tests has 51 entries; the plan 'default' allows at most 50/],
    ["tests whose wall limits exceed the budget", { tests: Array.from({ length: 13 }, () => ({})) }, "tests exceed the wall-time budget", /13 tests × limits.wall_time_ms 10000 = 130000 ms/],
    ["unknown field in a test", { tests: [{ stdin: "", input: "x" }] }, "invalid request", /tests\[0\]\.input/],
    ["stop_on_first_failure not boolean", { tests: [{}], stop_on_first_failure: "yes" }, "invalid stop_on_first_failure", /stop_on_first_failure/],
    ["version not a string", { version: 3 }, "invalid version", /version/],
  ];

  it("each bad field: 400 with the field named; nothing stored or run", async () => {
    const { c, key_id } = await keyOn();
    for (const [what, fields, error, message] of cases) {
      const r = await c.submit({ ...base, ...fields });
      assert400(r, error, message);
      assert.ok(!/undefined|\[object/.test(r.text), `${what}: ${r.text}`);
    }
    const u = await usage(key_id);
    assert.equal(u.submissions, 0, "no submission was created");
    assert.equal(u.in_flight, 0);
  });

  it("a file named like what the language's compile writes, or with a segment over 255 bytes: 400 naming the file; nothing stored", async () => {
    const { c, key_id } = await keyOn();
    const cSource = { language: "c", code: "int main(void) { return 0; }" };
    const java = { language: "java", code: "public class Main { public static void main(String[] a) {} }" };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...cSource, files: [{ path: "util.h", content: "x" }, { path: "main", content: "x" }] }, "invalid files[1].path", /files\[1\]\.path: "main" is the name of the compiled program/],
      [{ ...cSource, files: [{ path: "main/x.h", content: "x" }] }, "invalid files[0].path", /files\[0\]\.path: "main\/x\.h" would make "main", the name of the compiled program, a directory/],
      [{ ...java, files: [{ path: "main.jar", content: "x" }] }, "invalid files[0].path", /"main\.jar" is the name of the compiled program/],
      [{ ...java, files: [{ path: "classes/Util.java", content: "x" }] }, "invalid files[0].path", /"classes".*a name the java compile itself uses/],
      [{ ...cSource, files: [{ path: "util.h.gch", content: "x" }] }, "invalid files[0].path", /"util\.h\.gch" is a precompiled header/],
      [{ ...cSource, language: "cpp", files: [{ path: "pch/util.h.gch/a", content: "x" }] }, "invalid files[0].path", /is a precompiled header/],
      [{ ...base, files: [{ path: "a".repeat(256), content: "x" }] }, "invalid files[0].path", /files\[0\]\.path: .* has a segment of 256 bytes; at most 255/],
      [{ ...base, files: [{ path: `lib/${"b".repeat(256)}`, content: "x" }] }, "invalid files[0].path", /has a segment of 256 bytes; at most 255/],
    ];
    for (const [body, error, message] of cases) assert400(await c.submit(body), error, message);
    const fine = await c.submit({ ...base, files: [{ path: "a".repeat(255), content: "x" }, { path: "main", content: "x" }, { path: "x.gch", content: "x" }] });
    assert.equal(fine.status, 202, `a 255-byte segment, and "main" or "x.gch" for a language that compiles nothing, are accepted: ${fine.text}`);
    assert.equal((await usage(key_id)).submissions, 1, "only the accepted one was stored");
  });

  it("an unknown version: 400 listing the language's versions", async () => {
    const { c } = await keyOn();
    const fleetStatus = await ops.call("GET", "/admin/fleet");
    const pythonVersions = fleetStatus.json.runtimes.filter((r: { language: string }) => r.language === "python").map((r: { version: string }) => r.version);
    const r = await c.submit({ ...base, version: "0.0.1-nope" });
    assert400(r, "unknown version '0.0.1-nope' of python", /versions of python/);
    assert.deepEqual(r.json.available, pythonVersions);
  });

  it("a listed version is accepted and named in the 1.1 record", async () => {
    const { c } = await keyOn();
    const fleetStatus = await ops.call("GET", "/admin/fleet");
    const python = fleetStatus.json.runtimes.find((r: { language: string }) => r.language === "python");
    assert.ok(python?.version, JSON.stringify(fleetStatus.json.runtimes));
    const r = await c.submit({ ...base, version: python.version }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.schema_version, "1.1");
    assert.equal(r.json.version, python.version);
    assert.equal(r.json.verdict, "AC");
  });

  it("a limit above the plan's cap: 400 naming the field and the cap", async () => {
    const { c, key_id } = await keyOn();
    const r = await c.submit({ ...base, limits: { memory_mb: 512 } });
    assert400(r, "limits.memory_mb above the plan's cap");
    assert.deepEqual(r.json, { error: "limits.memory_mb above the plan's cap", message: "limits.memory_mb is 512; the plan 'default' allows at most 256" });
    assert400(await c.submit({ ...base, limits: { wall_time_ms: 10_001 } }), "limits.wall_time_ms above the plan's cap", /at most 10000/);
    assert.equal((await usage(key_id)).submissions, 0);
  });

  it("limits within the cap are accepted and the record is 1.1", async () => {
    const { c } = await keyOn();
    const r = await c.submit({ ...base, limits: { memory_mb: 128, wall_time_ms: 5000, cpu_time_ms: 5000, processes: 16, output_kb: 64 } }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.schema_version, "1.1");
    assert.equal(r.json.verdict, "AC");
    assert.equal(r.json.stdout, "1\n");
  });
});

describe("records", () => {
  it("an old-style request gets exactly the 1.0 record: same keys in the same order, no 1.1 field", async () => {
    const { c } = await keyOn();
    const r = await c.submit({ language: "py", code: "print('hi')", stdin: "" }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.json), RECORD_1_0);
    assert.equal(r.json.schema_version, "1.0");
    assert.deepEqual(Object.keys(r.json.evidence), EVIDENCE_1_0);
    const again = await c.result(r.json.id);
    assert.equal(again.text, r.text, "the stored record is the same bytes");
  });

  it("base64: plain text stdin → stdout round trip, encoding named in the record", async () => {
    const { c } = await keyOn();
    const r = await c.submit({ language: "py", code: b64(ECHO_BYTES), stdin: b64("héllo\nworld\n"), encoding: "base64" }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.schema_version, "1.1");
    assert.equal(r.json.encoding, "base64");
    assert.equal(r.json.stdout, b64("héllo\nworld\n"));
    assert.equal(r.json.stderr, "");
  });

  it("[node judge] base64: all 256 byte values round-trip through stdin → stdout", async () => {
    const { c } = await keyOn();
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const r = await c.submit({ language: "py", code: b64(ECHO_BYTES), stdin: b64(all), encoding: "base64" }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.encoding, "base64");
    assert.deepEqual([...Buffer.from(r.json.stdout, "base64")], [...all]);
  });

  it("[node judge] tests: per-test records, WA on the wrong one, names defaulted, version present", async () => {
    const { c } = await keyOn();
    const r = await c.submit({
      language: "py", code: "print(int(input()) * 2)",
      tests: [{ stdin: "2\n", expected_output: "4\n" }, { name: "odd", stdin: "3\n", expected_output: "7\n" }, { stdin: "5\n", expected_output: "10" }],
    }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.schema_version, "1.1");
    assert.equal(r.json.verdict, "WA");
    assert.deepEqual(r.json.tests.map((t: { name: string; verdict: string }) => [t.name, t.verdict]), [["test-1", "AC"], ["odd", "WA"], ["test-3", "AC"]]);
    assert.equal(r.json.stdout, "6\n", "top level: the deciding (first failing) test's output");
    assert.equal(r.json.evidence.verdict_cause, "output_mismatch");
    assert.ok(r.json.evidence.mismatch, r.text);
    assert.ok(r.json.evidence.limits, "1.1 records carry the applied limits");
    assert.equal(typeof r.json.version, "string");
  });

  it("[node judge] stop_on_first_failure: tests after the first failure are absent", async () => {
    const { c } = await keyOn();
    const r = await c.submit({
      language: "py", code: "print(input())", stop_on_first_failure: true,
      tests: [{ stdin: "a\n", expected_output: "b\n" }, { stdin: "c\n", expected_output: "c\n" }],
    }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.verdict, "WA");
    assert.equal(r.json.tests.length, 1);
  });

  it("[node judge] expected_output at top level: WA with the default 'lines' compare, AC when equal", async () => {
    const { c } = await keyOn();
    const wa = await c.submit({ language: "py", code: "print(1)", expected_output: "2\n" }, { wait: true });
    assert.equal(wa.json.verdict, "WA", wa.text);
    const ac = await c.submit({ language: "py", code: "print(1)", expected_output: "1" }, { wait: true });
    assert.equal(ac.json.verdict, "AC", ac.text);
    assert.equal(ac.json.schema_version, "1.1");
  });
});

describe("plans", () => {
  it("admin API: the default plan lists today's numbers; PUT makes and changes a plan; bad input is a 400", async () => {
    const list = await ops.call("GET", "/admin/plans");
    assert.equal(list.status, 200, list.text);
    const def = list.json.find((p: { name: string }) => p.name === "default");
    assert.deepEqual(def, {
      name: "default", rate_per_minute: 60, max_in_flight: 10, max_wall_time_ms: 10_000, max_cpu_time_ms: 10_000, max_memory_mb: 256,
      max_processes: 64, max_output_kb: 1024, max_tests: 50, max_batch: 20,
    });
    const put = await ops.call("PUT", "/admin/plans/small", { max_memory_mb: 64, max_tests: 2 });
    assert.equal(put.status, 201, put.text);
    assert.equal(put.json.max_memory_mb, 64);
    assert.equal(put.json.rate_per_minute, 60, "fields not given start from the default plan");
    const again = await ops.call("PUT", "/admin/plans/small", { max_batch: 3 });
    assert.equal(again.status, 200);
    assert.equal(again.json.max_memory_mb, 64, "fields not given keep their value");
    assert.equal((await ops.call("GET", "/admin/plans/small")).json.max_batch, 3);
    assert.equal((await ops.call("GET", "/admin/plans/nope")).status, 404);
    assert400(await ops.call("PUT", "/admin/plans/small", { max_memory_mb: 512 }), "invalid request", /max_memory_mb/);
    assert400(await ops.call("PUT", "/admin/plans/small", { rate: 5 }), "invalid request", /unknown field/);
    assert400(await ops.call("PUT", "/admin/plans/Bad%20Name", {}), "invalid plan name");
  });

  it("a key on a plan is held to its caps (limits, tests, batch, rate)", async () => {
    assert.equal((await ops.call("PUT", "/admin/plans/tight", { rate_per_minute: 3, max_memory_mb: 64, max_tests: 2, max_batch: 2 })).status, 201);
    const { c } = await keyOn("tight");
    const base = { language: "py", code: "print(1)" };
    assert.deepEqual((await c.submit({ ...base, limits: { memory_mb: 65 } })).json, {
      error: "limits.memory_mb above the plan's cap", message: "limits.memory_mb is 65; the plan 'tight' allows at most 64",
    });
    assert400(await c.submit({ ...base, tests: [{}, {}, {}] }), "tests above the plan's cap", /the plan 'tight' allows at most 2/);
    const r = await c.submit(base);
    assert.equal(r.status, 202, r.text);
    assert.equal(r.headers["ratelimit-limit"], "3");
    const refused = await c.submit(base);
    assert.equal(refused.status, 429, refused.text);
    assert.match(refused.json.message, /rate limit of 3 requests per minute/);
  });

  it("keys create with an unknown plan: a clear 400, no key made", async () => {
    const p = await ops.call("POST", "/admin/projects", { name: "x" });
    const k = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { plan: "gold-nope" });
    assert400(k, "unknown plan", /no plan named 'gold-nope'/);
    assert.equal((await ops.call("GET", `/admin/keys?project=${p.json.id}`)).json.length, 0);
  });

  it("CLI: plans set and list; keys create --plan; a plan set by the CLI changes the key's caps", async () => {
    const set = await cliJson(edge, "plans", "set", "cli-plan", "--rate", "3", "--max-in-flight", "1", "--max-memory-mb", "32");
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.json.rate_per_minute, 3);
    assert.equal(set.json.max_in_flight, 1);
    const list = await cliJson(edge, "plans", "list");
    assert.ok(list.json.some((p: { name: string }) => p.name === "cli-plan"));
    const human = await cli(edge, ["--insecure", "plans", "list"]);
    assert.match(human.stdout, /cli-plan\s+3\s+1\s/);
    const bad = await cli(edge, ["--insecure", "plans", "set", "cli-plan", "--rate", "many"]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--rate must be a whole number/);

    const p = await ops.call("POST", "/admin/projects", { name: "cli" });
    const unknown = await cli(edge, ["--insecure", "keys", "create", "--project", p.json.id, "--plan", "no-such-plan"]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /unknown plan: no plan named 'no-such-plan'/);
    const made = await cliJson(edge, "keys", "create", "--project", p.json.id, "--plan", "cli-plan");
    assert.equal(made.code, 0, made.stderr);
    assert.equal(made.json.plan, "cli-plan");
    const c = new Client(edge.base, made.json.key);
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
    assert.equal((await cliJson(edge, "plans", "set", "cli-plan", "--rate", "50", "--max-in-flight", "5")).code, 0);
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
    assert.equal((await ops.call("PUT", "/admin/plans/batch3", { rate_per_minute: 3 })).status, 201);
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
    assert.match(s[2].error, /unsupported language 'cobol'/);
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
    assert.equal((await ops.call("PUT", "/admin/plans/inflight2", { max_in_flight: 2 })).status, 201);
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
