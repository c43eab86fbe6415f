// Admits a submission to the scheduler and drives it through the engine to a kept outcome.
import { createHash } from "node:crypto";
import type { Engine } from "../engine.ts";
import type { Logger } from "./logger.ts";
import type { Metrics } from "./metrics.ts";
import { internalErrorOutcome, resultToProto } from "./result-to-proto.ts";
import { Run, type RunRegistry } from "./run-registry.ts";
import type { Job, Scheduler } from "./scheduler.ts";
import { OutputTap } from "./output-tap.ts";

export interface Submission {
  id: string;
  /** Canonical name. */
  language: string;
  code: string;
  stdin: string;
  /** ExecuteRequest.tenant_id: per-tenant shares on the node (the compile cache). */
  tenantId?: string;
  /** ExecuteRequest.stream_output: publish the program's output as it is written. */
  streamOutput?: boolean;
}

export interface RunnerDeps {
  engine: Engine;
  scheduler: Scheduler;
  registry: RunRegistry;
  metrics: Metrics;
  logger: Logger;
}

export function fingerprint(language: string, code: string, stdin: string): string {
  return createHash("sha256")
    .update(`${language}\0${code.length}\0`)
    .update(code)
    .update("\0")
    .update(stdin)
    .digest("base64url");
}

/** Registers and schedules a new run; throws RESOURCE_EXHAUSTED when the queue is full. */
export function startRun(deps: RunnerDeps, submission: Submission): Run {
  const { registry, scheduler } = deps;
  const run = new Run(submission.id, submission.language, fingerprint(submission.language, submission.code, submission.stdin));
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
  const tap = submission.streamOutput ? new OutputTap(run) : undefined;
  const request = { language: submission.language, code: submission.code, stdin: submission.stdin, tenantId: submission.tenantId, onOutput: tap?.take };
  let outcome;
  try {
    outcome = await engine.execute(request, run.abortController.signal);
  } catch (error) {
    logger.error({ err: error, submission_id: run.id, language: run.language }, "engine failed");
    outcome = internalErrorOutcome(run.language, (performance.now() - started) / 1000);
  }
  tap?.flush();
  const runSecs = (performance.now() - started) / 1000;
  run.complete(resultToProto(outcome, { submissionId: run.id, startedAt, completedAt: new Date() }));
  deps.registry.retain(run);
  metrics.runs.inc({ language: outcome.language, verdict: outcome.result.verdict });
  metrics.runDuration.observe({ language: outcome.language }, runSecs);
  logger.info(
    {
      submission_id: run.id,
      language: outcome.language,
      verdict: outcome.result.verdict,
      cause: outcome.result.evidence.verdict_cause,
      cache_hit: outcome.compileCacheHit,
      queue_ms: Math.round(queueSecs * 1000),
      run_ms: Math.round(runSecs * 1000),
      cancelled: run.abortController.signal.aborted,
    },
    "run completed",
  );
}
