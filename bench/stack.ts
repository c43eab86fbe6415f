// A fleet node and an edge for a bench, started from the repository's own entry points
// (fleet/src/main.ts, scripts/edge-dev.ts) on free ports with temp state, stopped by PID.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import https from "node:https";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");

export interface BenchStack {
  base: string;
  operatorToken: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any; text: string }>;
  stop(): Promise<void>;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function start(args: string[], env: Record<string, string>): ChildProcess {
  const proc = spawn(NODE, args, { cwd: ROOT, detached: true, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
  return proc;
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.pid === undefined || proc.exitCode !== null) return;
  process.kill(-proc.pid, "SIGTERM");
  await new Promise((r) => proc.once("exit", r));
}

const agent = new https.Agent({ keepAlive: false, rejectUnauthorized: false, maxSockets: 64 });

function request(base: string, method: string, path: string, body: unknown, headers: Record<string, string>) {
  return new Promise<{ status: number; json: any; text: string }>((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request(`${base}${path}`, { method, agent, headers: { ...(data ? { "content-type": "application/json" } : {}), ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, json, text });
      });
    });
    req.on("error", reject);
    req.end(data);
  });
}

/** Node and edge up, the node registered. `vars` are the edge's; `fleetEnv` the node's. */
export async function startStack(vars: Record<string, string>, fleetEnv: Record<string, string> = {}): Promise<BenchStack> {
  const dir = mkdtempSync(join(tmpdir(), "bench-stack-"));
  const [grpc, web, port] = [await freePort(), await freePort(), await freePort()];
  const fleetToken = randomBytes(24).toString("hex");
  const operatorToken = randomBytes(24).toString("hex");
  const fleet = start([join(ROOT, "fleet", "src", "main.ts")], {
    FLEET_TOKEN: fleetToken, FLEET_HOST: "127.0.0.1", FLEET_GRPC_PORT: String(grpc), FLEET_GRPC_WEB_PORT: String(web),
    FLEET_STATE_DIR: join(dir, "fleet"), FLEET_LOG_LEVEL: "warn", ...fleetEnv,
  });
  const edgeVars = { ENVIRONMENT: "development", ...vars, OPERATOR_TOKEN: operatorToken };
  const edge = start([
    join(ROOT, "scripts", "edge-dev.ts"), "--config", join(ROOT, "wrangler.toml"), "--local-protocol", "https", "--ip", "127.0.0.1",
    "--port", String(port), "--persist-to", join(dir, "edge"), "--log-level", "warn", ...Object.entries(edgeVars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ], { WRANGLER_SEND_METRICS: "false", CI: "1", NO_COLOR: "1" });
  const base = `https://127.0.0.1:${port}`;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${operatorToken}` }) =>
    request(base, method, path, body, headers);
  for (let i = 0; ; i++) {
    const up = await call("GET", "/").catch(() => null);
    if (up) break;
    if (i > 600) throw new Error("the edge did not come up");
    await sleep(200);
  }
  for (let i = 0; ; i++) {
    const reg = await call("POST", "/admin/nodes", { url: `http://127.0.0.1:${web}`, token: fleetToken, name: "bench" });
    if (reg.status === 201) break;
    if (i > 150) throw new Error(`registering the node: ${reg.status} ${reg.text}`);
    await sleep(200);
  }
  return {
    base, operatorToken, call,
    async stop() {
      await Promise.all([stop(edge), stop(fleet)]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
