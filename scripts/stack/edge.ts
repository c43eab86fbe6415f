// How the edge is started: scripts/edge-dev.ts (the production bundle on workerd, HTTPS served by
// workerd, its own --persist-to dir), for `npm start`, the tests and the benchmarks alike.
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { request } from "./http.ts";
import { NODE, ROOT, freePort, sleep, startOnFreePorts, stopGroup, tempDir } from "./processes.ts";

export interface EdgeOptions {
  persistDir?: string;
  port?: number;
  protocol?: "https" | "http";
  /** Worker variables passed on the command line (tests); secrets belong in `envFile`. */
  vars?: Record<string, string>;
  /** A dotenv file of Worker variables and secrets (`npm start` keeps OPERATOR_TOKEN there). */
  envFile?: string;
  /** Listen address (default 127.0.0.1), the HTTPS certificate to serve, extra environment (e.g. NODE_EXTRA_CA_CERTS). */
  ip?: string;
  tls?: { cert: string; key: string };
  env?: Record<string, string>;
  logLevel?: string;
}

export interface EdgeCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  base: string;
  port: number;
  persistDir: string;
}

export async function edgeCommand(opts: EdgeOptions = {}): Promise<EdgeCommand> {
  const port = opts.port ?? (await freePort());
  const persistDir = opts.persistDir ?? tempDir("edge");
  const protocol = opts.protocol ?? "https";
  const ip = opts.ip ?? "127.0.0.1";
  const args = [
    join(ROOT, "scripts", "edge-dev.ts"), "--config", join(ROOT, "wrangler.toml"), "--local-protocol", protocol, "--ip", ip, "--port", String(port),
    ...(opts.tls ? ["--https-cert-path", opts.tls.cert, "--https-key-path", opts.tls.key] : []),
    "--persist-to", persistDir, ...(opts.logLevel ? ["--log-level", opts.logLevel] : []),
    ...(opts.envFile ? ["--env-file", opts.envFile] : []),
    ...Object.entries(opts.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", ...opts.env };
  return { command: NODE, args, env, base: `${protocol}://${ip}:${port}`, port, persistDir };
}

export interface Edge {
  base: string;
  port: number;
  persistDir: string;
  operatorToken: string;
  proc: ChildProcess;
  log: () => string;
  stop(): Promise<void>;
}

/** An edge in its own process group, its output captured; resolves once it answers. */
export function startEdge(opts: EdgeOptions & { operatorToken?: string } = {}): Promise<Edge> {
  return startOnFreePorts(() => startEdgeOnce(opts), opts.port !== undefined);
}

async function startEdgeOnce(opts: EdgeOptions & { operatorToken?: string }): Promise<Edge> {
  const operatorToken = opts.operatorToken ?? randomBytes(24).toString("hex");
  const edge = await edgeCommand({
    ...opts, logLevel: opts.logLevel ?? process.env.EDGE_LOG_LEVEL ?? "warn", vars: { ...opts.vars, OPERATOR_TOKEN: operatorToken },
    env: { CI: "1", NO_COLOR: "1", ...opts.env },
  });
  let out = "";
  const proc = spawn(edge.command, edge.args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: edge.env });
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the edge (scripts/edge-dev.ts) exited (${proc.exitCode}): ${out}`);
    if ((await request(edge.base, "GET", "/").catch(() => ({ status: 0 }))).status > 0) break;
    if (Date.now() > deadline) throw new Error(`edge did not come up: ${out}`);
    await sleep(200);
  }
  return { base: edge.base, port: edge.port, persistDir: edge.persistDir, operatorToken, proc, log: () => out, stop: () => stopGroup(proc) };
}
