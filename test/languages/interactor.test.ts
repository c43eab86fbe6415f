// Interactors on the real kernel, at the engine (docs/languages.md, "Interactors"): guess-the-number
// with a Python interactor gives AC to a binary search in C++ and WA to a linear guesser in
// Python; a checker then judges the interactor's output; both sides waiting is TLE by idleness,
// long before the wall limit; the program's own failure before the interactor's verdict is its own.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EngineChecker, EngineRequest, ExecuteOutcome } from "../../fleet/src/engine.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";
import { CPP_BINARY_SEARCH, GUESS_INTERACTOR, PYTHON_LINEAR_GUESSER, WAITING_INTERACTOR, WAITING_PROGRAM, guessTest } from "./fixtures/interactors.ts";

const { engine } = useEngine("codecell-interactor-");

const INTERACTOR: EngineChecker = { language: "python", code: GUESS_INTERACTOR };
const TESTS = [guessTest(1000, 1, "low"), guessTest(1000, 777, "middle"), guessTest(1_000_000, 999_999, "high")].map((t) => ({ name: t.name!, stdin: t.stdin }));

const interact = (language: string, code: string, extra: Partial<EngineRequest> = {}): Promise<ExecuteOutcome> =>
  engine.execute({ language, code, stdin: "", tests: TESTS, interactor: INTERACTOR, ...extra });

describe("guess the number", { concurrency: 1 }, () => {
  it("a binary search in C++ is AC on every test; the interactor's output is the test's stdout", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await interact("cpp", CPP_BINARY_SEARCH);
    assert.equal(outcome.result.verdict, "AC", outcome.result.error_message ?? "");
    for (const test of outcome.tests!) {
      assert.equal(test.result.verdict, "AC", test.result.error_message ?? "");
      assert.equal(test.result.evidence.interactor?.exit_code, 0);
      assert.match(test.result.evidence.interactor?.message ?? "", /^ok guessed in \d+$/);
      assert.ok(Number(test.result.stdout) <= 21, `guesses: ${test.result.stdout}`);
    }
  });

  it("a linear guesser in Python is WA by the interactor, its stderr the message", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await interact("python", PYTHON_LINEAR_GUESSER);
    assert.equal(outcome.result.verdict, "WA");
    assert.deepEqual(outcome.tests!.map((test) => test.result.verdict), ["AC", "WA", "WA"]);
    const { evidence, error_message } = outcome.tests![1]!.result;
    assert.equal(evidence.verdict_actor, "interactor");
    assert.equal(evidence.verdict_cause, "wrong_answer");
    assert.equal(evidence.interactor?.exit_code, 1);
    assert.match(error_message ?? "", /more than 11 guesses/);
  });

  it("a checker judges the interactor's output file against the expected output", async (t) => {
    if (!requireKernel(t)) return;
    const atMostOneGuess = { language: "python", code: "import sys\ninp, out, ans = sys.argv[1:4]\nsys.exit(0 if int(open(out).read()) <= int(open(ans).read()) else 1)\n" };
    const tests = [{ name: "one", stdin: guessTest(1, 1).stdin, expected: "1\n" }, { name: "many", stdin: guessTest(1000, 1).stdin, expected: "1\n" }];
    const outcome = await interact("cpp", CPP_BINARY_SEARCH, { tests, checker: atMostOneGuess });
    assert.deepEqual(outcome.tests!.map((test) => [test.result.verdict, test.result.evidence.verdict_actor]), [["AC", "runtime"], ["WA", "checker"]]);
  });

  it("both sides waiting on each other is TLE, cause idleness, long before the wall limit", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await engine.execute({
      language: "python", code: WAITING_PROGRAM, stdin: "1 1\n", interactor: { language: "python", code: WAITING_INTERACTOR }, limits: { wallTimeMs: 15_000 },
    });
    assert.equal(outcome.result.verdict, "TLE", outcome.result.error_message ?? "");
    assert.equal(outcome.result.evidence.verdict_cause, "idleness");
    assert.ok(outcome.result.wall_time_secs < 15, `ended after ${outcome.result.wall_time_secs} s`);
  });

  it("a program that crashes before the interactor's verdict gets its own verdict (RE)", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await interact("python", "n = int(input())\nraise SystemExit(4)\n");
    assert.equal(outcome.result.verdict, "RE", outcome.result.error_message ?? "");
    assert.equal(outcome.tests![0]!.result.evidence.verdict_actor, "runtime");
  });

  it("an interactor that fails is its own failure: WA interactor_failed, never IE", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await interact("cpp", CPP_BINARY_SEARCH, { interactor: { language: "python", code: "import sys\nsys.stderr.write('bad input\\n')\nsys.exit(3)\n" } });
    assert.equal(outcome.result.verdict, "WA");
    assert.equal(outcome.result.evidence.verdict_cause, "interactor_failed");
    assert.equal(outcome.result.evidence.verdict_actor, "interactor");
    assert.match(outcome.result.error_message ?? "", /bad input/);
    assert.equal(engine.health().ready, true);
  });
});
