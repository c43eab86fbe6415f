// codecell-node enroll: joins this host's fleet node to an edge and keeps it there.
//
//   CODECELL_ENROLL_TOKEN=cce_… npm run enroll -- --edge https://edge.example.com [-- <fleet node flags>]
//
// 1. Starts the fleet node (fleet/src/main.ts, same FLEET_* settings; a fleet credential is
//    generated when none is set) — or, with --attach, uses one already running.
// 2. Enrolls: POST <edge>/fleet/enroll with the enrollment token, reporting the node's address,
//    credential and pool. The edge checks the node with NodeInfo before accepting it.
// 3. Heartbeats every interval (the edge's NODE_HEARTBEAT_MS unless --heartbeat-ms) with the node's
//    current NodeInfo. A node the edge no longer knows enrolls again.
// 4. SIGTERM/SIGINT (systemd stop): tells the edge it is draining (no new work), drains the node
//    (running and queued runs finish), then leaves the registry and exits 0. A second signal stops
//    at once.
// Settings: flag, else environment variable (docs/operators.md). Tokens never go on a command
// line of ours or into the log.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { Agent } from "undici";
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import {
  EnrollRequest, EnrollResponse, HeartbeatRequest, HeartbeatResponse, LeaveRequest, LeaveResponse,
} from "../../../proto/gen/codecell/fleet/v1/enrollment.ts";
import { fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import { withoutTrailing } from "../../../proto/trim.ts";
import { ConfigError, parseConfig } from "../service/config.ts";
import { heapFlag } from "../service/node-memory.ts";
import { edgeClient } from "./edge-client.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");

interface Options {
  edge?: string;
  tokenFile?: string;
  advertiseUrl?: string;
  name?: string;
  pool?: string;
  attach?: string;
  heartbeatMs?: string;
  insecure?: boolean;
}

function log(level: string, msg: string, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ level, time: new Date().toISOString(), service: "codecell-enroll", msg, ...extra }));
}

function fail(message: string, code = 2): never {
  console.error(`codecell-enroll: ${message}`);
  process.exit(code);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const program = new Command("codecell-enroll")
  .description("start this host's fleet node, enroll it with the edge and keep it alive with heartbeats")
  .option("--edge <url>", "edge base URL [CODECELL_EDGE_URL]")
  .option("--token-file <path>", "file holding the enrollment token [CODECELL_ENROLL_TOKEN_FILE; or set CODECELL_ENROLL_TOKEN]")
  .option("--advertise-url <url>", "URL the edge uses to reach this node's gRPC-Web port [CODECELL_NODE_URL; default from FLEET_HOST and FLEET_GRPC_WEB_PORT]")
  .option("--name <name>", "node name shown to operators [CODECELL_NODE_NAME; default: FLEET_NODE_ID or the host name]")
  .option("--pool <name>", "scheduling pool to join [CODECELL_POOL; default: \"default\"]")
  .option("--attach <url>", "do not start a node: use the one already running at this gRPC-Web URL (needs FLEET_TOKEN)")
  .option("--heartbeat-ms <ms>", "heartbeat interval [CODECELL_HEARTBEAT_MS; default: what the edge asks for]")
  .option("--insecure", "accept a self-signed edge certificate (development only) [CODECELL_INSECURE=1]")
  .argument("[fleet-args...]", "flags for the fleet node (after --), e.g. -- --slots 4")
  .exitOverride()
  .showHelpAfterError();

let opts: Options;
let fleetArgs: string[];
try {
  program.parse(process.argv);
  opts = program.opts<Options>();
  fleetArgs = program.args;
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode);
  throw e;
}

