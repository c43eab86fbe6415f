// Scheduler, run registry (retention by time, count and bytes, with its metrics) and the credential check on their own.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createCredentialCheck } from "../../fleet/src/service/auth.ts";
import { ServiceError, Status } from "../../fleet/src/service/errors.ts";
import { FleetNode } from "../../fleet/src/service/fleet-node.ts";
import { createLogger } from "../../fleet/src/service/logger.ts";
import { encodedSizeBound } from "../../fleet/src/service/message-size.ts";
import { DEFAULT_MAX_RETAINED_BYTES, RUN_OVERHEAD_BYTES, Run, RunRegistry, type EvictionReason } from "../../fleet/src/service/run-registry.ts";
import { ExecutionResult } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { createFakeEngine } from "../../shared-fixtures/fake-engine.ts";
import { SlotQueue } from "../../fleet/src/sandbox/slot-queue.ts";
import { Scheduler, type Job } from "../../fleet/src/service/scheduler.ts";

function manualJob() {
  let finish!: () => void;
  const positions: number[] = [];
  let started = false;
  const job: Job = {
    run: () => ((started = true), new Promise<void>((resolve) => (finish = resolve))),
    moved: (position) => positions.push(position),
  };
  return { job, positions, finish: () => finish(), started: () => started };
}

test("scheduler: slots, FIFO queue, positions, bound, withdraw, idle", async () => {
  const scheduler = new Scheduler(new SlotQueue(1), 2);
  const [a, b, c, d] = [manualJob(), manualJob(), manualJob(), manualJob()];
  assert.equal(scheduler.submit(a.job), 0);
  assert.equal(scheduler.submit(b.job), 1);
  assert.equal(scheduler.submit(c.job), 2);
  assert.throws(() => scheduler.submit(d.job), (error: unknown) => error instanceof ServiceError && error.code === Status.RESOURCE_EXHAUSTED);
  let idle = false;
  void scheduler.idle().then(() => (idle = true));

  assert.equal(scheduler.withdraw(b.job), true);
  assert.deepEqual(c.positions, [1]);
  a.finish();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(b.started(), false);
  assert.equal(c.started(), true);
  assert.equal(scheduler.withdraw(c.job), false, "a started job cannot be withdrawn");
  assert.equal(idle, false);
  c.finish();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(idle, true);
});

test("registry: completed runs are kept for the retention time, then forgotten; live runs stay", () => {
  let now = 0;
  const registry = new RunRegistry({ retentionMs: 1000, maxCompleted: 10, now: () => now });
  const done = new Run("a", "python", "f");
  const live = new Run("b", "python", "f");
  registry.add(done);
  registry.add(live);
  registry.retain(done);
  now = 999;
  assert.equal(registry.get("a"), done);
  now = 1001;
  assert.equal(registry.get("a"), undefined);
  assert.equal(registry.get("b"), live);
});

test("registry: beyond the cap the oldest completed run goes first", () => {
  const registry = new RunRegistry({ retentionMs: 60_000, maxCompleted: 2, now: () => 0 });
  for (const id of ["a", "b", "c"]) {
    const run = new Run(id, "python", "f");
    registry.add(run);
    registry.retain(run);
  }
  assert.deepEqual(["a", "b", "c"].map((id) => registry.get(id) !== undefined), [false, true, true]);
});

/** A completed run whose result carries `stdoutBytes` bytes of stdout. */
function completedRun(id: string, stdoutBytes = 0): Run {
  const run = new Run(id, "python", "f");
  run.markStarted(new Date(0));
  run.complete(ExecutionResult.fromPartial({ submissionId: id, stdout: "x".repeat(stdoutBytes) }));
  return run;
}

test("registry: kept by bytes, least recently used first; get() refreshes recency; the evictions are reported by reason", () => {
  const evicted: [string, EvictionReason][] = [];
  const registry = new RunRegistry({
    retentionMs: 60_000,
    maxCompleted: 100,
    maxBytes: 100,
    now: () => 0,
    sizeOf: () => 40,
    onEvict: (run, reason) => evicted.push([run.id, reason]),
  });
  const keep = (id: string) => {
    const run = completedRun(id);
    registry.add(run);
    registry.retain(run);
  };
  keep("a");
  keep("b");
  assert.deepEqual([registry.retainedRuns, registry.retainedBytes, registry.maxBytes], [2, 80, 100]);
  assert.ok(registry.get("a"), "a is now the most recently used");
  keep("c"); // 120 > 100: the least recently used (b) goes
  assert.deepEqual(evicted, [["b", "bytes"]]);
  assert.deepEqual(["a", "b", "c"].map((id) => registry.get(id) !== undefined), [true, false, true]);
  assert.deepEqual([registry.retainedRuns, registry.retainedBytes], [2, 80]);
  const live = new Run("live", "python", "f");
  registry.add(live);
  keep("d");
  assert.deepEqual(evicted.at(-1), ["a", "bytes"], "a was used before c (get above)");
  assert.equal(registry.get("live"), live, "live runs are not counted or evicted");
  assert.equal(registry.retainedBytes, 80);
});

