// Assembles docs/api.md's evidence object from what the kernel and the supervisor recorded.
import type { CgroupReadings } from "./cgroup/driver.ts";
import type { AppliedLimits } from "../../../proto/record.ts";
import type { Evidence, Limits } from "./run-spec.ts";
import type { VerdictDecision } from "./verdict.ts";

export interface EvidenceInput {
  decision: VerdictDecision;
  applied: string[];
  missing: string[];
  readings: CgroupReadings;
  cpuUsec: number;
  wallMs: number;
  lifecycle: { reapStatus: string; containment: string; zombies: number };
  judgeActions: string[];
  collectionErrors: string[];
  /** The limits the run was held to. */
  limits: Limits;
}

/** evidence.limits: the run's limits in the record's units. */
export function appliedLimits(limits: Limits): AppliedLimits {
  return {
    wall_time_ms: limits.wallTimeMs,
    cpu_time_ms: limits.cpuTimeMs,
    memory_bytes: limits.memoryBytes,
    processes: limits.processes,
    output_bytes: limits.outputBytes,
  };
}

/**
 * How CPU time relates to wall time: cpu_bound (≥ 0.8 of one core), parallel (more than one
 * core busy), io_bound (≤ 0.2: mostly waiting or sleeping), mixed (between), or instant
 * (under a millisecond of wall time, too short to classify).
 */
export function classifyTiming(cpuMs: number, wallMs: number): string {
  if (wallMs < 1) return "instant";
  const ratio = cpuMs / wallMs;
  if (ratio > 1.2) return "parallel";
  if (ratio >= 0.8) return "cpu_bound";
  if (ratio <= 0.2) return "io_bound";
  return "mixed";
}

export function buildEvidence(input: EvidenceInput): Evidence {
  const cpuMs = Math.round(input.cpuUsec / 1000);
  const wallMs = Math.round(input.wallMs);
  const { readings } = input;
  return {
    verdict_cause: input.decision.cause,
    verdict_actor: input.decision.actor,
    isolation_mode: input.missing.length === 0 && input.applied.length > 0 ? "strict" : "none",
    controls_applied: input.applied,
    controls_missing: input.missing,
    cgroup: {
      memory_limit_bytes: readings.memoryLimitBytes,
      memory_peak_bytes: readings.memoryPeakBytes,
      oom_events: readings.oomEvents,
      oom_kill_events: readings.oomKillEvents,
      cpu_usage_usec: readings.cpuUsageUsec,
      process_count: readings.processCount,
      process_limit: readings.processLimit,
    },
    timing: {
      cpu_ms: cpuMs,
      cpu_time_ms: cpuMs,
      wall_ms: wallMs,
      cpu_wall_ratio: input.wallMs > 0 ? Math.round((input.cpuUsec / 1000 / input.wallMs) * 1000) / 1000 : 0,
      divergence: classifyTiming(input.cpuUsec / 1000, input.wallMs),
    },
    process_lifecycle: {
      reap_status: input.lifecycle.reapStatus,
      descendant_containment: input.lifecycle.containment,
      zombie_count: input.lifecycle.zombies,
    },
    judge_actions: input.judgeActions,
    collection_errors: input.collectionErrors,
    limits: appliedLimits(input.limits),
  };
}
