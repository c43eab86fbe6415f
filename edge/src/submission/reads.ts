// A submission as the Worker reads it: from its shard. An id naming a shard outside
// SUBMISSION_SHARDS is unknown without asking any object (a read never makes an object of its own).
import type { ResultRecord } from "../../../proto/record.ts";
import { config, type Env } from "../env.ts";
import { submissionObject } from "../stubs.ts";
import { shardInUse } from "../contracts/submission-id.ts";

/** The record, or null when unknown or another account's (`accountId` null: any account). */
export async function readRecord(env: Env, id: string, accountId: string | null): Promise<ResultRecord | null> {
  const lower = id.toLowerCase();
  if (!shardInUse(lower, config(env).submissionShards)) return null;
  return submissionObject(env, lower).get(lower, accountId);
}

/** The record to answer GET /api/result with (SubmissionRpc.read); null when unknown or another account's. */
export async function readForAnswer(env: Env, id: string, accountId: string): Promise<ResultRecord | ReadableStream<Uint8Array> | null> {
  const lower = id.toLowerCase();
  if (!shardInUse(lower, config(env).submissionShards)) return null;
  return submissionObject(env, lower).read(lower, accountId);
}

/**
 * The records of `ids` in their order (a null id: null), read one at a time, the next while the
 * caller handles this one: a batch read holds two records at most, whatever their output.
 */
export async function* recordsInTurn(env: Env, ids: readonly (string | null)[], accountId: string | null): AsyncGenerator<ResultRecord | null> {
  const read = (id: string | null | undefined) => (id ? readRecord(env, id, accountId) : Promise.resolve(null));
  let next = read(ids[0]);
  for (let i = 0; i < ids.length; i++) {
    const rec = await next;
    if (i + 1 < ids.length) next = read(ids[i + 1]);
    yield rec;
  }
}

/** The event stream after `after`; null when unknown or another account's; "busy" when full. */
export async function openEvents(env: Env, id: string, accountId: string, after: number): Promise<ReadableStream<Uint8Array> | null | "busy"> {
  const lower = id.toLowerCase();
  if (!shardInUse(lower, config(env).submissionShards)) return null;
  return submissionObject(env, lower).events(lower, accountId, after);
}
