// The cluster's "hosts": one bridge in the host namespace (the edge's side, address .1) and one
// network namespace per node, joined to the bridge by a veth pair (node i gets .10+i). Addresses
// are private (10.213.<net>.0/24) and exist only on the bridge and in namespaces made here; the
// <net> octet is claimed by creating its bridge, so two clusters on one machine never share one.
// Everything made is written to a claim file first, so a run killed outright is swept by the next.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const CLAIMS = "/run/codecell-cluster";
const PREFIX = "ccl";

export interface NodeHost {
  /** Namespace name, for `ip netns exec`. */
  netns: string;
  /** Interface inside the namespace (the one a link cut takes down). */
  ifname: string;
  /** Host side of the veth pair (on the bridge). */
  hostIf: string;
  address: string;
}

export interface ClusterNetwork {
  net: number;
  bridge: string;
  /** The bridge's address: where the edge listens and what nodes call. */
  edgeAddress: string;
  hosts: NodeHost[];
}

function ip(args: string[], netns?: string): { ok: boolean; err: string } {
  const argv = netns ? ["-n", netns, ...args] : args;
  const r = spawnSync("ip", argv, { encoding: "utf8" });
  return { ok: r.status === 0, err: (r.stderr ?? "").trim() };
}

function must(args: string[], netns?: string): void {
  const r = ip(args, netns);
  if (!r.ok) throw new Error(`ip ${netns ? `-n ${netns} ` : ""}${args.join(" ")}: ${r.err}`);
}

function names(net: number, count: number): { bridge: string; hosts: NodeHost[] } {
  const hosts = Array.from({ length: count }, (_, i) => ({
    netns: `${PREFIX}${net}-n${i + 1}`,
    ifname: `${PREFIX}${net}n${i + 1}p`,
    hostIf: `${PREFIX}${net}n${i + 1}h`,
    address: `10.213.${net}.${11 + i}`,
  }));
  return { bridge: `${PREFIX}${net}br`, hosts };
}

function addressInUse(net: number): boolean {
  const r = spawnSync("ip", ["-o", "addr"], { encoding: "utf8" });
  return (r.stdout ?? "").includes(` 10.213.${net}.`);
}

interface Claim {
  pid: number;
  net: number;
  count: number;
  /** Process groups started outside the namespaces (the edge), with their start time against PID reuse. */
  groups?: { pid: number; start: string }[];
}

function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** Records a process group of the cluster's that lives outside its namespaces, for the sweep. */
export function claimProcessGroup(n: ClusterNetwork, pid: number): void {
  const file = join(CLAIMS, `${n.net}.json`);
  const claim = JSON.parse(readFileSync(file, "utf8")) as Claim;
  claim.groups = [...(claim.groups ?? []), { pid, start: startTime(pid) ?? "" }];
  writeFileSync(file, JSON.stringify(claim));
}

/** Deletes what a claim file names (processes left in its namespaces, links, namespaces) and the file. */
function release(net: number, count: number): void {
  const { bridge, hosts } = names(net, count);
  try {
    const claim = JSON.parse(readFileSync(join(CLAIMS, `${net}.json`), "utf8")) as Claim;
    for (const g of claim.groups ?? []) if (startTime(g.pid) === g.start) try { process.kill(-g.pid, "SIGKILL"); } catch {}
  } catch {}
  for (const h of hosts) {
    if (existsSync(`/run/netns/${h.netns}`)) for (const pid of pidsIn(h)) try { process.kill(pid, "SIGKILL"); } catch {}
    ip(["link", "del", h.hostIf]);
    if (existsSync(`/run/netns/${h.netns}`)) spawnSync("ip", ["netns", "del", h.netns]);
  }
  ip(["link", "del", bridge]);
  rmSync(join(CLAIMS, `${net}.json`), { force: true });
}

/** Removes networks left by cluster runs whose process no longer exists; returns their <net> octets. */
export function sweepStaleNetworks(): number[] {
  let files: string[] = [];
  try {
    files = readdirSync(CLAIMS);
  } catch {
    return [];
  }
  const swept: number[] = [];
  for (const f of files) {
    try {
      const claim = JSON.parse(readFileSync(join(CLAIMS, f), "utf8")) as Claim;
      if (existsSync(`/proc/${claim.pid}`)) continue;
      release(claim.net, claim.count);
      swept.push(claim.net);
    } catch {}
  }
  return swept;
}

export function createNetwork(count: number): ClusterNetwork {
  mkdirSync(CLAIMS, { recursive: true });
  for (let attempt = 0; attempt < 40; attempt++) {
    const net = 16 + ((process.pid + attempt * 7) % 224);
    const { bridge, hosts } = names(net, count);
    if (addressInUse(net) || existsSync(join(CLAIMS, `${net}.json`))) continue;
    // Creating the bridge is the claim: it fails if another run holds this octet.
    if (!ip(["link", "add", bridge, "type", "bridge"]).ok) continue;
    writeFileSync(join(CLAIMS, `${net}.json`), JSON.stringify({ pid: process.pid, net, count } satisfies Claim));
    try {
      must(["addr", "add", `10.213.${net}.1/24`, "dev", bridge]);
      must(["link", "set", bridge, "up"]);
      for (const h of hosts) {
        must(["netns", "add", h.netns]);
        must(["link", "add", h.hostIf, "type", "veth", "peer", "name", h.ifname, "netns", h.netns]);
        must(["link", "set", h.hostIf, "master", bridge]);
        must(["link", "set", h.hostIf, "up"]);
        must(["addr", "add", `${h.address}/24`, "dev", h.ifname], h.netns);
        must(["link", "set", h.ifname, "up"], h.netns);
        must(["link", "set", "lo", "up"], h.netns);
      }
    } catch (e) {
      release(net, count);
      throw e;
    }
    return { net, bridge, edgeAddress: `10.213.${net}.1`, hosts };
  }
  throw new Error("no free 10.213.x.0/24 for the cluster network");
}

export function destroyNetwork(n: ClusterNetwork): void {
  release(n.net, n.hosts.length);
}

/** Cuts the host off: its interface goes down inside its namespace (as a pulled cable would). */
export function linkDown(h: NodeHost): void {
  must(["link", "set", h.ifname, "down"], h.netns);
}

export function linkUp(h: NodeHost): void {
  must(["link", "set", h.ifname, "up"], h.netns);
}

/** PIDs of every process in the host's network namespace. */
export function pidsIn(h: NodeHost): number[] {
  const r = spawnSync("ip", ["netns", "pids", h.netns], { encoding: "utf8" });
  return (r.stdout ?? "").split(/\s+/).filter(Boolean).map(Number);
}
