// Custom checkers end to end through the public HTTP API: the production bundle of the Worker
// on workerd over HTTPS (test/edge/harness.ts, which starts scripts/edge-dev.ts), a real fleet node
// and the real kernel sandbox. A Python and a C++ (testlib.h, ~200 KB, in
// checker.files) permutation checker accept reordered output and give WA with their message; a
// checker that exits 3 is the checker's failure and the node stays ready; the plan sets the
// checker's limits; bad checker input is a 400 naming the field, and nothing is stored.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { CPP_TESTLIB_CHECKER, PYTHON_PERMUTATION_CHECKER, REVERSE_PROGRAM, WRONG_PROGRAM, exitingChecker, permutationTest, testlibHeader } from "../../shared-fixtures/checkers.ts";
import { admin, cleanup, itRefuses, refusesLanguages, keyOnPlan as keyOnStackPlan, startEdge, startFleet } from "./harness.ts";
import type { Client } from "./harness.ts";
import type { Edge, Fleet, Res } from "./harness.ts";

let fleet: Fleet;
let edge: Edge;
let c: Client;
let ops: ReturnType<typeof admin>;

const TESTS = [permutationTest(3, "three"), permutationTest(5, "five"), permutationTest(8, "eight")];
const PYTHON = { language: "python", code: PYTHON_PERMUTATION_CHECKER };
const CPP = { language: "cpp", code: CPP_TESTLIB_CHECKER, files: [{ path: "testlib.h", content: testlibHeader() }] };

const keyOnPlan = (plan: string, caps: Record<string, number>) => keyOnStackPlan({ edge, ops }, plan, caps);

before(async () => {
  fleet = await startFleet({ env: { FLEET_SLOTS: "2" } });
  edge = await startEdge({ vars: { SYNC_HOLD_MS: "60000" } });
  ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  assert.equal(reg.status, 201, reg.text);
  c = await keyOnPlan("checker-api", {});
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

async function judged(body: Record<string, unknown>, client = c): Promise<Res> {
  const r = await client.submit(body, { wait: true });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.job_status, "completed", r.text);
  assert.equal(r.json.schema_version, "1.1", r.text);
  assert.equal(r.json.evidence.isolation_mode, "strict", "the real sandbox ran it");
  return r;
}

describe("permutation checkers through the API", () => {
  for (const [label, checker] of [["Python", PYTHON], ["C++ with a ~200 KB testlib.h in checker.files", CPP]] as const) {
    it(`${label}: reordered output is AC; a wrong number is WA with the checker's message`, async () => {
      const ok = await judged({ language: "python", code: REVERSE_PROGRAM, tests: TESTS, checker });
      assert.equal(ok.json.verdict, "AC", ok.text);
      assert.deepEqual(ok.json.tests.map((t: Res["json"]) => [t.verdict, t.evidence.checker.exit_code]), [["AC", 0], ["AC", 0], ["AC", 0]]);
      assert.equal(ok.json.tests[2].stdout, "8 7 6 5 4 3 2 1\n");
      assert.equal(ok.json.tests[2].evidence.checker.message, "ok 8 numbers");

      const wrong = await judged({ language: "python", code: WRONG_PROGRAM, tests: TESTS, checker });
      assert.equal(wrong.json.verdict, "WA", wrong.text);
      assert.equal(wrong.json.evidence.verdict_cause, "wrong_answer");
      assert.equal(wrong.json.evidence.verdict_actor, "checker");
      assert.equal(wrong.json.error_message, "wrong answer 999 is not in the expected output");
      assert.equal(wrong.json.tests[0].evidence.checker.message, "wrong answer 999 is not in the expected output");
      assert.equal(wrong.json.tests[0].evidence.checker.exit_code, 1);
    });
  }

  it("a single run with expected_output is judged by the checker", async () => {
    const test = permutationTest(4);
    const r = await judged({ language: "python", code: REVERSE_PROGRAM, stdin: test.stdin, expected_output: test.expected_output, checker: PYTHON });
    assert.equal(r.json.verdict, "AC", r.text);
    assert.equal(r.json.evidence.checker.message, "ok 4 numbers");
  });
});

describe("the checker's own failure", () => {
  it("exit 3 is WA checker_failed by actor checker, never IE; the node stays ready; the next submission is AC", async () => {
    const r = await judged({ language: "python", code: REVERSE_PROGRAM, tests: TESTS, checker: exitingChecker(3, "FAIL the answer is broken\n") });
    assert.equal(r.json.verdict, "WA", r.text);
    assert.equal(r.json.evidence.verdict_cause, "checker_failed");
    assert.equal(r.json.evidence.verdict_actor, "checker");
    assert.equal(r.json.evidence.checker.exit_code, 3);
    assert.match(r.json.error_message, /^the checker failed \(exit code 3\): FAIL the answer is broken; the output was not judged correct$/);
    const ready = await c.call("GET", "/api/health/ready");
    assert.equal(ready.status, 200, ready.text);
    const next = await judged({ language: "python", code: REVERSE_PROGRAM, tests: TESTS, checker: PYTHON });
    assert.equal(next.json.verdict, "AC", next.text);
  });

  it("the plan sets the checker's limits: 100 MiB is fine under the default 256 MiB, checker_failed (oom_kill) under checker_memory_mb 64", async () => {
    const hog = { language: "python", code: "import sys\nx = b'1' * (100 << 20)\nsys.stderr.write('ok %d\\n' % len(x))\n" };
    const roomy = await judged({ language: "python", code: REVERSE_PROGRAM, tests: TESTS.slice(0, 1), checker: hog });
    assert.equal(roomy.json.verdict, "AC", roomy.text);
    const tight = await keyOnPlan("checker-tight", { checker_memory_mb: 64 });
    const r = await judged({ language: "python", code: REVERSE_PROGRAM, tests: TESTS.slice(0, 1), checker: hog }, tight);
    assert.equal(r.json.verdict, "WA", r.text);
    assert.equal(r.json.evidence.verdict_cause, "checker_failed");
    assert.equal(r.json.evidence.checker.cause, "oom_kill");
  });
});

describe("bad checker input is a 400 naming the field; nothing is stored", () => {
  const base = { language: "python", code: REVERSE_PROGRAM, tests: TESTS };
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["code above 64 KiB", { ...base, checker: { ...PYTHON, code: "#".repeat(64 * 1024 + 1) } }, "invalid checker.code", /65537 bytes; at most 65536/],
    ["empty code", { ...base, checker: { ...PYTHON, code: "" } }, "invalid checker.code", /must not be empty/],
    ["files above 1 MiB in all", { ...base, checker: { ...PYTHON, files: [{ path: "big", content: "x".repeat(1024 * 1024 + 1) }] } }, "invalid checker.files", /exceed 1048576 bytes/],
    ["a file named as one it reads", { ...base, checker: { ...PYTHON, files: [{ path: "output.txt", content: "x" }] } }, "invalid checker.files[0].path", /"output\.txt" is the name of a file the checker reads/],
    ["with compare", { ...base, compare: "tokens", checker: PYTHON }, "invalid compare", /does not apply with a checker/],
    ["with float_epsilon", { ...base, float_epsilon: 0.1, checker: PYTHON }, "invalid float_epsilon", /does not apply with a checker/],
    ["an unknown field", { ...base, checker: { ...PYTHON, args: ["x"] } }, "invalid request", /unknown field\(s\): checker\.args/],
  ];
  itRefuses(() => c, cases);
  refusesLanguages(() => c, base, "checker", PYTHON);
});