test("registry: one outcome above the byte budget is kept alone (the most recent is never evicted for bytes)", () => {
  const registry = new RunRegistry({ retentionMs: 60_000, maxCompleted: 100, maxBytes: 100, now: () => 0, sizeOf: (run) => (run.id === "big" ? 500 : 10) });
  for (const id of ["small", "big"]) {
    const run = completedRun(id);
    registry.add(run);
    registry.retain(run);
  }
  assert.equal(registry.get("small"), undefined);
  assert.ok(registry.get("big"));
  assert.deepEqual([registry.retainedRuns, registry.retainedBytes], [1, 500]);
});

test("registry: expiry goes by completion time, whatever the recency; the count cap drops the least recently used", () => {
  let now = 0;
  const evicted: [string, EvictionReason][] = [];
  const registry = new RunRegistry({ retentionMs: 1000, maxCompleted: 2, maxBytes: 1e9, now: () => now, onEvict: (run, reason) => evicted.push([run.id, reason]) });
  for (const id of ["a", "b"]) {
    const run = completedRun(id);
    registry.add(run);
    registry.retain(run);
    now += 100;
  }
  registry.get("a");
  const c = completedRun("c");
  registry.add(c);
  registry.retain(c);
  assert.deepEqual(evicted, [["b", "count"]]);
  now = 1050; // a completed at 0: expired although it was used last but one
  assert.equal(registry.get("a"), undefined);
  assert.ok(registry.get("c"));
  assert.deepEqual(evicted, [["b", "count"], ["a", "expired"]]);
});

test("registry: a run's size is its result's encoded size (an upper bound) plus a fixed overhead; the default budget is 256 MiB", () => {
  const registry = new RunRegistry({ retentionMs: 60_000, maxCompleted: 100 });
  assert.equal(registry.maxBytes, DEFAULT_MAX_RETAINED_BYTES);
  assert.equal(DEFAULT_MAX_RETAINED_BYTES, 256 * 1024 * 1024);
  const run = completedRun("a", 100_000);
  registry.add(run);
  registry.retain(run);
  const encoded = ExecutionResult.encode(run.result!).finish().length;
  assert.equal(registry.retainedBytes, RUN_OVERHEAD_BYTES + encodedSizeBound(run.result));
  assert.ok(registry.retainedBytes >= encoded && registry.retainedBytes < encoded + RUN_OVERHEAD_BYTES + 1024);
});

test("retention metrics: runs and bytes retained, the byte budget, evictions by reason", async () => {
  const node = new FleetNode(createFakeEngine(1), createLogger({ level: "silent", nodeId: "units" }), {
    nodeId: "units", version: "0", queueCapacity: 1, resultRetentionSecs: 60, maxRetainedResults: 10, maxRetainedResultBytes: 3 * RUN_OVERHEAD_BYTES,
  });
  for (const id of ["a", "b", "c"]) {
    const run = completedRun(id, 200);
    node.registry.add(run);
    node.registry.retain(run);
  }
  const text = await node.metrics.registry.metrics();
  const value = (line: RegExp) => Number(line.exec(text)?.[1]);
  assert.equal(value(/^codecell_fleet_results_retained (\d+)$/m), 2);
  assert.equal(value(/^codecell_fleet_results_retained_bytes (\d+)$/m), node.registry.retainedBytes);
  assert.equal(value(/^codecell_fleet_result_retention_budget_bytes (\d+)$/m), 3 * RUN_OVERHEAD_BYTES);
  assert.equal(value(/^codecell_fleet_result_evictions_total\{reason="bytes"\} (\d+)$/m), 1);
});

test("run events: a late subscriber gets the current state first; abort ends the stream", async () => {
  const run = new Run("a", "python", "f");
  run.markQueued(3);
  const controller = new AbortController();
  const events = run.events(controller.signal);
  assert.deepEqual((await events.next()).value, { kind: "queued", position: 3 });
  const startedAt = new Date();
  run.markStarted(startedAt);
  assert.deepEqual((await events.next()).value, { kind: "started", startedAt });
  const pending = events.next();
  controller.abort();
  assert.equal((await pending).done, true);
  assert.equal(run.subscribers, 0);
});

test("credential check: bearer token only, constant-time compare of digests", () => {
  const check = createCredentialCheck("s3cret-s3cret-s3cret");
  check(new Map([["authorization", "Bearer s3cret-s3cret-s3cret"]]));
  check(new Map([["authorization", "bearer s3cret-s3cret-s3cret"]]));
  for (const value of [undefined, "", "Bearer", "Bearer s3cret", "s3cret-s3cret-s3cret", "Bearer s3cret-s3cret-s3cretX"]) {
    const metadata = new Map(value === undefined ? [] : [["authorization", value]]);
    assert.throws(() => check(metadata), (error: unknown) => error instanceof ServiceError && error.code === Status.UNAUTHENTICATED, String(value));
  }
  check(new Map([["authorization", "Bearer \t \u00a0 s3cret-s3cret-s3cret  "]]));
  // a long run of blanks before a line break: linear (the test runner's timeout bounds it), refused
  assert.throws(() => check(new Map([["authorization", `Bearer ${" ".repeat(20_000)}x\ny`]])), ServiceError);
});
