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

/** One answer per id asked, in its order (repeats included); each distinct id is read once. */
export async function readRecords(env: Env, ids: readonly string[], accountId: string | null): Promise<(ResultRecord | null)[]> {
  const distinct = [...new Set(ids.map((id) => id.toLowerCase()))];
  const read = new Map(await Promise.all(distinct.map(async (id) => [id, await readRecord(env, id, accountId)] as const)));
  return ids.map((id) => read.get(id.toLowerCase()) ?? null);
}

/** The event stream after `after`; null when unknown or another account's; "busy" when full. */
export async function openEvents(env: Env, id: string, accountId: string, after: number): Promise<ReadableStream<Uint8Array> | null | "busy"> {
  const lower = id.toLowerCase();
  if (!shardInUse(lower, config(env).submissionShards)) return null;
  return submissionObject(env, lower).events(lower, accountId, after);
}
