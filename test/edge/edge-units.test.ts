// The pure modules the Durable Objects are built from: node choice, node state and health
// aggregation over pools, chunked text, what an Execute failure means.
import assert from "node:assert/strict";
import { describe, it, mock } from "node:test";
import { Language, NodeInfoResponse } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { GrpcError } from "../../proto/grpc-web/client.ts";
import { Status } from "../../proto/grpc-web/status.ts";
import { summarize } from "../../edge/src/registry/fleet-status.ts";
import { isReady, nextHeartbeatDeadline, nodeState, notReadyReason, schedulable, watchIntervalMs } from "../../edge/src/registry/node-state.ts";
import type { NodeRow } from "../../edge/src/registry/node-row.ts";
import { ChangeReporter } from "../../edge/src/lib/change-reporter.ts";
import { chunkText } from "../../edge/src/lib/chunks.ts";
import { runErrorKind } from "../../edge/src/submission/run-errors.ts";
import { oversizeFleetRequest } from "../../edge/src/submit/fleet-request-size.ts";
import { executeRequest } from "../../edge/src/submission/run-request.ts";
import { MAX_EXECUTE_REQUEST_BYTES } from "../../proto/limits.ts";
import { pickNode, unsupported, waitingAtNodes } from "../../edge/src/scheduling/pick.ts";
import { nodeRunKeys, runKey } from "../../edge/src/scheduling/run-key.ts";
import { parsePoolRoutes, poolFor, poolOrder } from "../../edge/src/scheduling/pool-routes.ts";
import { enqueueInPools } from "../../edge/src/submission/queue-pool.ts";
import type { EnqueueResult } from "../../edge/src/contracts/scheduler.ts";
import type { PoolNode } from "../../edge/src/scheduling/pick.ts";
import { WaitingLine } from "../../edge/src/scheduling/waiting-line.ts";
import { RECENT_KEPT, RecentRuns, type RowsSql } from "../../edge/src/scheduling/recent-runs.ts";
import { DatabaseSync } from "node:sqlite";

const rule = { heartbeatMs: 1000, heartbeatMisses: 3 };
const NOW = 1_000_000;

function row(over: Partial<NodeRow> = {}): NodeRow {
  return {
    id: "node_a", url: "http://127.0.0.1:1", token: "t", name: "a", info: null, last_checked: NOW, last_ok: NOW, failures: 0,
    last_error: null, registered_at: NOW, kind: "registered", hb_hash: null, last_heartbeat: 0, drain_state: null, drain_at: 0,
    lost_at: 0, pool: "default", pushed: null, enroll_token: null, max_slots: 0, approval: null, revoked_at: 0, ...over,
  };
}

function info(over: Partial<NodeInfoResponse> = {}): NodeInfoResponse {
  return {
    ...NodeInfoResponse.fromPartial({}), nodeId: "a", slots: 2, ready: true, enforcementMode: "strict",
    languages: [Language.fromPartial({ name: "python", version: "3" }), Language.fromPartial({ name: "c", version: "12" })], ...over,
  };
}

function node(id: string, over: Partial<PoolNode> = {}): PoolNode {
  return { id, pool: "default", url: `http://${id}`, token: "t", run_slots: 2, languages: ["python"], ready: true, refused: null, ...over };
}

