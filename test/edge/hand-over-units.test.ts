// The hand-overs after a terminal commit (edge/src/submission/after-terminal.ts): the webhook
// hand-off does not wait for the releases, so a scheduler or key object that is slow to answer
// does not hold the first webhook attempt; and its targets are decided by the end stored with the
// record. The Durable Object stubs and KV here are stand-ins for the objects handOver calls.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

// Loaded by a path the root typecheck does not follow: the store's types need the Workers types,
// which the edge's own project (tsc -p edge) has and this one does not.
const AFTER_TERMINAL = "../../edge/src/submission/after-terminal.ts";
const { handOver } = (await import(AFTER_TERMINAL)) as { handOver: (env: unknown, store: unknown, meta: unknown, done: Set<string>) => Promise<void> };

const ENDED = Date.parse("2026-01-01T00:00:10Z");
const endpoint = (id: string, createdAt: string) => ({ id, project_id: "p", url: "https://x.example/h", active: true, created_at: createdAt, secrets: [] });

function setup() {
  const enqueued: { endpoint_ids: string[] }[] = [];
  let resolveEnqueued!: () => void;
  const whenEnqueued = new Promise<void>((r) => (resolveEnqueued = r));
  const never = () => new Promise(() => {});
  const namespace = (stub: object) => ({ idFromName: (n: string) => n, get: () => stub });
  const eps = new Map([["whk:p:early", endpoint("early", "2026-01-01T00:00:09Z")], ["whk:p:late", endpoint("late", "2026-01-01T00:00:11Z")]]);
  const env = {
    SCHEDULER_DO: namespace({ release: never }),
    KEY_DO: namespace({ release: never }),
    WEBHOOK_DELIVERY_DO: namespace({
      enqueue: async (input: { endpoint_ids: string[] }) => {
        enqueued.push(input);
        resolveEnqueued();
        return { targets: input.endpoint_ids.length };
      },
    }),
    KEYS: {
      list: async () => ({ keys: [...eps.keys()].map((name) => ({ name })), list_complete: true }),
      get: async (name: string) => eps.get(name) ?? null,
    },
  };
  const values = new Map<string, unknown>([["release", { run_slot: true, concurrency_unit: true }], ["hooks", { ended_ms: ENDED }]]);
  const store = {
    kv: { get: (k: string) => values.get(k), put: (k: string, v: unknown) => values.set(k, v), delete: (k: string) => values.delete(k) },
    bareRecord: () => null,
    record: () => ({ id: "s1", job_status: "completed" }),
  };
  const meta = { id: "s1", project_id: "p", key_hash: "k", pool: "default", language: "python", created_ms: ENDED - 1000 };
  return { env, store, meta, enqueued, whenEnqueued };
}

describe("hand-overs after the end", () => {
  it("hands the record to the webhooks while the releases are still unanswered, to the endpoints active at the end", { timeout: 10_000 }, async () => {
    const { env, store, meta, enqueued, whenEnqueued } = setup();
    const done = new Set<string>();
    void handOver(env, store, meta, done);
    await whenEnqueued; // never, if the hand-off waited for the releases
    assert.deepEqual(enqueued.map((e) => e.endpoint_ids), [["early"]], "the endpoint created after the end is not a target");
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([...done], ["hooks"], "the hand-off is remembered as done, the unanswered releases are not");
  });
});