const env = process.env;
const edge = withoutTrailing(opts.edge ?? env.CODECELL_EDGE_URL ?? "", "/");
if (!edge) fail("the edge URL is required: --edge <url> or CODECELL_EDGE_URL");
if (!/^https:\/\//.test(edge)) fail("the edge URL must be https://");
const tokenFile = opts.tokenFile ?? env.CODECELL_ENROLL_TOKEN_FILE;
let enrollToken = "";
try {
  enrollToken = (tokenFile ? readFileSync(tokenFile, "utf8") : (env.CODECELL_ENROLL_TOKEN ?? "")).trim();
} catch (e) {
  fail(`cannot read the enrollment token file: ${(e as Error).message}`);
}
if (!enrollToken) fail("the enrollment token is required: CODECELL_ENROLL_TOKEN or --token-file (create one with: codecell nodes token create)");
const insecure = opts.insecure || env.CODECELL_INSECURE === "1";
const dispatcher = insecure ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined;
const heartbeatOverride = Number(opts.heartbeatMs ?? env.CODECELL_HEARTBEAT_MS ?? 0) || 0;

// ---- the node ----
let child: ChildProcess | null = null;
let nodeUrl: string;
let fleetToken: string;
let nodeId: string;
if (opts.attach) {
  nodeUrl = withoutTrailing(opts.attach, "/");
  fleetToken = (env.FLEET_TOKEN ?? (env.FLEET_TOKEN_FILE ? readFileSync(env.FLEET_TOKEN_FILE, "utf8") : "")).trim();
  if (!fleetToken) fail("--attach needs the node's credential in FLEET_TOKEN or FLEET_TOKEN_FILE");
  nodeId = opts.name ?? env.CODECELL_NODE_NAME ?? env.FLEET_NODE_ID ?? hostname().toLowerCase();
} else {
  const childEnv: NodeJS.ProcessEnv = { ...env };
  // Drop our own secrets from the node's environment.
  delete childEnv.CODECELL_ENROLL_TOKEN;
  if (!childEnv.FLEET_TOKEN && !childEnv.FLEET_TOKEN_FILE) childEnv.FLEET_TOKEN = randomBytes(32).toString("base64url");
  // The sandbox needs an absolute state directory; a relative one is taken from where we were started.
  if (childEnv.FLEET_STATE_DIR && !isAbsolute(childEnv.FLEET_STATE_DIR)) childEnv.FLEET_STATE_DIR = resolve(childEnv.FLEET_STATE_DIR);
  let cfg;
  try {
    cfg = parseConfig(fleetArgs, childEnv);
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    if (e instanceof CommanderError) process.exit(e.exitCode);
    throw e;
  }
  if (cfg.grpcWebPort === 0) fail("set FLEET_GRPC_WEB_PORT (or --grpc-web-port) to a fixed port: the edge must know where to reach the node");
  fleetToken = cfg.token;
  nodeId = opts.name ?? env.CODECELL_NODE_NAME ?? cfg.nodeId;
  const scheme = cfg.tls ? "https" : "http";
  const host = cfg.host.includes(":") ? `[${cfg.host}]` : cfg.host;
  nodeUrl = `${scheme}://${host === "0.0.0.0" || host === "[::]" ? hostname() : host}:${cfg.grpcWebPort}`;
  // Own process group: a terminal's Ctrl-C reaches only us, and we drain the node exactly once.
  // Its heap limit: ours if we were given one (the systemd unit's ExecStart), else its settings' memory budget.
  const heap = heapFlag(cfg.inflightBytes / 2 ** 20, cfg.maxRetainedResultBytes / 2 ** 20, process.execArgv);
  child = spawn(process.execPath, [heap, "--no-warnings", join(ROOT, "fleet", "src", "main.ts"), ...fleetArgs], {
    cwd: ROOT, env: childEnv, stdio: ["ignore", "inherit", "inherit"], detached: true,
  });
  log("info", "fleet node started", { pid: child.pid, node_url: nodeUrl });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      log("error", "fleet node exited unexpectedly", { code, signal });
      process.exit(1);
    }
  });
  process.on("exit", () => {
    if (child && child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(child.pid, "SIGKILL");
      } catch {}
    }
  });
}
const advertise = withoutTrailing(opts.advertiseUrl ?? env.CODECELL_NODE_URL ?? nodeUrl, "/");
const target = { url: nodeUrl, token: fleetToken };

const pool = opts.pool ?? env.CODECELL_POOL ?? "";
const edgeCall = edgeClient(edge, dispatcher);

// ---- enrollment and heartbeats ----
let stopping = false;
let session: { node_id: string; secret: string; interval: number } | null = null;

