// Which store object (SubmissionDO shard) holds a submission. The edge picks a random shard out of
// SUBMISSION_SHARDS when it makes the id and writes it into the id's first four hex digits, so the
// id alone names its shard: changing the count later moves no record, and a client's id is all a
// read needs. The id stays a version-4 UUID (the version and variant digits are untouched) with
// 106 random bits.
export const MAX_SHARDS = 65_536;

/** The shard's object name for a submission id. */
export function shardName(id: string): string {
  return `shard:${id.slice(0, 4).toLowerCase()}`;
}

/** A new submission id in a random one of `shards` shards. */
export function newSubmissionId(shards: number, uuid: string = crypto.randomUUID(), random: () => number = Math.random): string {
  const count = Math.max(1, Math.min(MAX_SHARDS, Math.floor(shards)));
  const shard = Math.min(count - 1, Math.floor(random() * count));
  return shard.toString(16).padStart(4, "0") + uuid.slice(4);
}

/**
 * Whether the id names one of the `shards` shards in use. An id naming another is unknown: no
 * submission was ever placed there (SUBMISSION_SHARDS is only ever raised), so no object is asked.
 */
export function shardInUse(id: string, shards: number): boolean {
  const digits = id.slice(0, 4);
  return /^[0-9a-f]{4}$/i.test(digits) && Number.parseInt(digits, 16) < shards;
}
