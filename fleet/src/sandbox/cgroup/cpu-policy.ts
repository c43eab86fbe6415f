// How the node's CPUs are shared among its slots (docs/sandbox.md, "CPU isolation").
//
// dedicated: slot k runs on its own core (cpuset), so no neighbour, however many threads it
//            starts, can take time from it. Needs slots <= usable cores.
// shared:    every slot may run on every core; each run cgroup has the same weight, and a quota
//            of cores / slots, so a run with 64 busy threads gets no more than its slot's share.
// auto:      dedicated when slots <= cores, shared otherwise.

import { availableParallelism } from "node:os";

/** The cores this node process may use (its affinity and cgroup quota), read once: libuv reads them from files on every call. */
export const NODE_CORES = availableParallelism();

export type CpuPolicyName = "auto" | "dedicated" | "shared";
export const CPU_POLICIES: readonly CpuPolicyName[] = ["auto", "dedicated", "shared"];

/** The CPU controls of one run cgroup. */
export interface CpuShare {
  mode: "dedicated" | "shared";
  /** Host CPU ids the run may use. */
  cpus: number[];
  /** Quota in cores per period (undefined: no quota; a dedicated core needs none). */
  quotaCores: number | undefined;
}

/** CFS period for the quota: short enough that a throttled run does not stall for long. */
export const CPU_PERIOD_USEC = 100_000;
/** Equal weights: the kernel defaults (v1 cpu.shares, v2 cpu.weight), written explicitly. */
export const CPU_SHARES_V1 = 1024;
export const CPU_WEIGHT_V2 = 100;

export function planCpuShares(policy: CpuPolicyName, slots: number, cpus: number[]): CpuShare[] | string {
  if (cpus.length === 0) return "no usable CPU in the cgroup's cpuset";
  const mode = policy === "auto" ? (slots <= cpus.length ? "dedicated" : "shared") : policy;
  if (mode === "dedicated") {
    if (slots > cpus.length) return `cpu policy dedicated needs slots (${slots}) <= usable cores (${cpus.length})`;
    return Array.from({ length: slots }, (_, index) => ({ mode, cpus: [cpus[index]!], quotaCores: undefined }));
  }
  const quotaCores = cpus.length / slots;
  return Array.from({ length: slots }, () => ({ mode, cpus: [...cpus], quotaCores }));
}

/**
 * The node's CPUs that no slot has to itself: dedicated cores leave the others to the node, and
 * each run's launcher does its teardown there (docs/sandbox.md, "CPU isolation"). None under a
 * shared plan, where every slot may use every core.
 */
export function housekeepingCpus(plan: CpuShare[], cpus: number[]): number[] {
  if (plan.some((share) => share.mode !== "dedicated")) return [];
  const dedicated = new Set(plan.flatMap((share) => share.cpus));
  return cpus.filter((cpu) => !dedicated.has(cpu));
}

/** The plan for the node's usable CPUs (`readCpus`) and the cores it leaves to the node, or why there is none. */
export function planCpus(policy: CpuPolicyName, slots: number, readCpus: () => number[]): { shares: CpuShare[]; housekeeping: number[] } | string {
  let cpus: number[];
  try {
    cpus = readCpus();
  } catch (error) {
    return `cannot read the usable CPUs: ${(error as Error).message}`;
  }
  const shares = planCpuShares(policy, slots, cpus);
  return typeof shares === "string" ? shares : { shares, housekeeping: housekeepingCpus(shares, cpus) };
}

/**
 * The CPU controls of each side of an interactive pair run in one slot and its partner at once:
 * a dedicated core is shared as it is (both sides are pinned to it); a quota is split in two, so
 * the pair together takes no more than its slot's share from the neighbours.
 */
export function pairShare(share: CpuShare | undefined): CpuShare | undefined {
  if (!share || share.quotaCores === undefined) return share;
  return { ...share, quotaCores: share.quotaCores / 2 };
}

/** cfs_quota_us / cpu.max quota for a share, in microseconds per CPU_PERIOD_USEC (at least 1 ms). */
export function quotaUsec(share: CpuShare): number | undefined {
  return share.quotaCores === undefined ? undefined : Math.max(1000, Math.round(share.quotaCores * CPU_PERIOD_USEC));
}

/** Parses a kernel CPU list ("0-3,8,10-11"). */
export function parseCpuList(text: string): number[] {
  const cpus: number[] = [];
  for (const part of text.trim().split(",").filter(Boolean)) {
    const [from, to = from] = part.split("-").map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to)) throw new Error(`bad cpu list "${text.trim()}"`);
    for (let cpu = from!; cpu <= to!; cpu++) cpus.push(cpu);
  }
  return cpus;
}

export function formatCpuList(cpus: number[]): string {
  return cpus.join(",");
}

export function parseCpuPolicy(value: string | undefined): CpuPolicyName | undefined {
  return CPU_POLICIES.find((policy) => policy === value);
}
