// Test harness: starts a real fleet node (fleet/src/main.ts) and the real Worker under
// scripts/edge-dev.ts (the production bundle on workerd, inspector off; HTTPS, own --persist-to
// dir, OS-chosen ports), and talks to it over HTTPS.
// Processes are stopped by PID only.
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import net from "node:net";
import { tmpdir } from "node:os";
import { after, before } from "../hooks.ts";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const EDGE_DEV = join(ROOT, "scripts", "edge-dev.ts");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `codecell-${name}-`));
}

function waitExit(proc: ChildProcess, ms: number): Promise<boolean> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    proc.once("exit", () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/** SIGTERM to the process group we created (detached), then SIGKILL if it lingers. */
async function stopProc(proc: ChildProcess, graceMs = 5_000): Promise<void> {
  if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  try {
    process.kill(-proc.pid, "SIGTERM");
  } catch {
    return;
  }
  if (!(await waitExit(proc, graceMs))) {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {}
    await waitExit(proc, 2_000);
  }
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

export async function startFleet(opts: { stateDir?: string; token?: string; webPort?: number; env?: Record<string, string> } = {}): Promise<Fleet> {
  const token = opts.token ?? randomBytes(24).toString("hex");
  const grpcPort = await freePort();
  const webPort = opts.webPort ?? (await freePort());
  const stateDir = opts.stateDir ?? tempDir("fleet");
  let out = "";
  const proc = spawn(NODE, [join(ROOT, "fleet", "src", "main.ts")], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env, FLEET_TOKEN: token, FLEET_HOST: "127.0.0.1", FLEET_GRPC_PORT: String(grpcPort),
      FLEET_GRPC_WEB_PORT: String(webPort), FLEET_STATE_DIR: stateDir, FLEET_LOG_LEVEL: "warn", FLEET_DRAIN_GRACE_SECS: "1", ...opts.env,
    },
  });
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${webPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`fleet node exited (${proc.exitCode}): ${out}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(webPort, "127.0.0.1", () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`fleet node did not listen: ${out}`);
    await sleep(100);
  }
  return {
    url, stateDir, token, grpcPort, webPort, proc, log: () => out,
    stop: () => stopProc(proc),
    kill: async () => {
      if (proc.pid !== undefined) process.kill(-proc.pid, "SIGKILL");
      await waitExit(proc, 5_000);
    },
  };
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

export const TEST_VARS: Record<string, string> = {
  ENVIRONMENT: "development",
  // Long enough for a cold C compile on a loaded 2-core machine; the 408 test sleeps longer.
  SYNC_HOLD_MS: "5000",
  WATCHDOG_MS: "1000",
  WATCHDOG_FAILURES: "2",
  HEALTH_TTL_MS: "500",
  QUEUE_CAPACITY: "50",
};

interface EdgeOptions {
  persistDir?: string; port?: number; vars?: Record<string, string>; protocol?: "https" | "http"; operatorToken?: string;
  /** Listen address (default 127.0.0.1), the HTTPS certificate to serve, extra environment (e.g. NODE_EXTRA_CA_CERTS). */
  ip?: string; tls?: { cert: string; key: string }; env?: Record<string, string>;
}

/**
 * A free port is only free until someone else takes it (another test process, wrangler's own
 * helper ports): an edge that could not bind is started again on new ports, twice at most.
 */
export async function startEdge(opts: EdgeOptions = {}): Promise<Edge> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEdgeOnce(opts);
    } catch (e) {
      if (opts.port !== undefined || attempt >= 3 || !/Address already in use|EADDRINUSE/.test(String(e))) throw e;
    }
  }
}

async function startEdgeOnce(opts: EdgeOptions): Promise<Edge> {
  const port = opts.port ?? (await freePort());
  const persistDir = opts.persistDir ?? tempDir("edge");
  const operatorToken = opts.operatorToken ?? randomBytes(24).toString("hex");
  const protocol = opts.protocol ?? "https";
  const vars = { ...TEST_VARS, ...opts.vars, OPERATOR_TOKEN: operatorToken };
  const args = [
    EDGE_DEV, "--config", join(ROOT, "wrangler.toml"), "--local-protocol", protocol, "--ip", opts.ip ?? "127.0.0.1", "--port", String(port),
    ...(opts.tls ? ["--https-cert-path", opts.tls.cert, "--https-key-path", opts.tls.key] : []),
    "--persist-to", persistDir, "--log-level", process.env.EDGE_LOG_LEVEL ?? "warn",
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ];
  let out = "";
  const proc = spawn(NODE, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", NO_COLOR: "1", ...opts.env },
  });
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const base = `${protocol}://${opts.ip ?? "127.0.0.1"}:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the edge (scripts/edge-dev.ts) exited (${proc.exitCode}): ${out}`);
    try {
      const r = await request(base, "GET", "/");
      if (r.status > 0) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`edge did not come up: ${out}`);
    await sleep(200);
  }
  return { base, port, persistDir, operatorToken, proc, log: () => out, stop: () => stopProc(proc) };
}

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

// Idle sockets are closed by us (3 s) before a server's usual 5 s keep-alive timeout closes them under us.
const agent = new https.Agent({ keepAlive: true, timeout: 3_000, rejectUnauthorized: false, maxSockets: 64 });

/**
 * One HTTP(S) request; body may be raw bytes (for invalid UTF-8) or a value to JSON-encode.
 * A keep-alive socket that the server closed while idle can be picked for the next request just
 * as the close arrives; the request then never reached the server, so it is sent again on a new
 * socket (Node's documented `reusedSocket` pattern). Any other error is the test's to see.
 */