async function waitForNode(): Promise<NodeInfoResponse> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      return await unary(target, fleetMethods.nodeInfo, {}, 3_000);
    } catch (e) {
      if (Date.now() > deadline) fail(`the fleet node at ${nodeUrl} did not answer NodeInfo: ${(e as Error).message}`, 1);
      await sleep(300);
    }
  }
}

async function enroll(): Promise<void> {
  let delay = 500;
  for (;;) {
    const ni = await waitForNode();
    try {
      const r = await edgeCall("/fleet/enroll", enrollToken,
        { type: EnrollRequest, value: { url: advertise, token: fleetToken, name: nodeId, pool } }, EnrollResponse);
      if (r.message) {
        session = { node_id: r.message.nodeId, secret: r.message.heartbeatSecret, interval: heartbeatOverride || r.message.heartbeatIntervalMs || 5_000 };
        log("info", "enrolled with the edge", {
          edge, node: session.node_id, name: nodeId, pool: r.message.pool, url: advertise, slots: ni.slots,
          languages: ni.languages.map((l) => l.name), heartbeat_ms: session.interval,
        });
        return;
      }
      if (r.status === 401 || r.status === 400 || r.status === 403) fail(`the edge refused the enrollment (${r.status}): ${r.error}`);
      log("warn", "enrollment failed; retrying", { status: r.status, error: r.error });
    } catch (e) {
      log("warn", "cannot reach the edge; retrying", { error: (e as Error).message });
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 10_000);
  }
}

async function beat(draining = false): Promise<void> {
  if (!session) return;
  let ni: NodeInfoResponse | null = null;
  try {
    ni = await unary(target, fleetMethods.nodeInfo, {}, 3_000);
  } catch (e) {
    log("warn", "the fleet node did not answer NodeInfo", { error: (e as Error).message });
  }
  const r = await edgeCall("/fleet/heartbeat", session.secret,
    { type: HeartbeatRequest, value: { nodeId: session.node_id, info: ni ?? undefined, draining } }, HeartbeatResponse);
  if ((r.status === 404 || r.status === 403) && !stopping) {
    const why = r.status === 403 ? "the edge revoked this node's credential; enrolling again" : "the edge no longer knows this node; enrolling again";
    log("warn", why, { error: r.error });
    session = null;
    await enroll();
  } else if (r.status !== 200) {
    log("warn", "heartbeat refused", { status: r.status, error: r.error });
  }
}

async function heartbeatLoop(): Promise<void> {
  while (!stopping) {
    await sleep(session?.interval ?? 5_000);
    if (stopping) break;
    await beat().catch((e: unknown) => log("warn", "heartbeat failed", { error: (e as Error).message }));
  }
}

async function stop(signal: string): Promise<void> {
  if (stopping) {
    log("warn", "second signal: stopping at once");
    if (child?.pid !== undefined) try { process.kill(child.pid, "SIGKILL"); } catch {}
    process.exit(1);
  }
  stopping = true;
  log("info", "stopping: draining the node (running and queued runs finish), then leaving the fleet", { signal });
  await beat(true).catch(() => {});
  // Keep the edge informed while the runs finish (heartbeats marked draining).
  const keepAlive = setInterval(() => void beat(true).catch(() => {}), session?.interval ?? 5_000);
  if (child) {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((r) => child!.once("exit", () => r()));
      process.kill(child.pid, "SIGTERM");
      await exited;
    }
  } else {
    await unary(target, fleetMethods.drain, {}, 5_000).catch(() => {});
    for (;;) {
      const ni = await unary(target, fleetMethods.nodeInfo, {}, 3_000).catch(() => null);
      if (!ni || (ni.freeSlots >= ni.slots && ni.queueDepth === 0)) break;
      await sleep(500);
    }
  }
  clearInterval(keepAlive);
  if (session) {
    const r = await edgeCall("/fleet/leave", session.secret, { type: LeaveRequest, value: { nodeId: session.node_id } }, LeaveResponse).catch(() => null);
    log("info", r?.status === 200 ? "left the fleet" : "could not deregister (the edge marks the node unhealthy)", { node: session.node_id });
  }
  process.exit(0);
}

process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));

await enroll();
await heartbeatLoop();
