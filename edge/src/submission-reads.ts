// A submission as the Worker reads it: from its shard, else (a submission made before shards)
// from the object of its own.
import type { ResultRecord } from "../../proto/record.ts";
import type { Env } from "./env.ts";
import { legacySubmissionObject, submissionObject } from "./stubs.ts";

/** The record, or null when unknown or another account's (`accountId` null: any account). */
export async function readRecord(env: Env, id: string, accountId: string | null): Promise<ResultRecord | null> {
  const lower = id.toLowerCase();
  return (await submissionObject(env, lower).get(lower, accountId)) ?? (await legacySubmissionObject(env, lower).get(lower, accountId));
}

/** The event stream after `after`; null when unknown or another account's; "busy" when full. */
export async function openEvents(env: Env, id: string, accountId: string, after: number): Promise<ReadableStream<Uint8Array> | null | "busy"> {
  const lower = id.toLowerCase();
  return (await submissionObject(env, lower).events(lower, accountId, after)) ?? (await legacySubmissionObject(env, lower).events(lower, accountId, after));
}
