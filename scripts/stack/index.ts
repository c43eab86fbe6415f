// One way to start a stack (an edge and fleet nodes) and talk to it: `npm start`, the tests and the
// benchmarks all use these.
export { edgeCommand, startEdge, type Edge, type EdgeCommand, type EdgeOptions } from "./edge.ts";
export { fleetCommand, startFleet, type Fleet, type FleetCommand, type FleetOptions } from "./fleet-node.ts";
export { Client, request, type RequestOptions, type Res } from "./http.ts";
export { admin } from "./operator.ts";
export { NODE, ROOT, cleanup, freePort, killGroup, memoryTempDir, portOpen, sleep, stopGroup, tempDir, waitExit } from "./processes.ts";

/**
 * Short timers for a stack on one machine (tests, benchmarks): a sick node is noticed within
 * seconds, not the production minutes.
 */
export const LOCAL_TEST_VARS: Record<string, string> = {
  ENVIRONMENT: "development",
  // Long enough for a cold C compile on a loaded 2-core machine; the 408 test sleeps longer.
  SYNC_HOLD_MS: "5000",
  WATCHDOG_MS: "1000",
  WATCHDOG_FAILURES: "2",
  HEALTH_TTL_MS: "500",
  QUEUE_CAPACITY: "50",
};
