// Test sets of any legal size through the public HTTP API: the real Worker (workerd), a real fleet
// node and the real kernel sandbox. 100 tests at the default limits are accepted and judged; a set
// whose tests use up their wall-time budget (a plan's small one) reports the rest SKIPPED.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { before } from "../hooks.ts";
import { Client, useStack } from "./harness.ts";

const stack = useStack({ fleet: { env: { FLEET_SLOTS: "2" } }, edge: { vars: { SYNC_HOLD_MS: "120000" } } });
let c: Client;
let tight: Client;

const ECHO = "import sys\nsys.stdout.write(sys.stdin.read())";
const SLEEPY = "import sys, time\ntime.sleep(0.3)\nsys.stdout.write(sys.stdin.read())";

describe("test sets", () => {
  // a suite hook: it runs once the file's stack (useStack) is up
  before(async () => {
    const ops = stack.ops;
    const p = await ops.call("POST", "/admin/projects", { name: "test-sets" });
    const k = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "k" });
    assert.equal(k.status, 201, k.text);
    c = new Client(stack.edge.base, k.json.key);
    const plan = await ops.call("PUT", "/admin/plans/tight-budget", { tests_wall_budget_ms: 1000 });
    assert.equal(plan.status, 201, plan.text);
    assert.equal(plan.json.tests_wall_budget_ms, 1000);
    const t = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "t", plan: "tight-budget" });
    assert.equal(t.status, 201, t.text);
    tight = new Client(stack.edge.base, t.json.key);
  });

  it("100 tests at the default limits are accepted and each judged", async () => {
    const tests = Array.from({ length: 100 }, (_, i) => ({ stdin: `${i}\n`, expected_output: `${i}\n` }));
    const r = await c.submit({ language: "python", code: ECHO, tests }, { wait: true });
    assert.equal(r.status, 200, r.text.slice(0, 500));
    assert.equal(r.json.job_status, "completed", r.text.slice(0, 500));
    assert.equal(r.json.verdict, "AC", r.json.error_message);
    assert.equal(r.json.tests.length, 100);
    assert.ok(r.json.tests.every((t: { verdict: string }) => t.verdict === "AC"));
    assert.equal(r.json.tests[99].stdout, "99\n");
  });

  it("tests past the plan's budget are SKIPPED with the reason; the counts add up", async () => {
    const tests = Array.from({ length: 20 }, (_, i) => ({ stdin: `${i}\n`, expected_output: `${i}\n`, points: 1 }));
    const r = await tight.submit({ language: "python", code: SLEEPY, tests }, { wait: true });
    assert.equal(r.status, 200, r.text.slice(0, 500));
    const verdicts: string[] = r.json.tests.map((t: { verdict: string }) => t.verdict);
    assert.equal(verdicts.length, 20, "every test is listed, run or not");
    const ran = verdicts.filter((v) => v === "AC").length;
    const skipped = verdicts.filter((v) => v === "SKIPPED").length;
    assert.ok(ran >= 1, "some tests ran");
    assert.ok(skipped >= 1, "the budget ran out before the last");
    assert.equal(ran + skipped, 20);
    assert.deepEqual(verdicts, [...Array(ran).fill("AC"), ...Array(skipped).fill("SKIPPED")], "the skipped ones are the last");
    for (const t of r.json.tests.slice(ran)) {
      assert.equal(t.evidence.verdict_cause, "tests_wall_budget_exceeded");
      assert.equal(t.score, 0);
    }
    assert.equal(r.json.verdict, "TLE");
    assert.equal(r.json.evidence.verdict_cause, "tests_wall_budget_exceeded");
    assert.equal(r.json.error_message, `${skipped} of 20 tests were not run: the tests used up their wall-time budget of 1 s`);
    assert.deepEqual([r.json.score, r.json.max_score], [ran, 20]);
  });
});
