// The state a node's handlers share: engine, its queue (bounded for the service), its bytes in
// flight, runs, drain flag.
import type { Engine } from "../engine.ts";
import { InflightBytes } from "./inflight.ts";
import type { Logger } from "./logger.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { DEFAULT_INFLIGHT_MIB, heapLimitBytes } from "./node-memory.ts";
import { RunRegistry } from "./run-registry.ts";
import { Scheduler } from "./scheduler.ts";

export interface FleetNodeOptions {
  nodeId: string;
  version: string;
  queueCapacity: number;
  resultRetentionSecs: number;
  maxRetainedResults: number;
  /** Byte budget of kept outcomes (run-registry.ts). */
  maxRetainedResultBytes: number;
  /** Budget of the bytes admitted submissions may make the node hold (inflight.ts); default DEFAULT_INFLIGHT_MIB. */
  inflightBytes?: number;
}

export class FleetNode {
  readonly engine: Engine;
  readonly logger: Logger;
  readonly nodeId: string;
  readonly version: string;
  readonly scheduler: Scheduler;
  readonly registry: RunRegistry;
  readonly inflight: InflightBytes;
  readonly metrics: Metrics;
  #draining = false;
  readonly #drainListeners: (() => void)[] = [];

  constructor(engine: Engine, logger: Logger, options: FleetNodeOptions) {
    this.engine = engine;
    this.logger = logger;
    this.nodeId = options.nodeId;
    this.version = options.version;
    this.scheduler = new Scheduler(engine.queue, options.queueCapacity);
    const registry = new RunRegistry({
      retentionMs: options.resultRetentionSecs * 1000,
      maxCompleted: options.maxRetainedResults,
      maxBytes: options.maxRetainedResultBytes,
      onEvict: (_run, reason) => this.metrics.resultEvictions.inc({ reason }),
    });
    this.registry = registry;
    const inflight = new InflightBytes(options.inflightBytes ?? DEFAULT_INFLIGHT_MIB * 1024 * 1024);
    this.inflight = inflight;
    this.metrics = createMetrics({
      slots: () => this.scheduler.slots,
      slotsInUse: () => this.scheduler.running,
      queueDepth: () => this.scheduler.queueDepth,
      queueCapacity: () => this.scheduler.queueCapacity,
      draining: () => this.#draining,
      ready: () => this.engine.health().ready,
      resultsRetained: () => registry.retainedRuns,
      resultsRetainedBytes: () => registry.retainedBytes,
      resultRetentionBudgetBytes: () => registry.maxBytes,
      inflightBytes: () => inflight.reserved,
      inflightBudgetBytes: () => inflight.budget,
      heapLimitBytes,
    });
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** Stops admitting new runs; returns how many were running or queued at that moment. */
  drain(): number {
    const inFlight = this.scheduler.running + this.scheduler.queueDepth;
    if (!this.#draining) {
      this.#draining = true;
      this.logger.info({ in_flight: inFlight }, "draining: new work is refused");
      for (const listener of this.#drainListeners) listener();
    }
    return inFlight;
  }

  onDrain(listener: () => void): void {
    this.#drainListeners.push(listener);
  }

  /** Resolves when no run is executing or queued. */
  idle(): Promise<void> {
    return this.scheduler.idle();
  }

  /** Serving means: not draining and the engine can isolate. */
  serving(): boolean {
    return !this.#draining && this.engine.health().ready;
  }
}
