// What the registry tells the schedulers (docs/architecture.md, "The registry pushes, the scheduler
// decides"): a node's schedulable state to its pool's scheduler when it differs from the last push
// (one push at a time, so that they arrive in order), and the list of pools to every scheduler. A
// push that fails is retried by the registry's alarm.
import type { Config, Env } from "../env.ts";
import { scheduler } from "../stubs.ts";
import { poolsOf } from "./fleet-status.ts";
import { schedulable } from "./node-state.ts";
import { type NodeStore, decodeInfo } from "./node-store.ts";

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class SchedulerPushes {
  readonly #env: Env;
  readonly #cfg: Config;
  readonly #nodes: NodeStore;
  readonly #kv: SyncKvStorage;
  /** Called after a node's push went through. */
  readonly #pushed: () => void;
  #pushes: Promise<void> = Promise.resolve();

  constructor(env: Env, cfg: Config, nodes: NodeStore, kv: SyncKvStorage, pushed: () => void) {
    this.#env = env;
    this.#cfg = cfg;
    this.#nodes = nodes;
    this.#kv = kv;
    this.#pushed = pushed;
  }

  /** Pushes the node's schedulable state to its pool's scheduler, when it differs from the last push. */
  node(id: string): Promise<void> {
    const next = this.#pushes.then(async () => {
      const row = this.#nodes.byId(id);
      if (!row) return;
      const state = schedulable(row, decodeInfo(row), Date.now(), this.#cfg);
      const json = JSON.stringify(state);
      if (row.pushed === json) return;
      const before = row.pushed ? (JSON.parse(row.pushed) as { pool: string }).pool : null;
      await scheduler(this.#env, state.pool).putNode(state);
      if (before !== null && before !== state.pool) await scheduler(this.#env, before).removeNode(id);
      this.#nodes.markPushed(id, json);
      this.#pushed();
    }).catch((e: unknown) => console.warn("node state push to its scheduler failed; the alarm retries", id, message(e)));
    this.#pushes = next;
    return next;
  }

  /** Every scheduler knows every pool: a pool that cannot take a run names the others. */
  async pools(): Promise<void> {
    const pools = poolsOf(this.#nodes.all().map((row) => ({ row, info: decodeInfo(row) })));
    const json = JSON.stringify(pools);
    if (this.#kv.get<string>("published_pools") === json) return;
    try {
      await Promise.all(pools.map((p) => scheduler(this.#env, p).setPools(pools)));
      this.#kv.put("published_pools", json);
    } catch (e) {
      console.warn("pool list push failed; the alarm retries", message(e));
    }
  }
}
