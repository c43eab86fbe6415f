// The keys room (edge/src/keys/): the units a key's object (KeyDO) is built from, each over SQLite
// (node:sqlite) with its own statements (the rate window, the idempotency keys, the concurrency
// units, the usage counts); the keys' and projects' records in KV, over a KV held in a Map that
// lists in pages; and which keys an operator may import.
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { describe, it } from "node:test";
import { importableKey } from "../../edge/src/keys/api-key.ts";
import { ConcurrencyUnits } from "../../edge/src/keys/concurrency.ts";
import { Idempotency } from "../../edge/src/keys/idempotency.ts";
import { RateWindow } from "../../edge/src/keys/rate-window.ts";
import * as records from "../../edge/src/keys/records.ts";
import type { KeyMeta } from "../../edge/src/keys/records.ts";
import { UsageCounts } from "../../edge/src/keys/usage-counts.ts";
import { sqliteSql } from "./sqlite-sql.ts";

const WINDOW = 60_000;
const T = 1_000_000;

describe("keys: the rate window", () => {
  it("lets `limit` requests through per window, then refuses until the oldest leaves it", () => {
    const rate = new RateWindow(sqliteSql(), WINDOW);
    for (let i = 0; i < 3; i++) {
      const d = rate.decide(T + i * 1_000, 3);
      assert.equal(d.allowed, true);
      assert.equal(d.remaining, 2 - i);
      rate.record(T + i * 1_000);
    }
    const refused = rate.decide(T + 10_000, 3);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSecs, 50, "the first hit leaves the window at T + 60 s");
    assert.equal(rate.decide(T + WINDOW, 3).allowed, true, "the window is (now - 60 s, now]: the first hit is out");
  });

  it("counts hits kept in memory in every decision, and writes them on flush", () => {
    const db = new DatabaseSync(":memory:");
    const rate = new RateWindow(sqliteSql(db), WINDOW);
    rate.record(T);
    rate.recordLater(T + 1_000);
    rate.recordLater(T + 2_000);
    const d = rate.decide(T + 3_000, 3);
    assert.equal(d.allowed, false);
    assert.equal(d.retryAfterSecs, 57);
    assert.equal(rate.count(T + 3_000), 3);
    assert.equal(new RateWindow(sqliteSql(db), WINDOW).count(T + 3_000), 1, "not written yet");
    rate.flush();
    assert.equal(new RateWindow(sqliteSql(db), WINDOW).count(T + 3_000), 3);
  });

  it("asks a refusal's blocker among the unwritten hits when the written ones are too few", () => {
    const rate = new RateWindow(sqliteSql(), WINDOW);
    rate.record(T);
    for (const at of [T + 5_000, T + 6_000, T + 7_000]) rate.recordLater(at);
    // 4 in the window, limit 2: the third oldest (T + 6 s, unwritten) must leave before one more fits.
    assert.equal(rate.decide(T + 8_000, 2).retryAfterSecs, 58);
  });

  it("the oldest hit still in the window, written or not", () => {
    const rate = new RateWindow(sqliteSql(), WINDOW);
    assert.equal(rate.oldest(T), null);
    rate.recordLater(T + 500);
    assert.equal(rate.oldest(T + 1_000), T + 500);
    rate.record(T + 1_000);
    assert.equal(rate.oldest(T + 1_000), T + 500);
    assert.equal(rate.oldest(T + WINDOW + 600), T + 1_000);
  });

  it("deletes what left the window every 64 hits, and says so", () => {
    const db = new DatabaseSync(":memory:");
    const prunes: number[] = [];
    const rate = new RateWindow(sqliteSql(db), WINDOW, (now) => prunes.push(now));
    for (let i = 0; i < 63; i++) rate.record(T + i);
    assert.deepEqual(prunes, []);
    const later = T + 2 * WINDOW;
    rate.record(later);
    assert.deepEqual(prunes, [later]);
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM hits").get() as { n: number }).n, 1);
  });
});

