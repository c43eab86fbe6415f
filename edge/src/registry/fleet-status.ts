// The fleet's health over all pools, from the registry's rows and the schedulers' loads. Pure,
// unit tested.
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { CANONICAL_LANGUAGES, orderLanguages } from "../../../proto/languages.ts";
import { mergeRuntimes } from "../../../proto/runtimes.ts";
import type { Runtime } from "../../../proto/runtimes.ts";
import type { FleetStatus, PoolView } from "../contracts/fleet.ts";
import { withIsolation } from "./runtime-isolation.ts";
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import type { PoolLoad } from "../contracts/scheduler.ts";
import { runSlots } from "./node-admission.ts";
import { notReadyReason } from "./node-state.ts";
import type { HeartbeatRule } from "./node-state.ts";
import type { NodeRow } from "./node-row.ts";

export interface KnownNode {
  row: NodeRow;
  info: NodeInfoResponse | null;
}

/** Every pool that has a node, and the default pool always. */
export function poolsOf(nodes: KnownNode[]): string[] {
  return [...new Set([DEFAULT_POOL, ...nodes.map((n) => n.row.pool)])].sort();
}

export function summarize(
  nodes: KnownNode[], loads: ReadonlyMap<string, PoolLoad>, now: number, rule: HeartbeatRule,
): { status: FleetStatus; pools: PoolView[] } {
  const reasons: string[] = [];
  if (nodes.length === 0) reasons.push("no fleet node is registered");
  const langs = new Set<string>();
  const runtimeLists: Runtime[][] = [];
  const readyInfos: NodeInfoResponse[] = [];
  const emptyPool = (p: string): PoolView => ({ pool: p, nodes: 0, ready_nodes: 0, workers: 0, queue_depth: loads.get(p)?.queue_depth ?? 0 });
  const pools = new Map<string, PoolView>(poolsOf(nodes).map((p) => [p, emptyPool(p)]));
  for (const { row, info } of nodes) {
    const pool = pools.get(row.pool)!;
    pool.nodes++;
    const reason = notReadyReason(row, info, now, rule);
    if (reason !== null) {
      reasons.push(reason);
      continue;
    }
    pool.ready_nodes++;
    if (info) readyInfos.push(info);
    pool.workers += runSlots(row, info);
    for (const l of info?.languages ?? []) langs.add(l.name);
    runtimeLists.push((info?.languages ?? []).map((l) => ({
      language: l.name, version: l.version, aliases: l.aliases, default: l.default, compiled: l.compiled, libraries: l.libraries,
    })));
  }
  const views = [...pools.values()];
  const readyNodes = views.reduce((n, p) => n + p.ready_nodes, 0);
  return {
    status: {
      ready_nodes: readyNodes,
      workers: views.reduce((n, p) => n + p.workers, 0),
      queue_depth: views.reduce((n, p) => n + p.queue_depth, 0),
      enforcement_mode: readyNodes > 0 ? "strict" : "none",
      languages: orderLanguages(langs),
      runtimes: withIsolation(mergeRuntimes(runtimeLists, CANONICAL_LANGUAGES), readyInfos),
      reasons,
    },
    pools: views,
  };
}
