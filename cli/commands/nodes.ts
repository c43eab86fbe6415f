// codecell nodes …: add (register by URL), list, approve, drain, revoke, remove, and enrollment tokens for
// nodes that join by themselves (`npm run enroll` on the node's host, docs/operators.md).
import type { Command } from "commander";
import { CliError, client } from "../admin-client.ts";
import type { Schemas } from "../admin-client.ts";
import { print, table } from "../output.ts";

function rows(list: Schemas["Node"][]): Record<string, unknown>[] {
  return list.map((n) => ({
    ...n, used: `${n.in_flight}/${n.slots}`, cap: n.max_slots === null ? "-" : `${n.max_slots} (reports ${n.reported_slots})`,
    languages: n.languages.map((l) => l.name).join(","),
    heartbeat: n.last_heartbeat_at ?? (n.kind === "enrolled" ? "never" : "-"),
  }));
}

function wholeNumber(flag: string, min: number): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new CliError(`${flag} must be a whole number, at least ${min}`);
    return n;
  };
}

export function registerNodes(program: Command): void {
  const nodes = program.command("nodes").description("fleet nodes: add, list, approve, drain, revoke, remove; enrollment tokens");
  addAndList(nodes);
  stateChanges(nodes);
  enrollmentTokens(nodes.command("token").description("enrollment tokens: what a new node presents to join the fleet"));
}

function addAndList(nodes: Command): void {
  nodes
    .command("add")
    .description("register a running fleet node by its gRPC-Web URL (the edge checks it with NodeInfo)")
    .argument("<url>", "the node's gRPC-Web URL (https; http only on loopback)")
    .option("-n, --name <name>", "display name (default: the node's id)")
    .option("--pool <pool>", "scheduling pool the node joins (default: \"default\")")
    .option("--fleet-token-env <var>", "environment variable holding the node's fleet credential", "FLEET_TOKEN")
    .action(async (url: string, opts: { name?: string; pool?: string; fleetTokenEnv: string }, cmd: Command) => {
      // The credential comes from the environment, never from the command line (visible in `ps`).
      const token = process.env[opts.fleetTokenEnv];
      if (!token) throw new CliError(`set ${opts.fleetTokenEnv} to the node's fleet credential (FLEET_TOKEN of the node)`);
      const n = await client(cmd).call("post", "/admin/nodes", {
        body: { url, token, ...(opts.name ? { name: opts.name } : {}), ...(opts.pool ? { pool: opts.pool } : {}) },
      });
      print(cmd, n, () =>
        `registered node ${n.id} (${n.name}) in pool ${n.pool} at ${n.url}: ${n.state}, ${n.slots} slots, ${n.languages.map((l) => l.name).join(", ")}`);
    });

  nodes
    .command("list")
    .description("list nodes with health, slots in use and languages")
    .action(async (_opts: unknown, cmd: Command) => {
      const list = await client(cmd).call("get", "/admin/nodes");
      print(cmd, list, () => table(rows(list), ["id", "name", "kind", "state", "pool", "used", "cap", "languages", "heartbeat", "url"]));
    });
}

function stateChanges(nodes: Command): void {
  nodes
    .command("drain")
    .description("take a node out of rotation at once; its running and queued runs finish")
    .argument("<node>", "node id or name")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const r = await client(cmd).call("post", "/admin/nodes/{id}/drain", { params: { id } });
      print(cmd, r, () =>
        `draining ${r.node.id} (${r.node.name}): no new work; ` +
        (r.rpc_error ? `the node did not answer the Drain call (${r.rpc_error})` : `${r.in_flight_at_drain ?? 0} run(s) in flight finish first`) +
        `\nstate: ${r.node.state}. Watch with: codecell nodes list`);
    });

  nodes
    .command("approve")
    .description("let a pending node (enrolled with a --require-approval token) take work")
    .argument("<node>", "node id or name")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const n = await client(cmd).call("post", "/admin/nodes/{id}/approve", { params: { id } });
      print(cmd, n, () => `approved node ${n.id} (${n.name}): ${n.state}`);
    });

  nodes
    .command("revoke")
    .description("revoke a node's credential at once: it leaves rotation, its runs go to other nodes; it must enroll again with a new token")
    .argument("<node>", "node id or name")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const n = await client(cmd).call("post", "/admin/nodes/{id}/revoke", { params: { id } });
      print(cmd, n, () => `revoked node ${n.id} (${n.name}): no work, heartbeats refused; its runs in flight go to other nodes`);
    });

  nodes
    .command("remove")
    .description("forget a node (drain it first so its runs can finish)")
    .argument("<node>", "node id or name")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const r = await client(cmd).call("delete", "/admin/nodes/{id}", { params: { id } });
      print(cmd, r, () => `removed node ${r.id}`);
    });
}

function enrollmentTokens(tokens: Command): void {
  tokens
    .command("create")
    .description("create an enrollment token (printed once)")
    .option("-n, --name <name>", "a label")
    .option("--ttl <seconds>", "expire after this many seconds (default: 3600; 0: never)", wholeNumber("--ttl", 0))
    .option("--uses <n>", "node addresses it may enroll (default: 1; a node back at its address is not a new use)", wholeNumber("--uses", 1))
    .option("--max-slots <n>", "run slots a node enrolled with it gets at most (default: 16)", wholeNumber("--max-slots", 1))
    .option("--require-approval", "nodes enrolled with it wait for `codecell nodes approve <id>` before they get work")
    .option("--print-token", "print only the token (for scripts: export CODECELL_ENROLL_TOKEN=$(…))")
    .action(async (opts: { name?: string; ttl?: number; uses?: number; maxSlots?: number; requireApproval?: boolean; printToken?: boolean }, cmd: Command) => {
      const t = await client(cmd).call("post", "/admin/enrollment-tokens", {
        body: {
          ...(opts.name ? { name: opts.name } : {}), ...(opts.ttl !== undefined ? { ttl_secs: opts.ttl } : {}),
          ...(opts.uses !== undefined ? { max_uses: opts.uses } : {}), ...(opts.maxSlots !== undefined ? { max_slots: opts.maxSlots } : {}),
          ...(opts.requireApproval ? { require_approval: true } : {}),
        },
      });
      if (opts.printToken) {
        console.log(t.token);
        return;
      }
      print(cmd, t, () =>
        [`created enrollment token ${t.id}${t.expires_at ? ` (expires ${t.expires_at})` : ""}:`, "", `  ${t.token}`, "",
          "Shown once. On the new node's host: npm run enroll -- --edge <edge URL> (with CODECELL_ENROLL_TOKEN set to it)"].join("\n"));
    });
  tokens
    .command("list")
    .description("list enrollment tokens (never their values)")
    .action(async (_opts: unknown, cmd: Command) => {
      const list = await client(cmd).call("get", "/admin/enrollment-tokens");
      print(cmd, list, () => table(list, ["id", "name", "uses", "max_uses", "max_slots", "require_approval", "created_at", "expires_at", "last_used_at"]));
    });
  tokens
    .command("revoke")
    .description("revoke an enrollment token (nodes already enrolled stay)")
    .argument("<token_id>")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const r = await client(cmd).call("delete", "/admin/enrollment-tokens/{id}", { params: { id } });
      print(cmd, r, () => `revoked enrollment token ${r.id}`);
    });
}
