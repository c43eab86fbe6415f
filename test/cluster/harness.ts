// The cluster harness: the edge (scripts/edge-dev.ts, host namespace, listening on the bridge) and
// three fleet nodes, each on its own "host" — a network namespace with its own address, its own
// cgroup parent and state directory — each started by the enrollment command with its own token
// and serving TLS with a certificate from the cluster's CA, exactly as an operator runs a fleet.
// Nothing between edge and node goes over loopback. Every process, namespace, link and cgroup made
// here is removed by teardown(), and by an exit handler if the test process ends another way.
import { Client, admin, cleanup, sleep, startEdge, tempDir } from "../edge/harness.ts";
import type { Edge, Res } from "../edge/harness.ts";
import { cli } from "../operators/cli-helpers.ts";
import type { CliResult } from "../operators/cli-helpers.ts";
import { killGroup, killPid, removeCgroupTree } from "./processes.ts";
import { claimProcessGroup, createNetwork, destroyNetwork, pidsIn, sweepStaleNetworks } from "./network.ts";
import type { ClusterNetwork, NodeHost } from "./network.ts";
import { startReceiver, type Receiver } from "../webhook-receiver.ts";
import { makePki } from "./pki.ts";
import type { Pki } from "./pki.ts";
import { clusterNode, type ClusterNode } from "./cluster-node.ts";

export { sleep };
export type { ClusterNode };

/** Edge timing for the cluster: heartbeats every second, unhealthy after 3 missed (a loaded 2-core CI machine delays some). */
export const HEARTBEAT_MS = 1_000;
export const HEARTBEAT_MISSES = 3;
/**
 * The documented bound (docs/operators.md): an enrolled node whose link is cut is `unhealthy` at
 * most NODE_HEARTBEAT_MS × (NODE_HEARTBEAT_MISSES + 1) after the cut (the last heartbeat may have
 * left just before it).
 */
export const UNHEALTHY_BOUND_MS = HEARTBEAT_MS * (HEARTBEAT_MISSES + 1);

export interface Hook {
  submission: string;
  body: any;
}

export interface Cluster {
  edge: Edge;
  network: ClusterNetwork;
  pki: Pki;
  nodes: ClusterNode[];
  client: Client;
  projectId: string;
  /** Webhook deliveries received for the cluster's project (one per result, by contract). */
  hooks: Hook[];
  /** The operator's CLI (`--json`), trusting the cluster CA; `env` adds variables (e.g. FLEET_TOKEN). */
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  listNodes(): Promise<any[]>;
  waitNodes(pred: (nodes: any[]) => boolean, what: string, ms?: number): Promise<any[]>;
  teardown(): Promise<void>;
}

/**
 * A reused keep-alive connection that the edge closed at the same moment fails with ECONNRESET
 * ("socket hang up"); reads are safe to send again, so they are (writes never are).
 */
async function retryReads<T>(method: string, send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      if (method !== "GET" || attempt >= 3 || (e as NodeJS.ErrnoException).code !== "ECONNRESET") throw e;
    }
  }
}

/**
 * wrangler's local dev proxy (its ProxyWorker) answers a POST whose forwarding to the Worker failed
 * with 503 "Your worker restarted mid-request" (seen in about one run in four of the cut-link case,
 * and once as a reset socket; the cause lies in the local dev stack, which production does not
 * have). A submission therefore carries an Idempotency-Key, as a careful client's does, and is sent
 * again on such an answer: the edge runs it at most once, and a replayed synchronous submit is
 * followed to its end.
 */
const LOST_BY_DEV_PROXY = "restarted mid-request";

class ClusterClient extends Client {
  override call(method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown; raw?: Buffer | string } = {}): Promise<Res> {
    return retryReads(method, () => super.call(method, path, opts));
  }

  override async submit(body: unknown, opts: { wait?: boolean; headers?: Record<string, string> } = {}): Promise<Res> {
    const headers = { "idempotency-key": crypto.randomUUID(), ...opts.headers };
    for (let attempt = 1; ; attempt++) {
      let r: Res;
      try {
        r = await super.submit(body, { ...opts, headers });
      } catch (e) {
        if (attempt >= 3 || (e as NodeJS.ErrnoException).code !== "ECONNRESET") throw e;
        continue;
      }
      if (r.status === 503 && r.text.includes(LOST_BY_DEV_PROXY) && attempt < 3) continue;
      if (attempt > 1 && opts.wait && r.status === 202 && r.json?.id) return { ...(await this.terminal(r.json.id, 60_000)), status: 200 };
      return r;
    }
  }
}

let live: (() => void) | null = null;
function onExit(): void {
  live?.();
}
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    onExit();
    process.exit(130);
  });
}
process.on("exit", onExit);

const cgroupRootOf = (net: number) => `codecell-cluster-${net}`;

/** What a cluster run killed outright (SIGKILL) left behind: its nodes' processes, network and cgroups. */
export function sweepStaleClusters(): number[] {
  const swept = sweepStaleNetworks();
  for (const net of swept) removeCgroupTree(cgroupRootOf(net));
  return swept;
}

/** The edge's settings for the cluster, its webhooks going to the receiver at `hookPort`. */
function edgeVars(hookPort: number): Record<string, string> {
  return {
    NODE_HEARTBEAT_MS: String(HEARTBEAT_MS), NODE_HEARTBEAT_MISSES: String(HEARTBEAT_MISSES), RATE_LIMIT_PER_MIN: "100000",
    MAX_IN_FLIGHT: "100", SYNC_HOLD_MS: "20000", QUEUE_CAPACITY: "500", WATCHDOG_MS: "1000", WATCHDOG_FAILURES: "3",
    WEBHOOK_DEV_ALLOW: `127.0.0.1:${hookPort}`,
  };
}

