// Scheduler, run registry and the credential check on their own.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createCredentialCheck } from "../../fleet/src/service/auth.ts";
import { ServiceError, Status } from "../../fleet/src/service/errors.ts";
import { Run, RunRegistry } from "../../fleet/src/service/run-registry.ts";
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
  const scheduler = new Scheduler(1, 2);
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
