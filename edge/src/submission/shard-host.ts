// What a submission (submission.ts) needs of the shard hosting it (do/submission-do.ts).
import type { Config, Env } from "../env.ts";

/** What a submission needs of the shard hosting it. */
export interface ShardHost {
  env: Env;
  cfg: Config;
  storage: DurableObjectStorage;
  waitUntil(p: Promise<unknown>): void;
  /** This submission's next wake-up (its alarm()). */
  setAlarm(id: string, at: number): void;
  /** Deletes the submission's wake-up and forgets its live instance. */
  dropped(id: string): void;
}