export function request(
  base: string, method: string, path: string,
  opts: { headers?: Record<string, string>; body?: unknown; raw?: Buffer | string } = {},
): Promise<Res> {
  return requestOnce(base, method, path, opts).catch((e: unknown) => {
    if (e instanceof StaleSocket) return requestOnce(base, method, path, opts);
    throw e;
  });
}

class StaleSocket extends Error {}

function requestOnce(
  base: string, method: string, path: string,
  opts: { headers?: Record<string, string>; body?: unknown; raw?: Buffer | string },
): Promise<Res> {
  const u = new URL(path, base);
  const headers: Record<string, string> = { ...opts.headers };
  let payload: Buffer | undefined;
  if (opts.raw !== undefined) payload = Buffer.isBuffer(opts.raw) ? opts.raw : Buffer.from(opts.raw);
  else if (opts.body !== undefined) {
    payload = Buffer.from(JSON.stringify(opts.body));
    headers["content-type"] ??= "application/json";
  }
  const lib = u.protocol === "https:" ? https : (await_http());
  return new Promise((resolve, reject) => {
    const req = lib.request(u, { method, headers, agent: u.protocol === "https:" ? agent : undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown = undefined;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on("error", reject);
    });
    req.on("error", (e: NodeJS.ErrnoException) => {
      reject(req.reusedSocket && e.code === "ECONNRESET" ? new StaleSocket(e.message) : e);
    });
    req.setTimeout(60_000, () => req.destroy(new Error("request timeout")));
    if (payload) req.end(payload);
    else req.end();
  });
}

import http from "node:http";
function await_http() {
  return http;
}

/** A client bound to one edge and (optionally) one API key. */
export class Client {
  base: string;
  key: string | null;
  constructor(base: string, key: string | null) {
    this.base = base;
    this.key = key;
  }
  call(method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown; raw?: Buffer | string } = {}): Promise<Res> {
    const headers = { ...(this.key ? { "x-api-key": this.key } : {}), ...opts.headers };
    return request(this.base, method, path, { ...opts, headers });
  }
  submit(body: unknown, opts: { wait?: boolean; headers?: Record<string, string> } = {}): Promise<Res> {
    return this.call("POST", `/api/submit${opts.wait ? "?wait=true" : ""}`, { body, headers: opts.headers });
  }
  result(id: string): Promise<Res> {
    return this.call("GET", `/api/result/${id}`);
  }
  async until(id: string, pred: (r: Res) => boolean, timeoutMs = 30_000): Promise<Res> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.result(id);
      if (pred(r)) return r;
      if (Date.now() > deadline) throw new Error(`timed out waiting on ${id}: ${r.status} ${r.text.slice(0, 300)}`);
      await sleep(150);
    }
  }
  terminal(id: string, timeoutMs = 30_000): Promise<Res> {
    return this.until(id, (r) => r.status === 200 && (r.json.job_status === "completed" || r.json.job_status === "error"), timeoutMs);
  }
}

export function admin(edge: Edge) {
  const h = { authorization: `Bearer ${edge.operatorToken}` };
  return {
    call: (method: string, path: string, body?: unknown) => request(edge.base, method, path, { headers: h, body }),
    async newKey(projectId?: string): Promise<{ key: string; key_id: string; project_id: string }> {
      let pid = projectId;
      if (!pid) {
        const p = await request(edge.base, "POST", "/admin/projects", { headers: h, body: { name: "test" } });
        if (p.status !== 201) throw new Error(`create project: ${p.status} ${p.text}`);
        pid = p.json.id as string;
      }
      const k = await request(edge.base, "POST", `/admin/projects/${pid}/keys`, { headers: h, body: { name: "k" } });
      if (k.status !== 201) throw new Error(`create key: ${k.status} ${k.text}`);
      return k.json;
    },
    async registerNode(fleet: Fleet): Promise<Res> {
      return request(edge.base, "POST", "/admin/nodes", { headers: h, body: { url: fleet.url, token: fleet.token, name: "test-node" } });
    },
  };
}

/**
 * Removes a temp dir of ours. A fleet node killed with SIGKILL can leave namespace bind mounts in
 * its state dir; those (and only mounts below `dir`) are lazily unmounted first.
 */
export function cleanup(dir: string): void {
  if (!dir.startsWith(tmpdir())) return;
  try {
    const mounts = readFileSync("/proc/mounts", "utf8").split("\n").map((l) => l.split(" ")[1] ?? "").filter((m) => m.startsWith(dir + "/"));
    for (const m of mounts.reverse()) spawnSync("umount", ["-l", m]);
  } catch {}
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {}
}

export function writeFile(path: string, text: string): void {
  writeFileSync(path, text);
}

export interface Stack {
  fleet: Fleet;
  edge: Edge;
  ops: ReturnType<typeof admin>;
}

/**
 * A fleet node and an edge for one test file: started before its tests, the node registered with
 * the edge; stopped and cleaned up after. A test may replace `fleet` or `edge` (a restart): the
 * ones in place at the end are stopped.
 */
export function useStack(opts: { fleet?: Parameters<typeof startFleet>[0]; edge?: EdgeOptions } = {}): Stack {
  const stack = {} as Stack;
  before(async () => {
    stack.fleet = await startFleet(opts.fleet);
    stack.edge = await startEdge(opts.edge);
    stack.ops = admin(stack.edge);
    const reg = await stack.ops.registerNode(stack.fleet);
    if (reg.status !== 201) throw new Error(`registering the node: ${reg.status} ${reg.text}`);
  });
  after(async () => {
    await stack.edge?.stop();
    await stack.fleet?.stop();
    if (stack.edge) cleanup(stack.edge.persistDir);
    if (stack.fleet) cleanup(stack.fleet.stateDir);
  });
  return stack;
}
