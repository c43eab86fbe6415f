// The grader: one request from its code to its judged outcome, in the sandbox. The program is
// prepared once (prepare.ts: compiled through the compile cache when the language needs it),
// then so are its checker and interactor programs (programs/), and then it runs: once, or once
// per test (tests.ts), each run judged by a built-in compare (compare/) or the checker. A test
// set's checks go to a check server (programs/check-server.ts).
import type { EngineChecker, EngineRequest, ExecuteOutcome } from "../engine.ts";
import { LIVE_RUN_LIMITS, RUN_LIMITS, narrowLimits } from "../sandbox/limits.ts";
import type { ExecutionRecord, Limits } from "../sandbox/run-spec.ts";
import type { JudgeRole } from "../../../proto/checker-rules.ts";
import type { OutputChecks } from "./compare/check-pool.ts";
import { prepare, type LanguageTarget, type Prepared, type PreparedProgram, type PrepareParts } from "./prepare.ts";
import { withCheckServer } from "./programs/check-server.ts";
import { checkerJudge, checkerLimits, checkerNotPrepared, checkerRequest } from "./programs/custom-checker.ts";
import { interactiveRunOnce, interactorLimits } from "./programs/interactor.ts";
import { testsBudgetMs } from "./tests-budget.ts";
import { judgeRun, runTests, type RunOnce } from "./tests.ts";

export type { LanguageTarget, PreparedProgram } from "./prepare.ts";

/** The languages of the request's checker and interactor, when it has them. */
export interface JudgeTargets {
  checker?: LanguageTarget;
  interactor?: LanguageTarget;
}

/** What grading one request needs: the node's parts, the request, and the languages resolved for it. */
export interface GradingContext extends PrepareParts {
  /** The program's language and toolchain. */
  program: LanguageTarget;
  judges?: JudgeTargets;
  /** The node's built-in compares, off the event loop (compare/check-pool.ts). */
  checks: OutputChecks;
  request: EngineRequest;
}

/** The checker and interactor programs, prepared. */
interface ReadyJudges {
  checker?: PreparedProgram;
  interactor?: PreparedProgram;
}

/** Grades one request: the program prepared, then its checker and interactor, then its runs, each judged. */
export async function grade(context: GradingContext): Promise<ExecuteOutcome> {
  const { request, program: target } = context;
  const runLimits = narrowLimits(request.liveStdin ? LIVE_RUN_LIMITS : RUN_LIMITS, request.limits);
  if (target.language.compile) request.onStage?.("compile");
  const prepared = await prepare(context, target, request, runLimits);
  if ("failed" in prepared) return outcome(context, prepared.failed);
  const helpers: Prepared[] = [];
  try {
    const judges = await prepareJudges(context, runLimits, helpers);
    if ("failed" in judges) return outcome(context, judges.failed, prepared.compileCacheHit);
    request.onStage?.("run");
    return await judgeProgram(context, prepared, judges);
  } finally {
    prepared.release();
    for (const helper of helpers) if (!("failed" in helper)) helper.release();
  }
}

/** The interactor, then the checker, each prepared as a program of its own; `helpers` gets each to release. */
async function prepareJudges(context: GradingContext, runLimits: Limits, helpers: Prepared[]): Promise<ReadyJudges | { failed: ExecutionRecord }> {
  const { request, judges = {} } = context;
  const prepareJudge = async (role: JudgeRole, spec: EngineChecker, target: LanguageTarget, limits: Limits) => {
    const ready = await prepare(context, target, checkerRequest(request, spec, role), limits);
    helpers.push(ready);
    return "failed" in ready ? { failed: checkerNotPrepared(ready.failed, role) } : ready;
  };
  const ready: ReadyJudges = {};
  if (request.interactor && judges.interactor) {
    const interactor = await prepareJudge("interactor", request.interactor, judges.interactor, interactorLimits(request.interactor, runLimits));
    if ("failed" in interactor) return interactor;
    ready.interactor = interactor.program;
  }
  if (request.checker && judges.checker) {
    const checker = await prepareJudge("checker", request.checker, judges.checker, checkerLimits(request.checker));
    if ("failed" in checker) return checker;
    ready.checker = checker.program;
  }
  return ready;
}

/** Runs the prepared program (beside its interactor, when it has one) once or per test, and judges each run. */
async function judgeProgram(
  context: GradingContext,
  { program, compileCacheHit }: Extract<Prepared, { program: PreparedProgram }>,
  { checker, interactor }: ReadyJudges,
): Promise<ExecuteOutcome> {
  const { sandbox, checks, request, signal } = context;
  const judge = checker ? checkerJudge(sandbox, checker, signal) : undefined;
  const runOnce = interactor ? interactiveRunOnce(sandbox, program, interactor, request, signal) : runAlone(context, program);
  if (request.tests?.length) {
    const tests = request.tests.length;
    // A checker's checks go to a check server beside the test set (not beside an interactor: its partner slot is taken).
    const judged = checker && !interactor
      ? await withCheckServer(sandbox, checker, tests, testsBudgetMs(request), signal, (served) => runTests(runOnce, checks, request, signal, served))
      : await runTests(runOnce, checks, request, signal, judge);
    return outcome(context, judged.result, compileCacheHit, {
      tests: judged.tests, decidingTest: judged.decidingTest, stdoutBytes: judged.stdoutBytes, stderrBytes: judged.stderrBytes,
      ...(judged.score ? { score: judged.score } : {}),
    });
  }
  const ran = await runOnce(request.stdin, 0);
  const expected = request.check?.expected;
  const result = judge ? await judge(ran, request.stdin, expected) : await judgeRun(checks, ran.result, ran.stdoutBytes, expected, request.check);
  return outcome(context, result, compileCacheHit, { stdoutBytes: ran.stdoutBytes, stderrBytes: ran.stderrBytes });
}

/** The program alone in a fresh sandbox; `test` tags its output events. */
function runAlone(context: GradingContext, program: PreparedProgram): RunOnce {
  const { sandbox, request, signal } = context;
  const { onOutput } = request;
  return (stdin, test) =>
    sandbox.run(
      {
        ...program,
        stdin,
        ...(request.mergeStderr ? { mergeStderr: true } : {}),
        ...(request.liveStdin ? { liveStdin: request.liveStdin, ...(request.signals ? { signals: request.signals } : {}) } : {}),
        ...(onOutput ? { onOutput: (stream: "stdout" | "stderr", data: Uint8Array) => onOutput(stream, data, test) } : {}),
      },
      signal,
    );
}

function outcome(context: GradingContext, result: ExecutionRecord, compileCacheHit = false, extra: Partial<ExecuteOutcome> = {}): ExecuteOutcome {
  const { request } = context;
  return {
    language: context.program.language.name,
    result,
    compileCacheHit,
    ...(request.tests?.length ? { tests: [] } : {}),
    ...(request.version ? { version: request.version } : {}),
    ...extra,
  };
}