/** Polls the edge's node list until `pred` holds; past `ms`, fails with the list and the nodes' last log lines. */
async function waitNodes(cluster: Cluster, pred: (nodes: any[]) => boolean, what: string, ms: number): Promise<any[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const list = await cluster.listNodes();
    if (pred(list)) return list;
    if (Date.now() > deadline) {
      const logs = cluster.nodes.map((n) => `--- ${n.name}:\n${n.agent?.log().slice(-3000) ?? "(not running)"}`).join("\n");
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(list.map((n) => [n.name, n.state, n.in_flight, n.last_error]))}\n${logs}`);
    }
    await sleep(100);
  }
}

/** Webhook deliveries, each pushed onto `hooks`. */
function hookReceiver(hooks: Hook[]): Promise<Receiver> {
  return startReceiver((hit, res) => {
    try {
      const json = JSON.parse(hit.body);
      hooks.push({ submission: json.id, body: json });
    } catch {}
    res.writeHead(204).end();
  });
}

/** The cluster's project, its API key, and its webhook endpoint on the receiver at `hookPort`. */
async function clusterProject(ops: ReturnType<typeof admin>, hookPort: number): Promise<{ projectId: string; key: { key: string } }> {
  const project = await ops.call("POST", "/admin/projects", { name: "cluster" });
  if (project.status !== 201) throw new Error(`create project: ${project.status} ${project.text}`);
  const projectId = project.json.id as string;
  const key = await ops.newKey(projectId);
  const hook = await ops.call("POST", `/admin/projects/${projectId}/webhooks`, { url: `http://127.0.0.1:${hookPort}/results` });
  if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${hook.text}`);
  return { projectId, key };
}

export async function startCluster(opts: { nodes?: number; vars?: Record<string, string> } = {}): Promise<Cluster> {
  const count = opts.nodes ?? 3;
  sweepStaleClusters();
  const network = createNetwork(count);
  const pkiDir = tempDir("cluster-pki");
  const cgroupRoot = cgroupRootOf(network.net);
  const nodes: ClusterNode[] = [];
  let edge: Edge | null = null;
  let receiver: Receiver | null = null;
  // Synchronous last resort (process exit): kill by PID, free the namespaces, links, cgroups.
  const hardCleanup = () => {
    for (const n of nodes) n.agent?.killNow();
    for (const h of network.hosts) for (const pid of pidsIn(h)) killPid(pid);
    if (edge?.proc.pid) killGroup(edge.proc.pid);
    removeCgroupTree(cgroupRoot);
    destroyNetwork(network);
    if (edge) cleanup(edge.persistDir);
    for (const n of nodes) cleanup(n.stateDir);
    cleanup(pkiDir);
  };
  live = hardCleanup;
  try {
    const pki = makePki(pkiDir, [network.edgeAddress, ...network.hosts.map((h) => h.address)]);
    const hooks: Hook[] = [];
    receiver = await hookReceiver(hooks);
    const hookPort = receiver.port;
    const caEnv = { NODE_EXTRA_CA_CERTS: pki.caCert };
    const started = await startEdge({
      ip: network.edgeAddress,
      tls: pki.certs.get(network.edgeAddress)!,
      env: caEnv,
      vars: { ...edgeVars(hookPort), ...opts.vars },
    });
    edge = started;
    if (started.proc.pid) claimProcessGroup(network, started.proc.pid);
    const runCli = (args: string[], env: Record<string, string> = {}) =>
      cli(started, ["--json", ...args], { ...caEnv, CODECELL_URL: started.base, CODECELL_OPERATOR_TOKEN: started.operatorToken, ...env });
    const ops = admin(started);
    const { projectId, key } = await clusterProject(ops, hookPort);

    for (const [i, host] of network.hosts.entries()) {
      const name = `n${i + 1}`;
      // One enrollment token per host, as an operator would hand out (kept for the node's restarts).
      const t = await runCli(["nodes", "token", "create", "--name", name, "--ttl", "86400"]);
      if (t.code !== 0) throw new Error(`token for ${name}: ${t.stderr}`);
      nodes.push(clusterNode({ name, host, edgeUrl: started.base, enrollToken: t.json.token, pki, cgroupParent: `${cgroupRoot}/${name}` }));
    }
    const cluster: Cluster = {
      edge: started, network, pki, nodes, client: new ClusterClient(started.base, key.key), projectId, hooks,
      cli: runCli,
      async listNodes() {
        const r = await retryReads("GET", () => ops.call("GET", "/admin/nodes"));
        if (r.status !== 200) throw new Error(`GET /admin/nodes: ${r.status} ${r.text}`);
        return r.json;
      },
      waitNodes: (pred, what, ms = 60_000) => waitNodes(cluster, pred, what, ms),
      async teardown() {
        await Promise.all(nodes.map((n) => n.kill()));
        await started.stop();
        receiver?.close();
        hardCleanup();
        live = null;
      },
    };
    await Promise.all(nodes.map((n) => n.start()));
    await cluster.waitNodes((l) => l.length === count && l.every((n) => n.state === "healthy"), `${count} healthy nodes`, 120_000);
    return cluster;
  } catch (e) {
    await edge?.stop().catch(() => {});
    receiver?.close();
    hardCleanup();
    live = null;
    throw e;
  }
}
