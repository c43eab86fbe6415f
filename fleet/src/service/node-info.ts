// NodeInfo: identity, capacity, languages and isolation of this node.
import { Language, type NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { FleetNode } from "./fleet-node.ts";

export function createNodeInfo(node: FleetNode) {
  return async function nodeInfo(): Promise<NodeInfoResponse> {
    const health = node.engine.health();
    const { scheduler } = node;
    return {
      nodeId: node.nodeId,
      version: node.version,
      slots: scheduler.slots,
      freeSlots: Math.max(0, scheduler.slots - scheduler.running),
      queueDepth: scheduler.queueDepth,
      queueCapacity: scheduler.queueCapacity,
      languages: node.engine.languages().map((l) => Language.fromPartial(l)),
      enforcementMode: health.enforcementMode,
      cgroupVersion: health.cgroupVersion,
      kernel: health.kernel,
      ready: health.ready,
      draining: node.draining,
      notReadyReasons: health.reasons,
      isolationControls: health.controls,
      seccompPolicy: health.seccompPolicy,
      cpuMode: health.cpuMode,
    };
  };
}
