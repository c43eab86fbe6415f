// `npm start`: the local stack in one command. Provisions toolchains (scripts/provision.sh, when
// present), starts one fleet node and the edge (scripts/edge-dev.ts: the production bundle on workerd,
// HTTPS served by workerd, inspector off unless EDGE_INSPECTOR=1; state under .state/),
// registers the node, creates a development project and API key, and prints how to call it.
// A child that dies is restarted (the node re-registered); the rest keeps serving meanwhile.
// Ctrl-C (SIGINT/SIGTERM) stops every process it started, by PID.
//
// Variables: EDGE_PORT (8787), FLEET_GRPC_PORT (50051), FLEET_GRPC_WEB_PORT (50052), DEV_API_KEY,
// CODECELL_STATE_DIR (.state), EDGE_INSPECTOR (1: the Worker's DevTools inspector on, see
// scripts/edge-dev.ts). The state file records the edge's URL, which the CLI then uses.
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { operatorTokenProblem } from "../edge/src/doors/token-strength.ts";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, edgeCommand, fleetCommand, portOpen, request } from "./stack/index.ts";

const STATE = process.env.CODECELL_STATE_DIR ?? join(ROOT, ".state");
const EDGE_PORT = Number(process.env.EDGE_PORT ?? 8787);
const FLEET_GRPC_PORT = Number(process.env.FLEET_GRPC_PORT ?? 50051);
const FLEET_GRPC_WEB_PORT = Number(process.env.FLEET_GRPC_WEB_PORT ?? 50052);

interface DevState {
  operator_token: string;
  fleet_token: string;
  project_id?: string;
  api_key?: string;
  edge_url?: string;
}

const log = (msg: string) => console.log(`[start] ${msg}`);
const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  log("stopping…");
  for (const c of children) {
    if (c.pid !== undefined && c.exitCode === null && c.signalCode === null) {
      try {
        process.kill(-c.pid, "SIGTERM");
      } catch {}
    }
  }
  const deadline = Date.now() + 8_000;
  const timer = setInterval(() => {
    const alive = children.filter((c) => c.exitCode === null && c.signalCode === null);
    if (alive.length === 0 || Date.now() > deadline) {
      for (const c of alive) {
        try {
          if (c.pid !== undefined) process.kill(-c.pid, "SIGKILL");
        } catch {}
      }
      clearInterval(timer);
      process.exit(code);
    }
  }, 100);
}

process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

/**
 * Starts a child in its own process group (so stopping it also stops what it spawned: workerd,
 * sandboxes) and keeps it running: a child that dies is started again after a back-off (1 s,
 * doubling to 30 s; reset once it has stayed up for a minute), then `onRestart` runs.
 */
function supervise(name: string, child: { command: string; args: string[]; env: NodeJS.ProcessEnv }, onRestart?: () => Promise<void>): void {
  let backoffMs = 1_000;
  const launch = () => {
    const c = spawn(child.command, child.args, { cwd: ROOT, env: child.env, detached: true, stdio: ["ignore", "inherit", "inherit"] });
    children.push(c);
    log(`${name} started (pid ${c.pid})`);
    const startedAt = Date.now();
    c.on("exit", (code, signal) => {
      children.splice(children.indexOf(c), 1);
      if (stopping) return;
      if (Date.now() - startedAt > 60_000) backoffMs = 1_000;
      console.error(`[start] ${name} exited unexpectedly (${signal ?? code}); restarting it in ${backoffMs / 1000} s`);
      setTimeout(() => {
        if (stopping) return;
        launch();
        onRestart?.().catch((e) => console.error(`[start] after restarting ${name}: ${String(e)}`));
      }, backoffMs);
      backoffMs = Math.min(backoffMs * 2, 30_000);
    });
  };
  launch();
}

const edgeBase = `https://127.0.0.1:${EDGE_PORT}`;
async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: any }> {
  const { status, json } = await request(edgeBase, method, path, { headers: { authorization: `Bearer ${token}` }, body });
  return { status, json: json ?? null };
}