describe("scheduling: which node gets a run", () => {
  it("the ready node with the most free run slots for the language", () => {
    const nodes = [node("a"), node("b", { run_slots: 4 }), node("c", { languages: ["c"], run_slots: 9 })];
    assert.equal(pickNode(nodes, new Map(), "python")?.id, "b");
    assert.equal(pickNode(nodes, new Map([["b", 3]]), "python")?.id, "a");
    assert.equal(pickNode(nodes, new Map([["a", 2], ["b", 4]]), "python"), null);
  });

  it("runs may wait in a node's own queue beyond its run slots (waiting_room): free run slots first, then the most room", () => {
    const nodes = [node("a", { run_slots: 2, waiting_room: 2 }), node("b", { run_slots: 3, waiting_room: 1 })];
    assert.equal(pickNode(nodes, new Map(), "python")?.id, "b");
    assert.equal(pickNode(nodes, new Map([["b", 2]]), "python")?.id, "a");
    assert.equal(pickNode(nodes, new Map([["a", 2], ["b", 2]]), "python")?.id, "b");
    assert.equal(pickNode(nodes, new Map([["a", 2], ["b", 3]]), "python")?.id, "a");
    assert.equal(pickNode(nodes, new Map([["a", 3], ["b", 3]]), "python")?.id, "b");
    assert.equal(pickNode(nodes, new Map([["a", 3], ["b", 4]]), "python")?.id, "a");
    assert.equal(pickNode(nodes, new Map([["a", 4], ["b", 4]]), "python"), null);
    assert.equal(waitingAtNodes(nodes, new Map([["a", 4], ["b", 2]])), 2);
    assert.equal(waitingAtNodes(nodes, new Map([["a", 3], ["b", 4]])), 2);
    assert.equal(waitingAtNodes(nodes, new Map()), 0);
  });

  it("equally free nodes take runs in turn (rotate), a freer node still first", () => {
    const nodes = [node("a"), node("b"), node("c")];
    assert.deepEqual([0, 1, 2, 3].map((r) => pickNode(nodes, new Map(), "python", r)?.id), ["a", "b", "c", "a"]);
    assert.equal(pickNode(nodes, new Map([["b", 1], ["c", 1]]), "python", 1)?.id, "a");
  });

  it("a node not ready or refused since its last push gets nothing", () => {
    assert.equal(pickNode([node("a", { ready: false }), node("b", { refused: "draining" })], new Map(), "python"), null);
  });

  it("unsupported only when no node of the pool offers the language; lists what ready nodes offer", () => {
    const nodes = [node("a", { ready: false, languages: ["rust"] }), node("b", { languages: ["python", "c"] })];
    assert.equal(unsupported(nodes, "rust"), null);
    assert.deepEqual(unsupported(nodes, "go"), ["python", "c"]);
  });

  it("a named version goes only to a node that has it; without one, any node of the language", () => {
    const old = node("old", { languages: nodeRunKeys([{ name: "go", version: "1.19.8" }]), run_slots: 8 });
    const both = node("both", { languages: nodeRunKeys([{ name: "go", version: "1.19.8" }, { name: "go", version: "1.23.5" }]) });
    assert.deepEqual(both.languages, ["go", "go@1.19.8", "go@1.23.5"]);
    const key = runKey("go", { version: "1.23.5", named_version: true });
    assert.equal(key, "go@1.23.5");
    assert.equal(pickNode([old, both], new Map(), key)?.id, "both");
    assert.equal(pickNode([old, both], new Map([["both", 2]]), key), null, "the node with the version is full: wait, not the wrong version");
    assert.equal(pickNode([old, both], new Map(), runKey("go", { version: "1.19.8", named_version: false })), old, "a default version is not a named one");
    assert.equal(unsupported([old], key) !== null, true);
    assert.equal(unsupported([old, both], key), null);
  });
});

describe("scheduling: the queue held in memory", () => {
  const w = (seq: number, id: string) => ({ seq, sub_id: id, language: "c" });
  const ids = (line: WaitingLine) => [...line.inOrder()].map((x) => x.sub_id);

  it("stored rows come back in seq order; sent-back runs go first, the latest first", () => {
    const line = WaitingLine.of([w(7, "c"), w(3, "a"), w(5, "b")]);
    assert.deepEqual(ids(line), ["a", "b", "c"]);
    assert.equal(line.headSeq, 3);
    line.append(w(8, "d"));
    line.prepend(w(2, "r1"));
    line.prepend(w(1, "r2"));
    assert.deepEqual(ids(line), ["r2", "r1", "a", "b", "c", "d"]);
    assert.equal(line.headSeq, 1);
    assert.deepEqual(["r2", "r1", "a", "d", "nobody"].map((id) => line.position(id)), [1, 2, 3, 6, 0]);
  });

  it("removal from either part; the place of the last one in stays right after removals", () => {
    const line = WaitingLine.of([w(3, "a"), w(4, "b")]);
    line.prepend(w(2, "r"));
    line.append(w(5, "z"));
    assert.equal(line.remove("nobody"), false);
    assert.equal(line.remove("r"), true);
    assert.equal(line.remove("a"), true);
    assert.equal(line.has("a"), false);
    assert.equal(line.size, 2);
    assert.equal(line.position("z"), 2);
    assert.equal(line.remove("z"), true);
    assert.equal(line.position("z"), 0);
    assert.equal(line.position("b"), 1);
    assert.equal(new WaitingLine().headSeq, undefined);
  });

  it("the entry just yielded may be taken out while walking the line", () => {
    const line = WaitingLine.of([w(1, "a"), w(2, "b"), w(3, "c")]);
    line.prepend(w(0, "r"));
    const taken: string[] = [];
    for (const x of line.inOrder()) {
      if (x.sub_id !== "b") {
        line.remove(x.sub_id);
        taken.push(x.sub_id);
      }
    }
    assert.deepEqual(taken, ["r", "a", "c"]);
    assert.deepEqual(ids(line), ["b"]);
  });
});

