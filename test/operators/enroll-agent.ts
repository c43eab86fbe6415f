// The enrollment command (fleet/src/enroll/main.ts) started as an operator would on a host, for
// the enrollment tests: it starts its own fleet node and enrolls it with a given token.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ROOT, cleanup, freePort, request, sleep, tempDir } from "../edge/harness.ts";
import type { Edge } from "../edge/harness.ts";

const NODE = join(ROOT, "node_modules", ".bin", "node");

export interface Agent {
  name: string;
  webPort: number;
  proc: ChildProcess;
  stateDir: string;
  log: () => string;
  exited: Promise<number | null>;
  /** Both the agent and its node, as if the host lost power. */
  kill(): void;
}

export async function startAgent(edge: Edge, name: string, token: string, opts: { slots?: number; webPort?: number } = {}): Promise<Agent> {
  const webPort = opts.webPort ?? (await freePort());
  const stateDir = tempDir(`enroll-${name}`);
  let out = "";
  const proc = spawn(NODE, ["--no-warnings", join(ROOT, "fleet", "src", "enroll", "main.ts"), "--edge", edge.base, "--name", name], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env, CODECELL_ENROLL_TOKEN: token, CODECELL_INSECURE: "1", FLEET_HOST: "127.0.0.1", FLEET_GRPC_PORT: "0",
      FLEET_GRPC_WEB_PORT: String(webPort), FLEET_STATE_DIR: stateDir, FLEET_SLOTS: String(opts.slots ?? 1), FLEET_NODE_ID: name,
      FLEET_LOG_LEVEL: "warn", FLEET_DRAIN_GRACE_SECS: "1",
    },
  });
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  const kill = () => {
    const child = /"msg":"fleet node started","pid":(\d+)/.exec(out);
    for (const pid of [proc.pid, child ? Number(child[1]) : undefined]) {
      if (!pid) continue;
      try {
        process.kill(-pid, "SIGKILL");
      } catch {}
    }
  };
  return { name, webPort, proc, stateDir, log: () => out, exited, kill };
}

export async function stopAgents(agents: Agent[]): Promise<void> {
  for (const a of agents) a.kill();
  await Promise.all(agents.map((a) => Promise.race([a.exited, sleep(5_000)])));
  for (const a of agents) cleanup(a.stateDir);
}

/** Polls GET /admin/nodes until `pred` holds. */
export async function waitNodes(edge: Edge, pred: (list: any[]) => boolean, what: string, ms = 60_000, agents: Agent[] = []): Promise<any[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const list = await request(edge.base, "GET", "/admin/nodes", { headers: { authorization: `Bearer ${edge.operatorToken}` } });
    if (list.status === 200 && pred(list.json)) return list.json;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${list.text}\n${agents.map((a) => `${a.name}: ${a.log()}`).join("\n")}`);
    await sleep(200);
  }
}