describe("keys: idempotency", () => {
  it("finds the submission a key created while its record is kept", () => {
    const idem = new Idempotency<string>(sqliteSql(), 1_000);
    idem.reserve("k", "sub1", T);
    assert.equal(idem.find("k", T + 999), "sub1");
    assert.equal(idem.find("k", T + 1_000), undefined);
    assert.equal(idem.find("other", T), undefined);
  });

  it("undoes only the submission it names", () => {
    const idem = new Idempotency<string>(sqliteSql(), 1_000);
    idem.reserve("k", "sub2", T);
    idem.undo("k", "sub1");
    assert.equal(idem.find("k", T), "sub2");
    idem.undo("k", "sub2");
    assert.equal(idem.find("k", T), undefined);
  });

  it("a creation under way is there for duplicates until it settles, even when it fails", async () => {
    const idem = new Idempotency<string>(sqliteSql(), 1_000);
    let finish!: (v: string) => void;
    const tracked = idem.track("k", new Promise<string>((r) => (finish = r)));
    assert.ok(idem.creating("k"));
    finish("created");
    assert.equal(await idem.creating("k"), "created");
    assert.equal(await tracked, "created");
    assert.equal(idem.creating("k"), undefined);
    await assert.rejects(idem.track("j", Promise.reject(new Error("boom"))), /boom/);
    assert.equal(idem.creating("j"), undefined);
  });

  it("prunes keys whose records are gone, and says when the next one goes", () => {
    const idem = new Idempotency<string>(sqliteSql(), 1_000);
    assert.equal(idem.nextPruneAt(), null);
    idem.reserve("a", "s1", T);
    idem.reserve("b", "s2", T + 500);
    assert.equal(idem.nextPruneAt(), T + 1_000 + 1_000);
    idem.prune(T + 1_000);
    assert.equal(idem.nextPruneAt(), T + 500 + 1_000 + 1_000);
    assert.equal(idem.find("b", T + 1_000), "s2");
  });
});

describe("keys: concurrency units", () => {
  it("counts rows and held units; a stale row no longer counts", () => {
    const units = new ConcurrencyUnits(sqliteSql(), 10_000);
    units.take("a", T);
    units.hold("s");
    assert.equal(units.taken(T + 10_000), 2);
    assert.equal(units.taken(T + 10_001), 1, "the row is older than any run can last");
    assert.equal(units.inFlight(), 2, "the operator still sees it until it is pruned");
    assert.deepEqual(units.ids().sort(), ["a", "s"]);
  });

  it("a held unit ends with its call, or becomes a row its release frees", () => {
    const units = new ConcurrencyUnits(sqliteSql(), 10_000);
    units.hold("s");
    assert.equal(units.endHold("s"), true);
    assert.equal(units.endHold("s"), false);
    assert.equal(units.release("s"), false, "nothing to release: the answer freed it");
    units.hold("t");
    units.endHold("t");
    units.write("t", T);
    assert.equal(units.taken(T), 1);
    assert.equal(units.release("t"), true);
    assert.equal(units.taken(T), 0);
  });

  it("undo frees a unit whatever its kind, and its live mark", () => {
    const units = new ConcurrencyUnits(sqliteSql(), 10_000);
    units.take("a", T);
    units.markLive("a");
    units.hold("b");
    assert.equal(units.liveSessions(), 1);
    units.undo("a");
    units.undo("b");
    assert.equal(units.taken(T), 0);
    assert.equal(units.liveSessions(), 0);
  });

  it("counts live sessions in flight only; a prune drops stale rows and the marks left without one", () => {
    const db = new DatabaseSync(":memory:");
    const units = new ConcurrencyUnits(sqliteSql(db), 10_000);
    units.take("old", T);
    units.take("new", T + 9_000);
    units.markLive("old");
    units.markLive("gone");
    assert.equal(units.liveSessions(), 1);
    units.prune(T + 10_001);
    assert.deepEqual(units.ids(), ["new"]);
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM live").get() as { n: number }).n, 0);
  });
});

