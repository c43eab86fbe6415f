// The node's memory budget (docs/fleet-node.md, "Memory"): a baseline, the bytes in flight
// (FLEET_INFLIGHT_MIB, inflight.ts) and the kept results (FLEET_MAX_RETAINED_RESULT_MIB). The V8
// heap limit the node runs with (--max-old-space-size, set by whoever starts it: npm start, the
// enrollment command, the systemd unit) is that sum, so a node within its budgets never hits it.
import { getHeapStatistics } from "node:v8";

/** What an idle node holds: code, the language table, the sandbox's and the check pool's state. */
export const NODE_BASELINE_MIB = 256;
/** FLEET_INFLIGHT_MIB's default. */
export const DEFAULT_INFLIGHT_MIB = 1024;
/** FLEET_INFLIGHT_MIB's least value: the largest single submission (inflight.ts) always fits an idle node. */
export const MIN_INFLIGHT_MIB = 64;
/** FLEET_MAX_RETAINED_RESULT_MIB's default. */
export const DEFAULT_RETAINED_MIB = 256;

/** The node's memory budget in MiB for its in-flight and retention budgets (in MiB). */
export const memoryBudgetMib = (inflightMib: number, retainedMib: number): number => NODE_BASELINE_MIB + inflightMib + retainedMib;

/** The heap limit at the default budgets: 256 + 1024 + 256 = 1536 MiB. */
export const DEFAULT_HEAP_MIB = memoryBudgetMib(DEFAULT_INFLIGHT_MIB, DEFAULT_RETAINED_MIB);

const HEAP_FLAG = /^--max-old-space-size=\d+$/;

/**
 * The heap flag a node is started with: the one in `execArgv` (its starter's own, e.g. the systemd
 * unit's ExecStart) if there is one, else the memory budget of the node's settings.
 */
export function heapFlag(inflightMib: number, retainedMib: number, execArgv: readonly string[] = []): string {
  return execArgv.find((arg) => HEAP_FLAG.test(arg)) ?? `--max-old-space-size=${memoryBudgetMib(inflightMib, retainedMib)}`;
}

/** heapFlag for the settings in an environment (their defaults when unset): `npm start`'s node. */
export function heapFlagFromEnv(env: NodeJS.ProcessEnv): string {
  const mib = (value: string | undefined, fallback: number) => (value && /^\d+$/.test(value.trim()) ? Number(value) : fallback);
  return heapFlag(mib(env.FLEET_INFLIGHT_MIB, DEFAULT_INFLIGHT_MIB), mib(env.FLEET_MAX_RETAINED_RESULT_MIB, DEFAULT_RETAINED_MIB));
}

/** This process's V8 heap limit in bytes (old space plus young generation). */
export const heapLimitBytes = (): number => getHeapStatistics().heap_size_limit;
