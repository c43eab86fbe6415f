// fleet/src/main.ts with the test double instead of the real engine (FLEET_TEST_ENGINE=fake).
import { parseConfig } from "../../fleet/src/service/config.ts";
import { exitOnSignals } from "../../fleet/src/service/lifecycle.ts";
import { createLogger } from "../../fleet/src/service/logger.ts";
import { startFleetServer } from "../../fleet/src/service/server.ts";
import { createFakeEngine } from "../../shared-fixtures/fake-engine.ts";

const config = parseConfig(process.argv.slice(2));
const logger = createLogger({ level: config.logLevel, nodeId: config.nodeId });
const engine = createFakeEngine(config.slots);
exitOnSignals(await startFleetServer(config, engine, logger), engine, logger);
