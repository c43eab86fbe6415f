// Puts a node on the network: one FleetService, served by both transports, with health kept current.
import { readFileSync } from "node:fs";
import type { Engine } from "../engine.ts";
import { FleetServiceDefinition } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { createCredentialCheck } from "./auth.ts";
import { STATUS_NAMES } from "./errors.ts";
import { DEFAULT_GRPC_MAX_CONCURRENT_STREAMS, type FleetConfig } from "./config.ts";
import { createFleetService } from "./fleet-service.ts";
import { FleetNode } from "./fleet-node.ts";
import type { Logger } from "./logger.ts";
import { memoryFields, warnOnSmallHeap } from "./memory-log.ts";
import { createPrecheck, fleetMethod, type RefusalListener } from "./precheck.ts";
import { startGrpcTransport, type GrpcTransport } from "./transport-grpc.ts";
import { startGrpcWebTransport } from "./transport-grpc-web.ts";

const HEALTH_POLL_MS = 5000;

export const NODE_VERSION: string = JSON.parse(
  readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
).version;

export type ServerSettings = Pick<
  FleetConfig,
  | "host"
  | "grpcPort"
  | "grpcWebPort"
  | "token"
  | "tls"
  | "queueCapacity"
  | "resultRetentionSecs"
  | "maxRetainedResults"
  | "maxRetainedResultBytes"
  | "nodeId"
  | "drainGraceSecs"
> &
  Partial<Pick<FleetConfig, "grpcMaxConcurrentStreams" | "inflightBytes">>;

export interface FleetServer {
  node: FleetNode;
  grpcPort: number;
  grpcWebPort: number;
  /** Refuses new work, waits for running and queued runs, then closes both transports. */
  drainAndClose(): Promise<void>;
  /** Closes both transports at once (streams in progress are cut). */
  close(): Promise<void>;
}

export async function startFleetServer(settings: ServerSettings, engine: Engine, logger: Logger): Promise<FleetServer> {
  const node = new FleetNode(engine, logger, {
    nodeId: settings.nodeId,
    version: NODE_VERSION,
    queueCapacity: settings.queueCapacity,
    resultRetentionSecs: settings.resultRetentionSecs,
    maxRetainedResults: settings.maxRetainedResults,
    maxRetainedResultBytes: settings.maxRetainedResultBytes,
    ...(settings.inflightBytes === undefined ? {} : { inflightBytes: settings.inflightBytes }),
  });
  const checkCredential = createCredentialCheck(settings.token);
  // The transports check every call before its body (precheck.ts); the service checks again.
  const precheck = createPrecheck(checkCredential);
  const service = createFleetService(node, checkCredential);
  const onRefused: RefusalListener = ({ path, transport, peer, status }) => {
    const method = fleetMethod(path);
    const code = STATUS_NAMES[status.code] ?? String(status.code);
    if (method) node.metrics.rpcs.inc({ method, transport, code });
    logger.info({ method: method ?? path, transport, peer, code }, status.message);
  };
  const grpc = await startGrpcTransport({
    service,
    precheck,
    onRefused,
    host: settings.host,
    port: settings.grpcPort,
    tls: settings.tls,
    maxConcurrentStreams: settings.grpcMaxConcurrentStreams ?? DEFAULT_GRPC_MAX_CONCURRENT_STREAMS,
  });
  const web = await startGrpcWebTransport({
    service,
    precheck,
    onRefused,
    metrics: node.metrics.registry,
    host: settings.host,
    port: settings.grpcWebPort,
    tls: settings.tls,
    onError: (error) => logger.error({ err: error }, "grpc-web transport failed"),
  }).catch(async (error: unknown) => {
    await grpc.close(0);
    throw error;
  });

  const stopHealth = keepHealthCurrent(node, grpc.health, logger);
  const retentionTimer = setInterval(() => node.registry.sweep(), 60_000).unref();

  logger.info(
    {
      host: settings.host,
      grpc_port: grpc.port,
      grpc_web_port: web.port,
      tls: settings.tls !== undefined,
      grpc_max_concurrent_streams: settings.grpcMaxConcurrentStreams ?? DEFAULT_GRPC_MAX_CONCURRENT_STREAMS,
      slots: node.scheduler.slots,
      queue_capacity: node.scheduler.queueCapacity,
      version: NODE_VERSION,
      ...memoryFields(node),
    },
    "fleet node listening",
  );
  warnOnSmallHeap(node, logger);

  const closeTransports = async (graceMs: number) => {
    stopHealth();
    clearInterval(retentionTimer);
    await Promise.all([grpc.close(graceMs), web.close(graceMs)]);
  };
  return {
    node,
    grpcPort: grpc.port,
    grpcWebPort: web.port,
    async drainAndClose() {
      node.drain();
      await node.idle();
      logger.info("drained: every run has finished");
      await closeTransports(settings.drainGraceSecs * 1000);
    },
    close: () => closeTransports(0),
  };
}

/** Publishes SERVING / NOT_SERVING as the node's readiness and drain state change; returns a stop. */
function keepHealthCurrent(node: FleetNode, health: GrpcTransport["health"], logger: Logger): () => void {
  let lastStatus: "SERVING" | "NOT_SERVING" | undefined;
  const refreshHealth = () => {
    const status = node.serving() ? "SERVING" : "NOT_SERVING";
    if (status === lastStatus) return;
    lastStatus = status;
    health.setStatus("", status);
    health.setStatus(FleetServiceDefinition.fullName, status);
    logger.info({ health: status, reasons: node.engine.health().reasons }, "health changed");
  };
  refreshHealth();
  node.onDrain(refreshHealth);
  const healthTimer = setInterval(refreshHealth, HEALTH_POLL_MS).unref();
  return () => clearInterval(healthTimer);
}