describe("keys: usage counts", () => {
  it("counts now or later; later ones are written by write()", () => {
    const db = new DatabaseSync(":memory:");
    const usage = new UsageCounts(sqliteSql(db));
    usage.count("requests");
    usage.countLater("requests");
    usage.countLater("submissions");
    assert.deepEqual(usage.all(), { requests: 2, submissions: 1 });
    assert.deepEqual(new UsageCounts(sqliteSql(db)).all(), { requests: 1 });
    usage.write();
    assert.deepEqual(new UsageCounts(sqliteSql(db)).all(), { requests: 2, submissions: 1 });
    assert.deepEqual(usage.all(), { requests: 2, submissions: 1 }, "nothing counted twice");
  });

  it("takes back from the unwritten counts first, and never below 0", () => {
    const db = new DatabaseSync(":memory:");
    const usage = new UsageCounts(sqliteSql(db));
    usage.count("submissions");
    usage.countLater("submissions");
    usage.uncount("submissions");
    usage.write();
    assert.deepEqual(usage.all(), { submissions: 1 });
    usage.uncount("submissions");
    usage.uncount("submissions");
    assert.deepEqual(usage.all(), { submissions: 0 });
  });
});

/** A KV namespace in a Map, listing two names per page (in name order, as KV does). */
function mapKv(): records.RecordsKv & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get: async <T>(key: string) => (map.has(key) ? (JSON.parse(map.get(key)!) as T) : null),
    put: async (key: string, value: string) => void map.set(key, value),
    delete: async (key: string) => void map.delete(key),
    list: async ({ prefix, cursor }: { prefix: string; cursor?: string }) => {
      const all = [...map.keys()].filter((k) => k.startsWith(prefix)).sort();
      const from = cursor ? Number(cursor) : 0;
      const keys = all.slice(from, from + 2).map((name) => ({ name }));
      return from + 2 >= all.length ? { keys, list_complete: true } : { keys, list_complete: false, cursor: String(from + 2) };
    },
  };
}

const meta = (keyId: string, projectId: string, hash = `h_${keyId}`): KeyMeta => ({
  key_id: keyId, hash, project_id: projectId, account_id: "acct", name: "", tier: "beta", created_at: "2026-01-01T00:00:00Z",
});

describe("keys: records in KV", () => {
  it("a key is found by its hash and its id, and listed with its project", async () => {
    const kv = mapKv();
    for (const m of [meta("k1", "p1"), meta("k2", "p1"), meta("k3", "p2"), meta("k4", "p1")]) await records.putKey(kv, m);
    assert.equal((await records.keyByHash(kv, "h_k1"))?.key_id, "k1");
    assert.equal((await records.keyById(kv, "k3"))?.hash, "h_k3");
    assert.deepEqual((await records.listKeys(kv, { projectId: "p1" })).map((m) => m.key_id), ["k1", "k2", "k4"]);
    assert.deepEqual((await records.listKeys(kv)).map((m) => m.key_id), ["k1", "k2", "k3", "k4"]);
    assert.deepEqual((await records.listKeys(kv, { max: 3 })).map((m) => m.key_id), ["k1", "k2", "k3"]);
  });

  it("a new secret moves the hash; a deleted key leaves nothing behind", async () => {
    const kv = mapKv();
    await records.putKey(kv, meta("k1", "p1", "old"));
    await records.rehashKey(kv, "old", meta("k1", "p1", "new"));
    assert.equal(await records.keyByHash(kv, "old"), null);
    assert.equal((await records.keyById(kv, "k1"))?.hash, "new");
    await records.deleteKey(kv, meta("k1", "p1", "new"));
    assert.deepEqual([...kv.map.keys()], []);
  });

  it("projects are stored and listed", async () => {
    const kv = mapKv();
    const project = (id: string) => ({ id, name: id, account_id: "acct", created_at: "2026-01-01T00:00:00Z" });
    for (const id of ["prj_a", "prj_b", "prj_c"]) await records.putProject(kv, project(id));
    assert.deepEqual(await records.getProject(kv, "prj_b"), project("prj_b"));
    assert.equal(await records.getProject(kv, "prj_x"), null);
    assert.deepEqual((await records.listProjects(kv)).map((p) => p.id), ["prj_a", "prj_b", "prj_c"]);
  });
});

describe("keys: which keys an operator may import", () => {
  it("the production form anywhere; any 16 to 128 printable characters in development only", () => {
    assert.equal(importableKey(`sk_live_${"a".repeat(32)}`, false), true);
    assert.equal(importableKey("dev-key-0123456789", false), false);
    assert.equal(importableKey("dev-key-0123456789", true), true);
    assert.equal(importableKey("short", true), false);
    assert.equal(importableKey("with space 0123456789", true), false);
  });
});
