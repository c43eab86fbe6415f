// The scheduler's storage stays bounded under load. workerd keeps each Durable Object in SQLite with
// a write-ahead log, which SQLite restarts from its beginning once it has been copied back into the
// database (every 1000 pages, about 4 MB) — unless a read transaction is still open: a cursor left
// unfinished keeps one open until it is collected. The scheduler once broke out of its queue cursor
// whenever run slots ran out, so under a queue its log grew by every commit (285 MB after 14 minutes
// of bench:edge) and every read had more log to look through. The observable: the log's file under
// the edge's persist directory.
import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Client, useStack } from "./harness.ts";

const C = '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n';
/** Enough runs through a queue to write the log past its restart point several times over before the fix (10 MB after 270). */
const RUNS = 320;
const CLIENTS = 8;
/** SQLite's restart point (1000 pages of 4 KiB) and one commit's worth more, with room to spare. */
const BOUND = 6 * 1024 * 1024;

const stack = useStack({ edge: { vars: { SYNC_HOLD_MS: "60000", QUEUE_CAPACITY: "1000", RATE_LIMIT_PER_MIN: "100000", MAX_IN_FLIGHT: "100" } } });

function schedulerLogBytes(persistDir: string): number {
  const dir = join(persistDir, "v3", "do", readdirSync(join(persistDir, "v3", "do")).find((d) => d.endsWith("-SchedulerDO"))!);
  return readdirSync(dir).filter((f) => f.endsWith(".sqlite-wal")).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

describe("scheduler storage under a queue", () => {
  it(`${RUNS} synchronous runs from ${CLIENTS} clients (more than the node's run slots and waiting room): its write-ahead log stays within ${BOUND / 1024 / 1024} MB`, async () => {
    const clients = await Promise.all(Array.from({ length: CLIENTS }, async () => new Client(stack.edge.base, (await stack.ops.newKey()).key)));
    let left = RUNS;
    await Promise.all(clients.map(async (c) => {
      while (left-- > 0) {
        const r = await c.submit({ language: "c", code: C }, { wait: true });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.verdict, "AC", r.text);
      }
    }));
    const bytes = schedulerLogBytes(stack.edge.persistDir);
    assert.ok(bytes > 0, "the scheduler has a write-ahead log");
    assert.ok(bytes <= BOUND, `the scheduler's write-ahead log is ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  });
});
