// Admits a submission (its bytes in the node's in-flight budget, then the scheduler) and drives it
// through the engine to a kept outcome, publishing its output (when asked) and test events on the
// way, within its output budget (submission-output.ts).
import type { ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { Engine, EngineRequest, TestOutcome } from "../engine.ts";
import type { ResolvedRun } from "../languages/resolve.ts";
import { toEngineRequest } from "./engine-request.ts";
import { fingerprint } from "./fingerprint.ts";
import type { Logger } from "./logger.ts";
import type { Metrics } from "./metrics.ts";
import { submissionBytes, type InflightBytes } from "./inflight.ts";
import { internalErrorOutcome } from "./result-to-proto.ts";
import { SubmissionOutput } from "./submission-output.ts";
import { Run, type RunRegistry } from "./run-registry.ts";
import { LiveInput } from "./live-input.ts";
import type { Job, Scheduler } from "./scheduler.ts";

export interface Submission {
  id: string;
  /** Canonical name. */
  language: string;
  /** As received (already validated). */
  request: ExecuteRequest;
  /** Its languages and versions as the door resolved them; the engine takes them as they are. */
  resolved?: ResolvedRun;
}

export interface RunnerDeps {
  engine: Engine;
  scheduler: Scheduler;
  registry: RunRegistry;
  inflight: InflightBytes;
  metrics: Metrics;
  logger: Logger;
}

/**
 * Registers and schedules a new run, its bytes reserved in the node's in-flight budget until it
 * completes; throws RESOURCE_EXHAUSTED when the budget or the queue is full.
 */
export function startRun(deps: RunnerDeps, submission: Submission): Run {
  const { registry, scheduler } = deps;
  const release = deps.inflight.reserve(submissionBytes(submission.request));
  const run = new Run(submission.id, submission.language, fingerprint(submission.request, submission.language));
  if (submission.request.liveStdin) run.live = new LiveInput();
  const admittedAt = performance.now();
  const job: Job = {
    run: () => execute(deps, run, submission, admittedAt).finally(release),
    moved: (position) => run.markQueued(position),
  };
  registry.add(run);
  let position: number;
  try {
    position = scheduler.submit(job);
  } catch (error) {
    registry.forget(run.id);
    release();
    throw error;
  }
  if (position > 0) {
    run.markQueued(position);
    const withdraw = () => {
      if (!scheduler.withdraw(job)) return;
      release();
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
  // Every chunk goes through the submission's output budget; Output events only when asked.
  const output = new SubmissionOutput(submission.request, submission.request.streamOutput ? (event) => run.output(event) : undefined);
  const request: EngineRequest = {
    ...toEngineRequest(submission.request, submission.language),
    ...(submission.resolved ? { resolved: submission.resolved, version: submission.resolved.program.version } : {}),
    onOutput: output.write.bind(output),
    // Stages are a live session's (what its client shows); other streams keep their events.
    ...(run.live ? { liveStdin: run.live.stream, signals: run.live.signals, onStage: (stage: string) => (output.flush(), run.stage(stage)) } : {}),
    keepTest: output.keep.bind(output),
    onTest: (index: number, test: TestOutcome) => run.testFinished(index, output.sent(index, test)),
  };
  let outcome;
  try {
    outcome = await engine.execute(request, run.abortController.signal);
  } catch (error) {
    logger.error({ err: error, submission_id: run.id, language: run.language }, "engine failed");
    outcome = internalErrorOutcome(run.language, (performance.now() - started) / 1000);
  }
  const runSecs = (performance.now() - started) / 1000;
  const result = output.result(outcome, { submissionId: run.id, startedAt, completedAt: new Date() });
  run.live?.close();
  run.complete(result);
  deps.registry.retain(run);
  metrics.runs.inc({ language: outcome.language, verdict: outcome.result.verdict });
  if (output.allowance.dropped) metrics.resultsTrimmed.inc();
  metrics.runDuration.observe({ language: outcome.language }, runSecs);
  const tally = result.outputTally!;
  logger.info(
    {
      submission_id: run.id,
      language: outcome.language,
      verdict: outcome.result.verdict,
      cause: outcome.result.evidence.verdict_cause,
      cache_hit: outcome.compileCacheHit,
      ...(output.allowance.dropped ? { output_trimmed: true, output_dropped_bytes: tally.stdoutDroppedBytes + tally.stderrDroppedBytes } : {}),
      queue_ms: Math.round(queueSecs * 1000),
      run_ms: Math.round(runSecs * 1000),
      cancelled: run.abortController.signal.aborted,
    },
    "run completed",
  );
}