async function waitFor(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (stopping) process.exit(1);
    if (Date.now() > deadline) {
      console.error(`[start] ${what} did not come up within ${ms / 1000} s`);
      stopAll(1);
      return new Promise(() => {});
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** 32 random bytes, base64url: 43 characters, clear of the doors' strength floor. */
function strongToken(): string {
  for (;;) {
    const t = randomBytes(32).toString("base64url");
    if (!operatorTokenProblem(t)) return t;
  }
}

// ---- 1. state and credentials ----
mkdirSync(STATE, { recursive: true });
const statePath = join(STATE, "dev.json");
const state: DevState = existsSync(statePath)
  ? (JSON.parse(readFileSync(statePath, "utf8")) as DevState)
  : { operator_token: strongToken(), fleet_token: randomBytes(24).toString("base64url") };
// A token from before the doors' strength floor (docs/operators.md#operator-doors) is replaced.
if (operatorTokenProblem(state.operator_token)) state.operator_token = strongToken();
state.edge_url = `https://127.0.0.1:${EDGE_PORT}`;
const save = () => {
  writeFileSync(statePath, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
  chmodSync(statePath, 0o600);
};
save();
// Secrets reach the Worker through an env file, not the command line (visible in `ps`).
const devVars = join(STATE, "dev.vars");
// WEBHOOK_DEV_ALLOW (host:port,…) lets webhooks reach a local receiver; the edge honours it only in development.
const devAllow = process.env.WEBHOOK_DEV_ALLOW ? `WEBHOOK_DEV_ALLOW=${process.env.WEBHOOK_DEV_ALLOW}\n` : "";
writeFileSync(devVars, `OPERATOR_TOKEN=${state.operator_token}\nENVIRONMENT=development\n${devAllow}`, { mode: 0o600 });

// ---- 2. toolchains ----
const provision = join(ROOT, "scripts", "provision.sh");
if (existsSync(provision)) {
  log("provisioning toolchains (scripts/provision.sh)…");
  const r = spawnSync("bash", [provision], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`[start] scripts/provision.sh failed (exit ${r.status}); fix it or install the toolchains by hand`);
    process.exit(1);
  }
} else {
  log("scripts/provision.sh not found: skipping toolchain provisioning (languages the machine lacks stay unavailable)");
}

// ---- 3. fleet node ----
for (const [name, port] of [["FLEET_GRPC_PORT", FLEET_GRPC_PORT], ["FLEET_GRPC_WEB_PORT", FLEET_GRPC_WEB_PORT], ["EDGE_PORT", EDGE_PORT]] as const) {
  if (await portOpen(port)) {
    console.error(`[start] port ${port} (${name}) is already in use; set ${name} to a free port`);
    process.exit(1);
  }
}
log(`starting fleet node (gRPC :${FLEET_GRPC_PORT}, gRPC-Web :${FLEET_GRPC_WEB_PORT})…`);
const fleet = await fleetCommand({ token: state.fleet_token, grpcPort: FLEET_GRPC_PORT, webPort: FLEET_GRPC_WEB_PORT, stateDir: join(STATE, "fleet") });
supervise("fleet node", fleet, async () => {
  for (let tries = 0; tries < 600 && !stopping && !(await portOpen(FLEET_GRPC_WEB_PORT)); tries++) await new Promise((r) => setTimeout(r, 200));
  if (!stopping) await registerNode();
});
await waitFor("the fleet node", () => portOpen(FLEET_GRPC_WEB_PORT), 120_000);

// ---- 4. edge ----
log(`starting the edge (scripts/edge-dev.ts, https :${EDGE_PORT})…`);
supervise("edge", await edgeCommand({ port: EDGE_PORT, persistDir: join(STATE, "wrangler"), envFile: devVars }));
await waitFor("the edge", async () => (await call("GET", "/", "")).status > 0, 120_000);

// ---- 5. register the node, project and key ----
/** Registers the node (again, after a restart) and forgets nodes of earlier runs on other ports. */
async function registerNode(): Promise<boolean> {
  const reg = await call("POST", "/admin/nodes", state.operator_token, {
    url: fleet.url, token: state.fleet_token, name: "local",
  });
  if (reg.status !== 201) {
    console.error(`[start] registering the fleet node failed: ${reg.status} ${JSON.stringify(reg.json)}`);
    return false;
  }
  const nodes = await call("GET", "/admin/nodes", state.operator_token);
  for (const n of (nodes.json ?? []) as { id: string }[]) if (n.id !== reg.json.id) await call("DELETE", `/admin/nodes/${n.id}`, state.operator_token);
  log(`fleet node registered (${reg.json.id})`);
  return true;
}
if (!(await registerNode())) {
  stopAll(1);
  await new Promise(() => {});
}
if (!state.project_id || (await call("GET", `/admin/projects/${state.project_id}`, state.operator_token)).status !== 200) {
  const p = await call("POST", "/admin/projects", state.operator_token, { name: "development", account_id: "acct_dev" });
  state.project_id = p.json.id;
  save();
}
const wanted = process.env.DEV_API_KEY || state.api_key;
const k = await call("POST", `/admin/projects/${state.project_id}/keys`, state.operator_token, { name: "development", ...(wanted ? { key: wanted } : {}) });
if (k.status !== 200 && k.status !== 201) {
  console.error(`[start] creating the development key failed: ${k.status} ${JSON.stringify(k.json)}`);
  stopAll(1);
} else {
  if (!process.env.DEV_API_KEY) {
    state.api_key = k.json.key;
    save();
  }
  const base = `https://localhost:${EDGE_PORT}`;
  console.log(`
codecell is running.

  Base URL        ${base}
  API key         ${k.json.key}
  Operator token  ${state.operator_token}   (admin API under ${base}/admin, Authorization: Bearer …)
  Dashboard       ${base}/dashboard   (sign in with the operator token; CLI: cli/codecell --help)
  State           ${STATE}

Try it (curl needs -k: the development certificate is self-signed):

  curl -k -X POST '${base}/api/submit?wait=true' \\
    -H 'X-API-Key: ${k.json.key}' -H 'content-type: application/json' \\
    -d '{"language":"python","code":"print(\\"hello\\")"}'

A fleet node or edge that dies is restarted by itself. Ctrl-C stops both.
`);
}
