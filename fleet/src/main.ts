// Entry point of a fleet node: `npm run fleet` (settings: docs/fleet-node.md).
import { CommanderError } from "commander";
import { ConfigError, parseConfig, type FleetConfig } from "./service/config.ts";
import { exitOnSignals } from "./service/lifecycle.ts";
import { createLogger } from "./service/logger.ts";
import { startFleetServer } from "./service/server.ts";
import { createEngine } from "./node-engine.ts";

function loadConfig(): FleetConfig {
  try {
    return parseConfig(process.argv.slice(2));
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    if (error instanceof ConfigError) {
      console.error(`codecell-fleet: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

const config = loadConfig();
const logger = createLogger({ level: config.logLevel, nodeId: config.nodeId });
let engine: Awaited<ReturnType<typeof createEngine>> | undefined;
try {
  const { slots, stateDir, cgroupParent, launcherPath, cpuPolicy } = config;
  engine = await createEngine({ slots, stateDir, cgroupParent, launcherPath, cpuPolicy });
  const server = await startFleetServer(config, engine, logger);
  exitOnSignals(server, engine, logger);
} catch (error) {
  logger.fatal({ err: error }, "fleet node failed to start");
  // the sandbox's mounts (slot netns, favordynmods) and cgroups go with it, not left behind
  await engine?.close().catch(() => undefined);
  process.exit(1);
}
