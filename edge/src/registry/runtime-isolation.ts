// What a client can count on for a runtime, whichever node runs it: the isolation controls every
// ready node offering it enforces (the intersection), and every seccomp policy version, cgroup
// version and CPU mode among those nodes (GET /api/runtimes, docs/api.md). Pure.
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { Runtime } from "../../../proto/runtimes.ts";
import type { RuntimeIsolation, RuntimeView } from "../contracts/fleet.ts";

type NodeIsolation = Pick<NodeInfoResponse, "languages" | "isolationControls" | "seccompPolicy" | "cgroupVersion" | "cpuMode">;

/** Each runtime with the isolation of the ready nodes (`nodes`) that offer it. */
export function withIsolation(runtimes: readonly Runtime[], nodes: readonly NodeIsolation[]): RuntimeView[] {
  const offers = (r: Runtime) => (n: NodeIsolation) => n.languages.some((l) => l.name === r.language && l.version === r.version);
  return runtimes.map((r) => ({ ...r, isolation: isolationOf(nodes.filter(offers(r))) }));
}

export function isolationOf(nodes: readonly NodeIsolation[]): RuntimeIsolation {
  // A node too old to say counts as "unknown", so a client sees it is there.
  const distinct = (values: string[]) => [...new Set(values.map((v) => v || "unknown"))].sort();
  const [first, ...rest] = nodes;
  const controls = (first?.isolationControls ?? []).filter((c) => rest.every((n) => n.isolationControls.includes(c)));
  return {
    controls: distinct(controls),
    seccomp_policies: distinct(nodes.map((n) => n.seccompPolicy)),
    cgroup_versions: distinct(nodes.map((n) => n.cgroupVersion)),
    cpu_modes: distinct(nodes.map((n) => n.cpuMode)),
  };
}