/** node:sqlite behind the part of a Durable Object's `sql` that RecentRuns uses. */
function sqlOver(db: DatabaseSync): RowsSql {
  return {
    exec(query: string, ...bindings: unknown[]) {
      const stmt = db.prepare(query);
      const rows = /^\s*select/i.test(query) ? stmt.all(...(bindings as never[])) : (stmt.run(...(bindings as never[])), []);
      return { toArray: () => rows };
    },
  };
}

describe("scheduling: the recent runs", () => {
  const run = { job_status: "completed", verdict: "AC", language: "c", latency_ms: 12.4, wall_ms: 3.6 };
  const stored = (db: DatabaseSync) => (db.prepare("SELECT COUNT(*) AS n FROM recent").get() as { n: number }).n;

  it("answered from memory at once, written together later, read back in order by a new instance", () => {
    const db = new DatabaseSync(":memory:");
    const recent = new RecentRuns(sqlOver(db));
    recent.record("a", run, 1_000);
    recent.record("b", { ...run, verdict: "WA" }, 2_000);
    recent.record("a", run, 3_000);
    assert.deepEqual(recent.last(5).map((r) => [r.at, r.verdict, r.latency_ms, r.wall_ms]), [[1_000, "AC", 12, 4], [2_000, "WA", 12, 4]]);
    assert.equal(stored(db), 0, "nothing written before the batch");
    recent.write();
    assert.equal(stored(db), 2);
    assert.deepEqual(new RecentRuns(sqlOver(db)).last(1).map((r) => r.at), [2_000]);
  });

  it("keeps the last RECENT_KEPT, in memory and stored", () => {
    const db = new DatabaseSync(":memory:");
    const recent = new RecentRuns(sqlOver(db));
    for (let i = 0; i < RECENT_KEPT + 60; i++) recent.record(`s${i}`, run, i);
    recent.write();
    const kept = recent.last(RECENT_KEPT * 2);
    assert.equal(kept.length, RECENT_KEPT);
    assert.equal(kept[0]!.at, 60);
    assert.ok(stored(db) <= RECENT_KEPT + 50, `the table is pruned (${stored(db)} rows)`);
  });
});

describe("registry: node state", () => {
  it("ready needs an answer, strict isolation, no drain and fresh heartbeats", () => {
    assert.equal(isReady(row(), info(), NOW, rule), true);
    assert.equal(isReady(row({ failures: 1 }), info(), NOW, rule), false);
    assert.equal(isReady(row(), info({ enforcementMode: "none" }), NOW, rule), false);
    assert.equal(isReady(row({ drain_state: "draining" }), info(), NOW, rule), false);
    assert.equal(isReady(row({ kind: "enrolled", last_heartbeat: NOW - 3000 }), info(), NOW, rule), true);
    assert.equal(isReady(row({ kind: "enrolled", last_heartbeat: NOW - 3001 }), info(), NOW, rule), false);
    assert.match(notReadyReason(row({ kind: "enrolled", last_heartbeat: NOW - 4000 }), info(), NOW, rule) ?? "", /no heartbeat for 4 s/);
  });

  it("draining while runs remain, drained after", () => {
    assert.equal(nodeState(row({ drain_state: "draining" }), info(), 1, NOW, rule), "draining");
    assert.equal(nodeState(row({ drain_state: "draining" }), info(), 0, NOW, rule), "drained");
    assert.equal(nodeState(row({ failures: 2 }), info(), 0, NOW, rule), "unhealthy");
  });

  it("what the scheduler is told: pool, run slots, languages, ready", () => {
    assert.deepEqual(schedulable(row({ pool: "eu" }), info({ queueCapacity: 64 }), NOW, { ...rule, nodePrefetch: 1 }), {
      id: "node_a", pool: "eu", url: "http://127.0.0.1:1", token: "t", run_slots: 2, waiting_room: 2, languages: ["python", "python@3", "c", "c@12"], ready: true,
    });
    // The waiting room: NODE_PREFETCH runs per slot, never more than the node's own queue holds.
    assert.equal(schedulable(row(), info({ queueCapacity: 64 }), NOW, { ...rule, nodePrefetch: 3 }).waiting_room, 6);
    assert.equal(schedulable(row(), info({ queueCapacity: 1 }), NOW, { ...rule, nodePrefetch: 3 }).waiting_room, 1);
    assert.equal(schedulable(row(), info({ queueCapacity: 64 }), NOW, { ...rule, nodePrefetch: 0 }).waiting_room, 0);
    assert.equal(schedulable(row(), info(), NOW, { ...rule, nodePrefetch: 1 }).waiting_room, 0);
  });

  it("the registry wakes the moment the next enrolled node's heartbeats are overdue", () => {
    const rows = [row(), row({ id: "b", kind: "enrolled", last_heartbeat: NOW - 1000 }), row({ id: "c", kind: "enrolled", last_heartbeat: NOW - 500 }), row({ id: "d", kind: "enrolled", last_heartbeat: NOW - 9000 })];
    assert.equal(nextHeartbeatDeadline(rows, NOW, rule), NOW - 1000 + 3000 + 1);
    assert.equal(isReady(rows[1]!, info(), NOW - 1000 + 3000 + 1, rule), false);
    assert.equal(nextHeartbeatDeadline([row()], NOW, rule), null);
  });

  it("polls registered nodes by the health TTL, enrolled ones by the heartbeat", () => {
    const cfg = { ...rule, healthTtlMs: 5000, watchdogMs: 10_000 };
    assert.equal(watchIntervalMs(new Set(), cfg), null);
    assert.equal(watchIntervalMs(new Set(["registered"]), cfg), 5000);
    assert.equal(watchIntervalMs(new Set(["registered", "enrolled"]), cfg), 1000);
  });
});

