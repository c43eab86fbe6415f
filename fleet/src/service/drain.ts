// Drain: refuse new work from now on; running and queued runs finish. The process keeps serving
// (streams, GetResult, NodeInfo); SIGTERM is what drains and then exits.
import type { DrainResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { FleetNode } from "./fleet-node.ts";

export function createDrain(node: FleetNode) {
  return async function drain(): Promise<DrainResponse> {
    return { inFlight: node.drain() };
  };
}
