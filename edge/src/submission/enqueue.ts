// A new submission's place: its first pool's scheduler, or another pool's when that one cannot take
// it (queue-pool.ts decides where to ask next).
import type { CreateInput } from "../contracts/submission.ts";
import type { Env } from "../env.ts";
import { runKey } from "../scheduling/run-key.ts";
import { scheduler } from "../stubs.ts";
import { enqueueInPools } from "./queue-pool.ts";

export function enqueueNew(env: Env, input: CreateInput): ReturnType<typeof enqueueInPools> {
  const key = runKey(input.language, input.format);
  const enqueue = (pool: string, mayDecline: boolean) => scheduler(env, pool).enqueue(input.id, key, { pool, mayDecline });
  return enqueueInPools(input.pool, enqueue(input.pool, true), enqueue);
}
