// NodeInfo polls: the registry's view of a node's health. One poll per node at a time; the
// outcome (NodeInfo, or the failure) is stored in the node's row, then `after` runs.
import { fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import { isRevoked } from "./node-admission.ts";
import type { NodeRow } from "./node-row.ts";
import type { NodeStore } from "./node-store.ts";

export class HealthPoll {
  #nodes: NodeStore;
  #after: (nodeId: string) => Promise<void>;
  #running = new Map<string, Promise<void>>();

  constructor(nodes: NodeStore, after: (nodeId: string) => Promise<void>) {
    this.#nodes = nodes;
    this.#after = after;
  }

  /** Polls every node whose last poll is older than `ttlMs` (a revoked node is not called any more). */
  async stale(rows: NodeRow[], ttlMs: number): Promise<void> {
    const now = Date.now();
    await Promise.all(rows.filter((r) => now - r.last_checked >= ttlMs && !isRevoked(r)).map((r) => this.poll(r)));
  }

  poll(r: NodeRow): Promise<void> {
    const running = this.#running.get(r.id);
    if (running) return running;
    const p = (async () => {
      try {
        const info = await unary({ url: r.url, token: r.token }, fleetMethods.nodeInfo, {}, 2_000);
        this.#nodes.pollAnswered(r.id, info, Date.now());
      } catch (e) {
        this.#nodes.pollFailed(r.id, Date.now(), e instanceof Error ? e.message : String(e));
      } finally {
        this.#running.delete(r.id);
      }
      await this.#after(r.id);
    })();
    this.#running.set(r.id, p);
    return p;
  }
}
