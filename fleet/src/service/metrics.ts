// Prometheus metrics of one node, on a registry of its own (several nodes can share a process in tests).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface NodeGauges {
  slots(): number;
  slotsInUse(): number;
  queueDepth(): number;
  queueCapacity(): number;
  draining(): boolean;
  ready(): boolean;
  resultsRetained(): number;
  resultsRetainedBytes(): number;
  resultRetentionBudgetBytes(): number;
  inflightBytes(): number;
  inflightBudgetBytes(): number;
  heapLimitBytes(): number;
}

export function createMetrics(gauges: NodeGauges) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge("codecell_fleet_slots", "Execution slots of the node.", gauges.slots);
  gauge("codecell_fleet_slots_in_use", "Slots running a program now.", gauges.slotsInUse);
  gauge("codecell_fleet_queue_depth", "Runs waiting for a slot.", gauges.queueDepth);
  gauge("codecell_fleet_queue_capacity", "Bound of the local queue.", gauges.queueCapacity);
  gauge("codecell_fleet_draining", "1 while the node drains.", () => Number(gauges.draining()));
  gauge("codecell_fleet_ready", "1 when the engine can apply every isolation control.", () =>
    Number(gauges.ready()),
  );
  gauge("codecell_fleet_results_retained", "Completed runs whose outcome is kept for GetResult.", gauges.resultsRetained);
  gauge(
    "codecell_fleet_results_retained_bytes",
    "Size of the kept outcomes (an upper bound of their encoding, plus a fixed overhead each).",
    gauges.resultsRetainedBytes,
  );
  gauge("codecell_fleet_result_retention_budget_bytes", "Byte budget of the kept outcomes (FLEET_MAX_RETAINED_RESULT_MIB).", gauges.resultRetentionBudgetBytes);
  gauge("codecell_fleet_inflight_bytes", "Bytes reserved by the submissions queued and running (their worst case).", gauges.inflightBytes);
  gauge("codecell_fleet_inflight_budget_bytes", "Budget of the bytes in flight (FLEET_INFLIGHT_MIB); past it new work is refused.", gauges.inflightBudgetBytes);
  gauge("codecell_fleet_heap_limit_bytes", "The node's V8 heap limit (--max-old-space-size plus the young generation).", gauges.heapLimitBytes);
  return {
    registry,
    resultEvictions: new Counter({
      name: "codecell_fleet_result_evictions_total",
      help: "Kept outcomes dropped, by reason: expired (retention time), count (the count cap), bytes (the byte budget).",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
    resultsTrimmed: new Counter({
      name: "codecell_fleet_results_trimmed_total",
      help: "Results whose record carries less output than the programs wrote: the submission's output budget cut it.",
      registers: [registry],
    }),
    runs: new Counter({
      name: "codecell_fleet_runs_total",
      help: "Completed runs by canonical language and verdict.",
      labelNames: ["language", "verdict"] as const,
      registers: [registry],
    }),
    runDuration: new Histogram({
      name: "codecell_fleet_run_duration_seconds",
      help: "Time from a run's start in a slot to its result (compile included).",
      labelNames: ["language"] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    queueWait: new Histogram({
      name: "codecell_fleet_queue_wait_seconds",
      help: "Time a run waited in the local queue before a slot took it (0 when one was free).",
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    rpcs: new Counter({
      name: "codecell_fleet_rpcs_total",
      help: "Finished FleetService calls by method, transport and gRPC status code name.",
      labelNames: ["method", "transport", "code"] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
