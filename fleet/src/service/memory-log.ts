// What a node says of its memory at start-up: its budgets and heap limit in the "listening" line,
// and a warning when the heap limit is below the memory budget (the node was started without the
// --max-old-space-size its settings need: docs/fleet-node.md, "Memory").
import type { FleetNode } from "./fleet-node.ts";
import type { Logger } from "./logger.ts";
import { heapLimitBytes, NODE_BASELINE_MIB } from "./node-memory.ts";

const MiB = 1024 * 1024;

/** The node's memory budget in bytes: baseline, bytes in flight, kept results. */
export const memoryBudgetBytes = (node: FleetNode): number => NODE_BASELINE_MIB * MiB + node.inflight.budget + node.registry.maxBytes;

export function memoryFields(node: FleetNode): Record<string, number> {
  return {
    inflight_budget_mib: Math.round(node.inflight.budget / MiB),
    retained_budget_mib: Math.round(node.registry.maxBytes / MiB),
    memory_budget_mib: Math.round(memoryBudgetBytes(node) / MiB),
    heap_limit_mib: Math.round(heapLimitBytes() / MiB),
  };
}

export function warnOnSmallHeap(node: FleetNode, logger: Logger): void {
  const budget = memoryBudgetBytes(node);
  if (heapLimitBytes() >= budget) return;
  logger.warn(
    { heap_limit_mib: Math.round(heapLimitBytes() / MiB), memory_budget_mib: Math.round(budget / MiB) },
    `the heap limit is below the node's memory budget: start it with --max-old-space-size=${Math.round(budget / MiB)}`,
  );
}
