// What a submission's wake-up checks while it is not terminal (submission.ts): a queued one asks its
// scheduler (a lost dispatch is picked up, a queue budget runs out), a dispatched one asks its node
// (GetResult: how a broken stream, an evicted object or an edge restart recovers; a node that
// forgot the run or cannot be reached is lost, and the run goes elsewhere).
import { RunState } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { GrpcError, fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import { Status } from "../../../proto/grpc-web/status.ts";
import type { NodeTarget } from "../contracts/scheduler.ts";
import { undeliverable } from "./run-errors.ts";
import type { Config, Env } from "../env.ts";
import { fleetRegistry, type scheduler } from "../stubs.ts";
import type { Meta, Run, SubmissionStore } from "./store.ts";

export interface WatchdogWork {
  env: Env;
  cfg: Config;
  store: SubmissionStore;
  /** An Execute stream is open right now. */
  streaming: boolean;
  /** The submission's pool's scheduler. */
  scheduler(): ReturnType<typeof scheduler>;
  startRun(node: NodeTarget): void;
  fail(why: string): Promise<void>;
  lost(run: Run, why: string): Promise<void>;
  complete(result: ExecutionResult): Promise<void>;
  markRunning(startedAt: Date | undefined): void;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function checkQueued(w: WatchdogWork, meta: Meta, now: number): Promise<void> {
  const p = await w.scheduler().poll(meta.id);
  if (p.state === "assigned") w.startRun(p.node);
  else if (p.state === "queued") {
    if (now - meta.created_ms > w.cfg.queueTimeoutMs && (await w.scheduler().cancel(meta.id))) {
      await w.fail(`no fleet node became available within ${Math.round(w.cfg.queueTimeoutMs / 1000)} s`);
    }
  } else if (!w.store.run()) await w.fail("the submission was lost from the fleet queue");
}

export async function checkRun(w: WatchdogWork, meta: Meta, run: Run): Promise<void> {
  const target = await fleetRegistry(w.env).target(run.node_id);
  if (!target) return w.lost(run, `fleet node ${run.node_id} was removed from the registry during the run`);
  try {
    const res = await unary(target, fleetMethods.getResult, { submissionId: meta.id }, Math.min(w.cfg.watchdogMs, 5_000));
    w.store.updateRun({ failures: 0, last_error: null });
    if (res.state === RunState.RUN_STATE_COMPLETED && res.result) await w.complete(res.result);
    else if (res.state === RunState.RUN_STATE_RUNNING) w.markRunning(res.startedAt);
    else if (res.state !== RunState.RUN_STATE_QUEUED && (!w.streaming || Date.now() - run.dispatched_ms > 2 * w.cfg.watchdogMs)) {
      // UNKNOWN: the node never got the call or forgot it (restart): its run is gone with it.
      await w.lost(run, `fleet node ${run.node_id} has no record of the submission (it restarted or lost it)`);
    }
  } catch (e) {
    if (e instanceof GrpcError && e.tooLarge) return w.fail(undeliverable(run.node_id, e));
    // The node answered with an error status: it is alive and has the run, so it is not lost and
    // the run is not dispatched again (UNAVAILABLE alone may be a node shutting down).
    if (e instanceof GrpcError && !e.transport && e.code !== Status.UNAVAILABLE) {
      return w.fail(`fleet node ${run.node_id} could not report the run's outcome (${e.statusName}: ${e.message}); it is not dispatched again`);
    }
    const failures = run.failures + 1;
    w.store.updateRun({ failures, last_error: message(e) });
    if (failures >= w.cfg.watchdogFailures) await w.lost(run, `lost contact with fleet node ${run.node_id} during the run (${message(e)})`);
  }
}