describe("registry: health over pools", () => {
  it("workers, queue depth and languages add up over pools; the default pool is always listed", () => {
    const nodes = [
      { row: row({ id: "a", pool: "eu" }), info: info() },
      { row: row({ id: "b", pool: "us", name: "b" }), info: info({ slots: 3, languages: [Language.fromPartial({ name: "go", version: "1" })] }) },
      { row: row({ id: "c", pool: "us", name: "c", failures: 1, last_error: "refused" }), info: info() },
    ];
    const loads = new Map([["eu", { pool: "eu", queue_depth: 1, in_flight: {}, just_assigned: {} }], ["us", { pool: "us", queue_depth: 2, in_flight: {}, just_assigned: {} }]]);
    const { status, pools } = summarize(nodes, loads, NOW, rule);
    assert.deepEqual({ ...status, reasons: status.reasons.length, runtimes: status.runtimes.map((r) => `${r.language} ${r.version}`) }, {
      ready_nodes: 2, workers: 5, queue_depth: 3, enforcement_mode: "strict", languages: ["python", "c", "go"], reasons: 1,
      runtimes: ["python 3", "c 12", "go 1"],
    });
    assert.deepEqual(pools.map((p) => [p.pool, p.nodes, p.ready_nodes, p.workers, p.queue_depth]), [
      ["default", 0, 0, 0, 0], ["eu", 1, 1, 2, 1], ["us", 2, 1, 3, 2],
    ]);
  });
});

describe("chunked text", () => {
  it("joins back to the input and never splits a surrogate pair", () => {
    const text = `${"a".repeat(3)}😀${"b".repeat(4)}`;
    for (const size of [1, 2, 3, 4, 5, 100]) {
      const chunks = chunkText(text, Math.max(2, size));
      assert.equal(chunks.join(""), text);
      for (const c of chunks) assert.ok(!/[\ud800-\udbff]$/.test(c), `chunk ends inside a pair: ${JSON.stringify(c)}`);
    }
    assert.deepEqual(chunkText(""), [""]);
  });
});

describe("what a failed Execute means", () => {
  it("busy or draining nodes: elsewhere while pending; refusals end the run; transport: the stream broke", () => {
    assert.equal(runErrorKind(new GrpcError(Status.UNAVAILABLE, "draining"), true), "elsewhere");
    assert.equal(runErrorKind(new GrpcError(Status.UNAVAILABLE, "draining"), false), "broken");
    assert.equal(runErrorKind(new GrpcError(Status.INVALID_ARGUMENT, "bad"), true), "refused");
    assert.equal(runErrorKind(new GrpcError(-1, "reset"), true), "broken");
    // A node's queue is full: another may take it. Too large: every node refuses it alike.
    assert.equal(runErrorKind(new GrpcError(Status.RESOURCE_EXHAUSTED, "queue full"), true), "elsewhere");
    assert.equal(runErrorKind(new GrpcError(Status.RESOURCE_EXHAUSTED, "request too large"), true), "refused");
  });
});

