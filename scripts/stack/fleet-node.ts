// How a fleet node is started (fleet/src/main.ts and its environment), for `npm start`, the tests
// and the benchmarks alike.
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { heapFlagFromEnv } from "../../fleet/src/service/node-memory.ts";
import { join } from "node:path";
import { NODE, ROOT, freePort, killGroup, portOpen, sleep, startOnFreePorts, stopGroup, tempDir } from "./processes.ts";

export interface FleetOptions {
  stateDir?: string;
  token?: string;
  grpcPort?: number;
  webPort?: number;
  /** Extra environment (FLEET_* settings) on top of the stack's. */
  env?: Record<string, string>;
}

export interface FleetCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  token: string;
  stateDir: string;
  grpcPort: number;
  webPort: number;
  /** What the edge calls (gRPC-Web). */
  url: string;
}

export async function fleetCommand(opts: FleetOptions = {}): Promise<FleetCommand> {
  const token = opts.token ?? randomBytes(24).toString("hex");
  const grpcPort = opts.grpcPort ?? (await freePort());
  const webPort = opts.webPort ?? (await freePort());
  const stateDir = opts.stateDir ?? tempDir("fleet");
  const env = {
    ...process.env, FLEET_TOKEN: token, FLEET_HOST: "127.0.0.1", FLEET_GRPC_PORT: String(grpcPort),
    FLEET_GRPC_WEB_PORT: String(webPort), FLEET_STATE_DIR: stateDir, ...opts.env,
  };
  // Every stack's node runs with its heap limit at its memory budget (docs/fleet-node.md, "Memory").
  return {
    command: NODE, args: [heapFlagFromEnv(env), join(ROOT, "fleet", "src", "main.ts")], env, token, stateDir, grpcPort, webPort,
    url: `http://127.0.0.1:${webPort}`,
  };
}

export interface Fleet {
  url: string;
  stateDir: string;
  token: string;
  grpcPort: number;
  webPort: number;
  proc: ChildProcess;
  log: () => string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** A node in its own process group, its output captured; resolves once its gRPC-Web port listens. */
export function startFleet(opts: FleetOptions = {}): Promise<Fleet> {
  return startOnFreePorts(() => startFleetOnce(opts), opts.grpcPort !== undefined || opts.webPort !== undefined);
}

async function startFleetOnce(opts: FleetOptions): Promise<Fleet> {
  const node = await fleetCommand({ ...opts, env: { FLEET_LOG_LEVEL: "warn", FLEET_DRAIN_GRACE_SECS: "1", ...opts.env } });
  let out = "";
  const proc = spawn(node.command, node.args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: node.env });
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 30_000;
  while (!(await portOpen(node.webPort))) {
    if (proc.exitCode !== null) throw new Error(`fleet node exited (${proc.exitCode}): ${out}`);
    if (Date.now() > deadline) throw new Error(`fleet node did not listen: ${out}`);
    await sleep(100);
  }
  return {
    url: node.url, stateDir: node.stateDir, token: node.token, grpcPort: node.grpcPort, webPort: node.webPort, proc,
    log: () => out, stop: () => stopGroup(proc), kill: () => killGroup(proc),
  };
}
