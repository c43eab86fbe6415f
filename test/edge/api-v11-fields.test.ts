// The fields of record schema 1.1 on POST /api/submit and in the records, against the real Worker
// (workerd, HTTPS) and a real fleet node. The tests marked "[node judge]" need the node side of the
// judge features (tests, checks, binary output).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ECHO_BYTES, EVIDENCE_1_0, RECORD_1_0, assert400, b64, useV11Stack } from "./api-v11-checks.ts";

const { stack, keyOn, usage } = useV11Stack();

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
    ["tests above the default plan's cap", { tests: Array.from({ length: 101 }, () => ({})) }, "tests above the plan's cap", /tests has 101 entries; the plan 'default' allows at most 100/],
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
      [{ language: "typescript", code: "console.log(1)", files: [{ path: "main.js", content: "x" }] }, "invalid files[0].path", /"main\.js" is the name of the compiled program/],
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
    const fleetStatus = await stack.ops.call("GET", "/admin/fleet");
    const pythonVersions = fleetStatus.json.runtimes.filter((r: { language: string }) => r.language === "python").map((r: { version: string }) => r.version);
    const r = await c.submit({ ...base, version: "0.0.1-nope" });
    assert400(r, `unknown version "0.0.1-nope" of python; available: ${pythonVersions.join(", ")}`);
    assert.deepEqual(r.json.available, pythonVersions);
  });

  it("a listed version is accepted and named in the 1.1 record", async () => {
    const { c } = await keyOn();
    const fleetStatus = await stack.ops.call("GET", "/admin/fleet");
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
    assert.deepEqual((await c.submit({ ...base, compile_limits: { cpu_time_ms: 60_001 } })).json, {
      error: "compile_limits.cpu_time_ms above the plan's cap", message: "compile_limits.cpu_time_ms is 60001; the plan 'default' allows at most 60000",
    });
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
