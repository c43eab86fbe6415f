// Interactors end to end through the public HTTP API: the production bundle of the Worker
// on workerd over HTTPS (test/edge/harness.ts, which starts scripts/edge-dev.ts), a real fleet node
// and the real kernel sandbox. Guess-the-number (the secret in the test's input)
// gives AC to a binary search in C++ and WA to a linear guesser in Python; both sides waiting on
// each other end TLE (idleness) within the wall limit; bad interactor input is a 400 naming the field.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { before } from "../hooks.ts";
import { CPP_BINARY_SEARCH, GUESS_INTERACTOR, PYTHON_LINEAR_GUESSER, WAITING_INTERACTOR, WAITING_PROGRAM, guessTest } from "../languages/fixtures/interactors.ts";
import { itRefuses, refusesLanguages, keyOnPlan, useStack } from "./harness.ts";
import type { Client, Res } from "./harness.ts";

const stack = useStack({ fleet: { env: { FLEET_SLOTS: "2" } }, edge: { vars: { SYNC_HOLD_MS: "60000" } } });
let c: Client;
let key: Promise<Client> | undefined;
/** The suites' one key, made by whichever suite runs first (a name pattern may run one alone). */
const useKey = () => before(async () => (c = await (key ??= keyOnPlan(stack, "interactive"))));
const INTERACTOR = { language: "python", code: GUESS_INTERACTOR };
const TESTS = [guessTest(100, 1, "low"), guessTest(1000, 777, "middle"), guessTest(1_000_000, 999_999, "high")];

async function judged(body: Record<string, unknown>): Promise<Res> {
  const r = await c.submit(body, { wait: true });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.job_status, "completed", r.text);
  assert.equal(r.json.evidence.isolation_mode, "strict", "the real sandbox ran it");
  return r;
}

describe("guess the number through the API", () => {
  useKey();

  it("a binary search in C++ is AC; the record's stdout is the interactor's output", async () => {
    const r = await judged({ language: "cpp", code: CPP_BINARY_SEARCH, tests: TESTS, interactor: INTERACTOR });
    assert.equal(r.json.verdict, "AC", r.text);
    assert.deepEqual(r.json.tests.map((t: Res["json"]) => [t.verdict, t.evidence.interactor.exit_code]), [["AC", 0], ["AC", 0], ["AC", 0]]);
    assert.match(r.json.tests[2].evidence.interactor.message, /^ok guessed in \d+$/);
    assert.match(r.json.tests[2].stdout, /^\d+\n$/);
  });

  it("a linear guesser in Python is WA by the interactor, with its message", async () => {
    const r = await judged({ language: "python", code: PYTHON_LINEAR_GUESSER, tests: TESTS, interactor: INTERACTOR });
    assert.equal(r.json.verdict, "WA", r.text);
    assert.equal(r.json.evidence.verdict_actor, "interactor");
    assert.equal(r.json.evidence.verdict_cause, "wrong_answer");
    assert.equal(r.json.error_message, "wrong answer more than 11 guesses");
    assert.deepEqual(r.json.tests.map((t: Res["json"]) => t.verdict), ["AC", "WA", "WA"]);
  });

  it("both sides waiting on each other end TLE (idleness) within the wall limit", async () => {
    const r = await judged({
      language: "python", code: WAITING_PROGRAM, stdin: "1 1\n", interactor: { language: "python", code: WAITING_INTERACTOR }, limits: { wall_time_ms: 10_000 },
    });
    assert.equal(r.json.verdict, "TLE", r.text);
    assert.equal(r.json.evidence.verdict_cause, "idleness");
    assert.ok(r.json.wall_time_secs < 10, `ended after ${r.json.wall_time_secs} s`);
  });
});

describe("bad interactor input is a 400 naming the field; nothing is stored", () => {
  useKey();
  const base = { language: "cpp", code: CPP_BINARY_SEARCH, tests: TESTS };
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["empty code", { ...base, interactor: { ...INTERACTOR, code: "" } }, "invalid interactor.code", /must not be empty/],
    ["a file named as one it reads", { ...base, interactor: { ...INTERACTOR, files: [{ path: "input.txt", content: "x" }] } }, "invalid interactor.files[0].path", /"input\.txt" is the name of a file the interactor reads or writes/],
  ];
  itRefuses(() => c, cases);
  refusesLanguages(() => c, base, "interactor", INTERACTOR);
});
