// Back to the queue: a node refused the run before the program started, or was lost mid-run. The
// run goes to another node within the submission's time budget; the node is marked not ready.
import { runKey } from "../scheduling/run-key.ts";
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import type { NodeTarget } from "../contracts/scheduler.ts";
import type { Config, Env } from "../env.ts";
import { fleetRegistry, scheduler } from "../stubs.ts";
import type { SubmissionStore } from "./store.ts";

export interface RequeueWork {
  env: Env;
  cfg: Config;
  store: SubmissionStore;
  setAlarm(at: number): void;
  startRun(node: NodeTarget): void;
  fail(why: string): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function requeueRun(w: RequeueWork, nodeId: string, reason: string): Promise<void> {
  const kv = w.store.kv;
  const meta = w.store.meta();
  if (!meta) return;
  kv.delete("run");
  kv.put("refusals", (kv.get<number>("refusals") ?? 0) + 1);
  if (Date.now() - meta.created_ms > w.cfg.queueTimeoutMs) {
    return w.fail(`no fleet node could take the run within ${Math.round(w.cfg.queueTimeoutMs / 1000)} s; the last one, ${nodeId}: ${reason}`);
  }
  const [r] = await Promise.all([
    scheduler(w.env, meta.pool ?? DEFAULT_POOL).requeue(meta.id, runKey(meta.language, meta.format), nodeId, reason),
    fleetRegistry(w.env).nodeRefused(nodeId, reason).catch((e: unknown) => console.warn("could not mark the node not ready", nodeId, message(e))),
  ]);
  if (r.kind === "dispatched") w.startRun(r.node);
  else w.setAlarm(Date.now() + Math.min(w.cfg.watchdogMs, 1_000));
}
