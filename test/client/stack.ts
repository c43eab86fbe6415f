// One real local stack for the SDK's tests (a fleet node and the Worker on workerd), a
// webhook receiver, and a fetch that trusts the local stack's self-signed certificate and records answers.
import { Agent, fetch as undiciFetch } from "undici";
import { admin, cleanup, startEdge, startFleet } from "../edge/harness.ts";
import type { Edge, Fleet } from "../edge/harness.ts";
import { startReceiver, type Hit } from "../webhook-receiver.ts";

export type Delivery = Hit;

export interface Stack {
  edge: Edge;
  fleet: Fleet;
  ops: ReturnType<typeof admin>;
  receiverUrl: string;
  deliveries: Delivery[];
  stop(): Promise<void>;
}

/** The server's sync hold (SYNC_HOLD_MS) is short so run() meets a 408; in-flight cap 1 makes a real 429 with Retry-After: 1. */
export const SYNC_HOLD_MS = 1500;

export async function startStack(): Promise<Stack> {
  const receiver = await startReceiver((_, res) => void res.writeHead(204).end());
  const deliveries: Delivery[] = receiver.hits;
  const fleet = await startFleet();
  const edge = await startEdge({ vars: { SYNC_HOLD_MS: String(SYNC_HOLD_MS), MAX_IN_FLIGHT: "1", WEBHOOK_DEV_ALLOW: receiver.allow } });
  const ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  if (reg.status !== 201) throw new Error(`register node: ${reg.status} ${reg.text}`);
  return {
    edge, fleet, ops, deliveries, receiverUrl: receiver.url(""),
    async stop() {
      await edge.stop();
      await fleet.stop();
      receiver.close();
      cleanup(edge.persistDir);
      cleanup(fleet.stateDir);
    },
  };
}

const insecure = new Agent({ connect: { rejectUnauthorized: false } });

/** A fetch for the SDK that accepts the local self-signed certificate and records each answer's status and path. */
export function recordingFetch(log: { method: string; path: string; status: number }[] = []): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const res = await undiciFetch(url, { ...(init as object), dispatcher: insecure });
    log.push({ method: init?.method ?? "GET", path: url.pathname + url.search, status: res.status });
    return res;
  }) as unknown as typeof fetch;
}