describe("a submission must fit one fleet message", () => {
  const MiB = 1024 * 1024;
  const expected = (n: number) => ({ name: "t", stdin_b64: "", expected_b64: Buffer.alloc(n, 0x61).toString("base64") });
  it("small ones are not encoded (the bound says so); over the cap, the exact size is named; at the cap it passes", () => {
    assert.equal(oversizeFleetRequest("python", "print(1)", "", undefined), null);
    const four = { tests: [expected(MiB), expected(MiB), expected(MiB), expected(MiB)] };
    const size = oversizeFleetRequest("python", "print(1)", "", four);
    assert.ok(size !== null && size > MAX_EXECUTE_REQUEST_BYTES && size < MAX_EXECUTE_REQUEST_BYTES + 1024, String(size));
    const three = { tests: [expected(MiB), expected(MiB), expected(MiB)] };
    assert.equal(oversizeFleetRequest("python", "print(1)", "", three), null, "3 MiB of expected output fits");
  });
});

describe("the tenant a run is for", () => {
  it("is the submission's account (the node scopes its compile cache by it: an account's projects share their compiles)", () => {
    const request = executeRequest({ id: "s1", language: "c", account_id: "acct-1", project_id: "proj-1" } as Parameters<typeof executeRequest>[0], "int main(){}", "", undefined);
    assert.equal(request.tenantId, "acct-1");
  });
});

describe("change reports to the dashboard", () => {
  it("nothing while unwatched; a burst is one report; a later change is reported when it comes", () => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
    try {
      let sent = 0;
      const r = new ChangeReporter(250, async () => void sent++);
      r.changed();
      mock.timers.tick(1000);
      assert.equal(sent, 0);
      r.watch(10_000);
      r.changed();
      r.changed();
      r.changesAt(5_000);
      mock.timers.tick(250);
      assert.equal(sent, 1);
      r.changed();
      mock.timers.tick(250);
      assert.equal(sent, 2, "a change after a report is reported even while a later one is pending");
      mock.timers.tick(5_000);
      assert.equal(sent, 3);
      mock.timers.tick(10_000);
      r.changed();
      mock.timers.tick(1_000);
      assert.equal(sent, 3, "the lease ended");
    } finally {
      mock.timers.reset();
    }
  });
});

describe("pools: where a submission goes", () => {
  it("the data center's entry wins over the continent's; colo:* takes any located request; else default", () => {
    const routes = parsePoolRoutes("colo:FRA=eu-fra, continent:EU=eu, continent:NA=us, bogus");
    assert.equal(poolFor({ colo: "FRA", continent: "EU" }, routes), "eu-fra");
    assert.equal(poolFor({ colo: "AMS", continent: "EU" }, routes), "eu");
    assert.equal(poolFor({ colo: "NRT", continent: "AS" }, routes), "default");
    assert.equal(poolFor(undefined, routes), "default");
    assert.equal(poolFor({ colo: "DFW" }, parsePoolRoutes("colo:*=a")), "a");
    assert.deepEqual(poolOrder("b", ["default", "c", "b", "a"]), ["b", "a", "c", "default"]);
  });

  it("the first pool unless it declines; then the pools it names; when all decline, the first decides", async () => {
    const answers: Record<string, EnqueueResult> = {
      a: { kind: "declined", available: ["python"], others: ["b", "default"] },
      b: { kind: "queued", queue_depth: 1, position: 1 },
    };
    const asked: string[] = [];
    const enqueue = async (pool: string, mayDecline: boolean) => {
      asked.push(`${pool}:${mayDecline}`);
      return answers[pool]!;
    };
    assert.deepEqual(await enqueueInPools("a", enqueue("a", true), enqueue), { pool: "b", result: answers.b });
    assert.deepEqual(asked, ["a:true", "b:true"]);

    const none = async (pool: string, mayDecline: boolean): Promise<EnqueueResult> => mayDecline
      ? { kind: "declined", available: pool === "a" ? ["c"] : ["python"], others: pool === "default" ? ["a", "b"] : [] }
      : { kind: "unsupported", available: [] };
    asked.length = 0;
    const tracked = async (pool: string, mayDecline: boolean) => (asked.push(`${pool}:${mayDecline}`), none(pool, mayDecline));
    // "a" was never told the pool list (no node ever joined it): the default pool is asked, which names "b".
    assert.deepEqual(await enqueueInPools("a", tracked("a", true), tracked), { pool: "a", result: { kind: "unsupported", available: ["python", "c"] } });
    assert.deepEqual(asked, ["a:true", "default:true", "b:true", "a:false"]);
  });
});
