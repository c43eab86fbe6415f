// Every Durable Object stub is made here: which object a name maps to is decided in one place.
import type { Env } from "./env.ts";
import { DEFAULT_POOL } from "./contracts/scheduler.ts";
import { shardName } from "./contracts/submission-id.ts";

/** The node registry: one for the whole edge. */
export function fleetRegistry(env: Env) {
  return env.FLEET_DO.get(env.FLEET_DO.idFromName("global"));
}

/** The scheduler of one pool (queue and run slots of the pool's nodes). */
export function scheduler(env: Env, pool: string = DEFAULT_POOL) {
  return env.SCHEDULER_DO.get(env.SCHEDULER_DO.idFromName(`pool:${pool}`));
}

/** The operator doors' guard (failed operator-token attempts): one for the whole edge. */
export function operatorDoor(env: Env) {
  return env.DOOR_DO.get(env.DOOR_DO.idFromName("operator"));
}

/** The operators' dashboard: one for the whole edge. */
export function dashboard(env: Env) {
  return env.DASHBOARD_DO.get(env.DASHBOARD_DO.idFromName("dashboard"));
}

/** One per API key, named by the key's SHA-256. */
export function keyObject(env: Env, keyHash: string) {
  return env.KEY_DO.get(env.KEY_DO.idFromName(keyHash));
}

/** The shard holding a submission, named by its id (contracts/submission-id.ts). */
export function submissionObject(env: Env, id: string) {
  return env.SUBMISSION_DO.get(env.SUBMISSION_DO.idFromName(shardName(id)));
}

/** One per submission that has webhook targets. */
export function webhookDelivery(env: Env, submissionId: string) {
  return env.WEBHOOK_DELIVERY_DO.get(env.WEBHOOK_DELIVERY_DO.idFromName(submissionId.toLowerCase()));
}

/** One per live session, named by the session's id (do/session-do.ts). */
export function sessionObject(env: Env, sessionId: string) {
  return env.SESSION_DO.get(env.SESSION_DO.idFromName(sessionId.toLowerCase()));
}

/** The edge's request metrics: one for the whole edge. */
export function metrics(env: Env) {
  return env.METRICS_DO.get(env.METRICS_DO.idFromName("metrics"));
}
