// SIGTERM or SIGINT: drain (refuse new work, finish running and queued runs), close, exit 0.
// A second signal exits at once, cutting whatever still runs.
import type { Engine } from "../engine.ts";
import type { Logger } from "./logger.ts";
import type { FleetServer } from "./server.ts";

export function exitOnSignals(server: FleetServer, engine: Engine, logger: Logger): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting without waiting for runs");
      await server.close();
      await engine.close();
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "draining before exit: running and queued runs finish first");
    await server.drainAndClose();
    await engine.close();
    logger.info("fleet node stopped");
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      stop(signal).catch((error: unknown) => {
        logger.fatal({ err: error }, "shutdown failed");
        process.exit(1);
      });
    });
  }
}
