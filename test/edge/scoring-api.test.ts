// Scoring through the public HTTP API: the real Worker (workerd), a real fleet node and the real
// kernel sandbox. Tests with points make the record scored; one failing test earns nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { before } from "../hooks.ts";
import { Client, useStack } from "./harness.ts";

const stack = useStack({ fleet: { env: { FLEET_SLOTS: "2" } }, edge: { vars: { SYNC_HOLD_MS: "60000" } } });
let c: Client;

/** A Python program that prints its stdin unchanged. */
const ECHO = "import sys\nsys.stdout.write(sys.stdin.read())";

describe("points through the API", () => {
  // a suite hook: it runs once the file's stack (useStack) is up
  before(async () => {
    const p = await stack.ops.call("POST", "/admin/projects", { name: "scoring" });
    const k = await stack.ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "k" });
    assert.equal(k.status, 201, k.text);
    c = new Client(stack.edge.base, k.json.key);
  });

  it("three tests with points, the second failing: each test its score, the record score and max_score", async () => {
    const tests = [
      { name: "one", stdin: "1\n", expected_output: "1\n", points: 10 },
      { name: "two", stdin: "2\n", expected_output: "22\n", points: 20 },
      { name: "three", stdin: "3\n", expected_output: "3\n", points: 70 },
    ];
    const r = await c.submit({ language: "python", code: ECHO, tests }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.job_status, "completed", r.text);
    assert.equal(r.json.verdict, "WA");
    assert.deepEqual(r.json.tests.map((t: { name: string; verdict: string; score: number }) => [t.name, t.verdict, t.score]), [["one", "AC", 10], ["two", "WA", 0], ["three", "AC", 70]]);
    assert.equal(r.json.score, 80);
    assert.equal(r.json.max_score, 100);
  });

  it("tests without points: the record has no score fields", async () => {
    const r = await c.submit({ language: "python", code: ECHO, tests: [{ stdin: "1\n", expected_output: "1\n" }] }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.verdict, "AC");
    assert.equal("score" in r.json, false);
    assert.equal("max_score" in r.json, false);
    assert.equal("score" in r.json.tests[0], false);
  });

  it("negative points are a 400 naming the field; nothing runs", async () => {
    const r = await c.submit({ language: "python", code: ECHO, tests: [{ stdin: "", points: -1 }] }, { wait: true });
    assert.equal(r.status, 400, r.text);
    assert.match(r.text, /tests\[0\]\.points/);
  });
});
