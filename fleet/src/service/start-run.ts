// Admits a submission to the scheduler and drives it through the engine to a kept outcome,
// publishing its output (when asked) and test events on the way.
import type { ExecuteRequest, TestResult as WireTest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { Engine, EngineRequest, TestOutcome } from "../engine.ts";
import { toEngineRequest } from "./engine-request.ts";
import { fingerprint } from "./fingerprint.ts";
import type { Logger } from "./logger.ts";
import type { Metrics } from "./metrics.ts";
import { OutputCoalescer } from "./output-coalescer.ts";
import { OUTPUT_TRIMMED, OutputBudget } from "./result-budget.ts";
import { internalErrorOutcome, resultToProto, testToProto } from "./result-to-proto.ts";
import { Run, type RunRegistry } from "./run-registry.ts";
import { LiveInput } from "./live-input.ts";
import type { Job, Scheduler } from "./scheduler.ts";

export interface Submission {
  id: string;
  /** Canonical name. */
  language: string;
  /** As received (already validated). */
  request: ExecuteRequest;
  /** The listed version to run (resolved from request.version); absent: the default. */
  version?: string;
}

const encoder = new TextEncoder();

export interface RunnerDeps {
  engine: Engine;
  scheduler: Scheduler;
  registry: RunRegistry;
  metrics: Metrics;
  logger: Logger;
}

/** Registers and schedules a new run; throws RESOURCE_EXHAUSTED when the queue is full. */
export function startRun(deps: RunnerDeps, submission: Submission): Run {
  const { registry, scheduler } = deps;
  const run = new Run(submission.id, submission.language, fingerprint(submission.request, submission.language));
  if (submission.request.liveStdin) run.live = new LiveInput();
  const admittedAt = performance.now();
  const job: Job = {
    run: () => execute(deps, run, submission, admittedAt),
    moved: (position) => run.markQueued(position),
  };
  registry.add(run);
  let position: number;
  try {
    position = scheduler.submit(job);
  } catch (error) {
    registry.forget(run.id);
    throw error;
  }
  if (position > 0) {
    run.markQueued(position);
    const withdraw = () => {
      if (!scheduler.withdraw(job)) return;
      registry.forget(run.id);
      run.discard();
      deps.logger.info({ submission_id: run.id, language: run.language }, "queued run withdrawn");
    };
    run.abortController.signal.addEventListener("abort", withdraw, { once: true });
  }
  return run;
}

async function execute(deps: RunnerDeps, run: Run, submission: Submission, admittedAt: number): Promise<void> {
  const { engine, metrics, logger } = deps;
  const startedAt = new Date();
  const started = performance.now();
  const queueSecs = (started - admittedAt) / 1000;
  metrics.queueWait.observe(queueSecs);
  run.markStarted(startedAt);
  const { binaryOutput, streamOutput } = submission.request;
  const coalescer = new OutputCoalescer((output) => run.output(output));
  // The tests' events go through the result budget as Completed will (result-budget.ts).
  const budget = new OutputBudget();
  const sentTests: WireTest[] = [];
  const request: EngineRequest = {
    ...toEngineRequest(submission.request, submission.language),
    ...(submission.version ? { version: submission.version } : {}),
    ...(streamOutput ? { onOutput: coalescer.write.bind(coalescer) } : {}),
    // Stages are a live session's (what its client shows); other streams keep their events.
    ...(run.live ? { liveStdin: run.live.stream, signals: run.live.signals, onStage: (stage: string) => (coalescer.flush(), run.stage(stage)) } : {}),
    onTest: (index: number, test: TestOutcome) => {
      coalescer.flush();
      const wire = testToProto(test, binaryOutput, budget);
      sentTests.push(wire);
      run.testFinished(index, wire);
    },
  };
  let outcome;
  try {
    outcome = await engine.execute(request, run.abortController.signal);
  } catch (error) {
    logger.error({ err: error, submission_id: run.id, language: run.language }, "engine failed");
    outcome = internalErrorOutcome(run.language, (performance.now() - started) / 1000);
  }
  const runSecs = (performance.now() - started) / 1000;
  if (streamOutput && outcome.stdoutBytes === undefined) {
    // No program ran (a compile error): its diagnostics are the output, so the stream has them too.
    coalescer.write("stdout", encoder.encode(outcome.result.stdout), 0);
    coalescer.write("stderr", encoder.encode(outcome.result.stderr), 0);
  }
  coalescer.flush();
  const result = resultToProto(outcome, { submissionId: run.id, startedAt, completedAt: new Date(), binaryOutput }, { budget, tests: sentTests });
  const trimmed = result.evidence?.judgeActions.includes(OUTPUT_TRIMMED) ?? false;
  run.live?.close();
  run.complete(result);
  deps.registry.retain(run);
  metrics.runs.inc({ language: outcome.language, verdict: outcome.result.verdict });
  if (trimmed) metrics.resultsTrimmed.inc();
  metrics.runDuration.observe({ language: outcome.language }, runSecs);
  logger.info(
    {
      submission_id: run.id,
      language: outcome.language,
      verdict: outcome.result.verdict,
      cause: outcome.result.evidence.verdict_cause,
      cache_hit: outcome.compileCacheHit,
      ...(trimmed ? { output_trimmed: true } : {}),
      queue_ms: Math.round(queueSecs * 1000),
      run_ms: Math.round(runSecs * 1000),
      cancelled: run.abortController.signal.aborted,
    },
    "run completed",
  );
}
