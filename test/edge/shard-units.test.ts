// Unit tests of the submission shard rule (edge/src/contracts/submission-id.ts) and of the event log's
// write timing (edge/src/submission/event-log.ts) over an in-memory SyncKv.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UUID_PATTERN } from "../../proto/limits.ts";
import { MAX_SHARDS, newSubmissionId, shardName } from "../../edge/src/contracts/submission-id.ts";
import { EventLog } from "../../edge/src/submission/event-log.ts";
import type { BulkKv } from "../../edge/src/lib/scoped-kv.ts";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("submission shards", () => {
  it("an id names its shard in its first four hex digits and stays a version-4 UUID", () => {
    const uuid = "9f1c2b3a-1111-4222-8333-444455556666";
    assert.equal(newSubmissionId(16, uuid, () => 0), "00002b3a-1111-4222-8333-444455556666");
    assert.equal(newSubmissionId(16, uuid, () => 0.999999), "000f2b3a-1111-4222-8333-444455556666");
    assert.equal(newSubmissionId(300, uuid, () => 0.5), "00962b3a-1111-4222-8333-444455556666");
    for (let i = 0; i < 200; i++) {
      const id = newSubmissionId(16);
      assert.match(id, V4);
      assert.match(id, UUID_PATTERN);
      assert.ok(parseInt(id.slice(0, 4), 16) < 16, id);
    }
  });

  it("the count is clamped to 1..65536 and a random 1.0 never leaves the range", () => {
    const uuid = "9f1c2b3a-1111-4222-8333-444455556666";
    assert.equal(newSubmissionId(0, uuid, () => 0.7).slice(0, 4), "0000");
    assert.equal(newSubmissionId(-5, uuid, () => 0.7).slice(0, 4), "0000");
    assert.equal(newSubmissionId(1e9, uuid, () => 1).slice(0, 4), (MAX_SHARDS - 1).toString(16));
    assert.equal(newSubmissionId(4, uuid, () => 1).slice(0, 4), "0003");
  });

  it("the shard name depends on the id alone, in any case", () => {
    assert.equal(shardName("00AF2b3a-1111-4222-8333-444455556666"), "shard:00af");
    assert.equal(shardName("00af2b3a-1111-4222-8333-444455556666"), shardName("00AF2B3A-1111-4222-8333-444455556666"));
    assert.notEqual(shardName("00af2b3a-1111-4222-8333-444455556666"), shardName("00ae2b3a-1111-4222-8333-444455556666"));
  });
});

class MemoryKv implements BulkKv {
  map = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    return this.map.get(key) as T | undefined;
  }
  put<T>(key: string, value: T): void {
    this.writes++;
    this.map.set(key, value);
  }
  delete(key: string): boolean {
    this.writes++;
    return this.map.delete(key);
  }
  reads = 0;
  getThrough<T>(key: string): T | undefined {
    this.reads++;
    return this.get<T>(key);
  }
  putThrough<T>(key: string, value: T): void {
    this.put(key, value);
  }
}

const out = (t: number, text: string) => ({ o: "stdout" as const, t, b: new TextEncoder().encode(text) });

describe("event log writes", () => {
  it("holds entries in memory until flushed, numbering them at once", () => {
    const kv = new MemoryKv();
    const log = new EventLog(kv);
    assert.equal(log.append("f1"), 1);
    assert.equal(log.append(out(0, "x")), 2);
    assert.equal(log.last, 2);
    assert.equal(log.outputs, 1);
    assert.equal(kv.writes, 0);
    log.flush();
    assert.equal(kv.get("ev:1"), "f1");
    assert.deepEqual(kv.get("ev:2"), out(0, "x"));
    assert.equal(kv.get("ev_last"), 2);
    // A later instance (after an eviction) continues from what was written.
    assert.equal(new EventLog(kv).last, 2);
  });

  it("writes each entry at once while a client follows, and the completed mark flushes first", () => {
    const kv = new MemoryKv();
    const log = new EventLog(kv);
    log.append("f1");
    log.persistEagerly();
    assert.equal(kv.get("ev:1"), "f1");
    log.append("f2");
    assert.equal(kv.get("ev:2"), "f2");
    const other = new EventLog(new MemoryKv());
    other.append("g1");
    assert.equal(other.markCompleted(), 2);
    assert.deepEqual([...other.replay(0, (id, e) => (e === null ? `done${id}` : String(e)))], ["g1", "done2"]);
  });

  it("a replay writes what is held first, so it sees every entry", () => {
    const kv = new MemoryKv();
    const log = new EventLog(kv);
    log.append("f1");
    log.append("f2");
    assert.deepEqual([...log.replay(1, (_id, e) => String(e))], ["f2"]);
    assert.equal(kv.get("ev:2"), "f2");
  });

  it("compaction: chunks written by an earlier instance are read back and become ranges of the record when they match; a stream that does not match keeps its bytes", () => {
    const kv = new MemoryKv();
    const log = new EventLog(kv);
    const enc = (t: string) => new TextEncoder().encode(t);
    log.append("queued");
    log.append(out(0, "ab"));
    log.append(out(0, "cd"));
    log.append({ o: "stderr", t: 0, b: enc("E") });
    log.append({ i: 0, r: { name: "t1" } as never, b: [enc("abcd"), enc("X")] });
    log.append(out(1, "zz"));
    log.flush();
    const record = { tests: [{ stdout: enc("abcd"), stderr: enc("X") }, { stdout: enc("zz"), stderr: enc("") }], topTest: 0 };
    // A later instance (the first was evicted): what it did not write it reads back and compares.
    const left = new EventLog(kv).compact(record);
    assert.deepEqual(kv.get("ev:2"), { o: "stdout", t: 0, p: 0, a: 0, z: 2 });
    assert.deepEqual(kv.get("ev:3"), { o: "stdout", t: 0, p: 0, a: 2, z: 4 });
    assert.deepEqual(kv.get("ev:4"), { o: "stderr", t: 0, b: enc("E") }, "E is not the record's stderr X: kept as sent");
    assert.deepEqual(kv.get("ev:5"), { i: 0 });
    assert.deepEqual(kv.get("ev:6"), { o: "stdout", t: 1, p: 1, a: 0, z: 2 });
    assert.equal(left, 1 + 64, "the bytes still stored in entries are counted");
    assert.equal(kv.get("ev:1"), "queued");
    // Without a record (an error) nothing is compacted and every chunk is counted.
    const other = new EventLog(new MemoryKv());
    other.append(out(0, "abc"));
    assert.equal(other.compact(null), 3 + 64);
  });

  it("compaction: what the instance appended itself is placed by its length, without reading it back", () => {
    const kv = new MemoryKv();
    const log = new EventLog(kv);
    const enc = (t: string) => new TextEncoder().encode(t);
    log.append(out(0, "ab"));
    log.persistEagerly(); // written, as with a follower
    log.append(out(0, "cd"));
    log.append({ i: 0, r: { name: "t1" } as never, b: [enc("abcd"), enc("")] });
    const reads = kv.reads;
    assert.equal(log.compact({ tests: [{ stdout: enc("abcd"), stderr: enc("") }], topTest: 0 }), 0);
    assert.equal(kv.reads, reads, "no entry read back");
    assert.deepEqual([kv.get("ev:1"), kv.get("ev:2"), kv.get("ev:3")], [{ o: "stdout", t: 0, p: 0, a: 0, z: 2 }, { o: "stdout", t: 0, p: 0, a: 2, z: 4 }, { i: 0 }]);
  });
});
