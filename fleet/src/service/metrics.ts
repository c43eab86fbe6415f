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
  return {
    registry,
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
