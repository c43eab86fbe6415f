// One fleet node of the cluster (harness.ts) on its own host (a network namespace): started by the
// enrollment command with its own token, state directory, cgroup parent and TLS certificate.
import { randomBytes } from "node:crypto";
import { sleep, tempDir } from "../edge/harness.ts";
import type { NodeHost } from "./network.ts";
import { pidsIn } from "./network.ts";
import { fetchMetric, nodeAgent } from "./node-agent.ts";
import type { NodeAgent } from "./node-agent.ts";
import type { Pki } from "./pki.ts";
import { waitGone } from "./processes.ts";

export interface ClusterNode {
  name: string;
  host: NodeHost;
  /** What the edge calls (gRPC-Web over TLS). */
  url: string;
  stateDir: string;
  agent: NodeAgent | null;
  /** Starts the enrollment command on the node's host (it starts the node and enrolls it). */
  start(): Promise<void>;
  /** systemd's stop: SIGTERM to the enrollment command, which drains the node and leaves. */
  stop(): Promise<number | null>;
  /** Power loss: SIGKILL to the enrollment command and the node. */
  kill(): Promise<void>;
  /** Sum of codecell_fleet_runs_total from the node's /metrics (over TLS, through the bridge). */
  runs(): Promise<number>;
}

export interface NodePlace {
  name: string;
  host: NodeHost;
  edgeUrl: string;
  enrollToken: string;
  pki: Pki;
  cgroupParent: string;
}

export function clusterNode({ name, host, edgeUrl, enrollToken, pki, cgroupParent }: NodePlace): ClusterNode {
  const stateDir = tempDir(`cluster-${name}`);
  const tls = pki.certs.get(host.address)!;
  const fleetToken = randomBytes(24).toString("hex");
  const node: ClusterNode = {
    name, host, stateDir, agent: null, url: `https://${host.address}:50052`,
    async start() {
      node.agent = nodeAgent({ host, name, edgeUrl, enrollToken, stateDir, tls, caCert: pki.caCert, cgroupParent, fleetToken });
    },
    async stop() {
      const a = node.agent;
      if (!a) return null;
      process.kill(a.proc.pid!, "SIGTERM");
      const code = await Promise.race([a.exited, sleep(60_000).then(() => "timeout" as const)]);
      if (code === "timeout") {
        await node.kill();
        throw new Error(`${name}: the enrollment command did not exit within 60 s of SIGTERM\n${a.log()}`);
      }
      node.agent = null;
      return code;
    },
    async kill() {
      const a = node.agent;
      if (!a) return;
      a.killNow();
      await Promise.race([a.exited, sleep(5_000)]);
      await waitGone(pidsIn(host), 5_000);
      node.agent = null;
    },
    runs: () => fetchMetric(node.url, pki.caCert, fleetToken, "codecell_fleet_runs_total"),
  };
  return node;
}
