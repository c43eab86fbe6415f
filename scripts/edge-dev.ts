// The local edge as production runs it: the bundle `wrangler deploy` would upload, on real workerd
// through Miniflare (the engine under `wrangler dev`), configured from wrangler.toml by wrangler's
// own mapping (unstable_getMiniflareWorkerOptions). workerd terminates TLS itself and serves the
// Worker directly, as Cloudflare's front door does. `wrangler dev` instead puts a proxy Worker in a
// second workerd in front (a Durable Object and an HTTP hop on every request, ~3 ms) and always
// attaches its inspector, whose Network.* events on every outbound fetch cost its Node process
// ~3 ms of CPU per submission. Neither exists in production; for live reload while editing the
// Worker, `npm run dev:edge` still runs `wrangler dev`. The inspector is off here unless asked for
// (EDGE_INSPECTOR=1, or --inspector-port).
//
//   node scripts/edge-dev.ts [--config wrangler.toml] [--local-protocol https|http] [--ip 127.0.0.1]
//     [--port 8787] [--https-cert-path P --https-key-path P] [--persist-to DIR] [--env-file F]…
//     [--var K:V]… [--log-level debug|info|log|warn|error|none] [--inspector-port N]
//
// The flags mean what the `wrangler dev` flags of the same names mean (state under
// <persist-to>/v3, as wrangler keeps it). The Worker's console output is printed on this process's
// stdout/stderr.
// Prints "Ready on <url>" once it serves; exits 1 with the reason if it cannot start (a port in use
// shows as "Address already in use"); SIGTERM/SIGINT stop workerd and exit 0.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, parseEnv } from "node:util";

const LOG_LEVELS = ["debug", "info", "log", "warn", "error", "none"] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

function fail(message: string): never {
  console.error(`[edge-dev] ${message}`);
  process.exit(1);
}

const OPTIONS = {
  config: { type: "string", default: resolve(import.meta.dirname, "..", "wrangler.toml") },
  "local-protocol": { type: "string", default: "https" },
  ip: { type: "string", default: "127.0.0.1" },
  port: { type: "string", default: "8787" },
  "https-cert-path": { type: "string" },
  "https-key-path": { type: "string" },
  "persist-to": { type: "string" },
  "env-file": { type: "string", multiple: true },
  var: { type: "string", multiple: true },
  "log-level": { type: "string", default: "log" },
  "inspector-port": { type: "string" },
} as const;
function commandLine() {
  try {
    return parseArgs({ options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
}
const args = commandLine();

const protocol = args["local-protocol"];
if (protocol !== "https" && protocol !== "http") fail(`--local-protocol must be https or http, not ${protocol}`);
const logLevel = args["log-level"] as LogLevel;
if (!LOG_LEVELS.includes(logLevel)) fail(`--log-level must be one of ${LOG_LEVELS.join(", ")}`);
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${args.port}`);
if (Boolean(args["https-cert-path"]) !== Boolean(args["https-key-path"])) fail("--https-cert-path and --https-key-path go together");

const inspectorWanted = args["inspector-port"] !== undefined || /^(1|true|yes)$/i.test(process.env.EDGE_INSPECTOR ?? "");
const inspectorPort = args["inspector-port"] === undefined ? undefined : Number(args["inspector-port"]);
if (inspectorPort !== undefined && (!Number.isInteger(inspectorPort) || inspectorPort < 0 || inspectorPort > 65535)) {
  fail(`--inspector-port must be a port number, not ${args["inspector-port"]}`);
}

// Variables: wrangler.toml's, then the env files' (secrets such as OPERATOR_TOKEN), then --var.
const overrides: Record<string, string> = {};
for (const file of args["env-file"] ?? []) {
  try {
    Object.assign(overrides, parseEnv(readFileSync(resolve(file), "utf8")));
  } catch (e) {
    fail(`cannot read --env-file ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
for (const kv of args.var ?? []) {
  const at = kv.indexOf(":");
  if (at <= 0) fail(`--var takes KEY:VALUE, not ${kv}`);
  overrides[kv.slice(0, at)] = kv.slice(at + 1);
}

const LOG = { debug: 4, info: 3, log: 3, warn: 2, error: 1, none: 0 } as const;
const config = resolve(args.config);
const WRANGLER = resolve(import.meta.dirname, "..", "node_modules", ".bin", "wrangler");
const { Log, Miniflare } = await import("miniflare");
const { unstable_getMiniflareWorkerOptions, unstable_readConfig } = await import("wrangler");

// The production bundle, exactly what `wrangler deploy` uploads.
const bundleDir = mkdtempSync(join(tmpdir(), "codecell-edge-bundle-"));
try {
  execFileSync(WRANGLER, ["deploy", "--dry-run", "--outdir", bundleDir, "--config", config], {
    stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
} catch (e) {
  rmSync(bundleDir, { recursive: true, force: true });
  fail(`bundling the Worker failed: ${String((e as { stderr?: Buffer }).stderr ?? e)}`);
}
const wranglerConfig = unstable_readConfig({ config });
const { workerOptions: { assets, ...workerOptions } } = unstable_getMiniflareWorkerOptions(wranglerConfig);
const ASSETS_WORKER = `${wranglerConfig.name}-assets`;
const persistRoot = join(resolve(args["persist-to"] ?? join(import.meta.dirname, "..", ".wrangler", "state")), "v3");

const mf = new Miniflare({
  host: args.ip, port,
  ...(protocol === "https" ? { https: true, httpsCertPath: args["https-cert-path"], httpsKeyPath: args["https-key-path"] } : {}),
  ...(inspectorWanted ? { inspectorPort: inspectorPort ?? 9229 } : {}),
  // request.cf: Miniflare's placeholder (colo DFW) instead of fetching Cloudflare's at every start.
  cf: false,
  defaultPersistRoot: persistRoot,
  log: new Log(LOG[logLevel]),
  workers: [{
    ...workerOptions,
    name: wranglerConfig.name,
    modules: [{ type: "ESModule", path: join(bundleDir, "index.js") }],
    modulesRoot: bundleDir,
    bindings: { ...workerOptions.bindings, ...overrides },
    // Miniflare otherwise sends every outgoing fetch (Execute to a node, webhooks) through one more
    // Worker of its own that only rewrites two Cloudflare headers; production has no such hop.
    stripCfConnectingIp: false,
    ...(assets ? { serviceBindings: { ...workerOptions.serviceBindings, [assets.binding ?? "ASSETS"]: ASSETS_WORKER } } : {}),
  }, ...(assets ? [assetsWorker(assets)] : [])],
});

/**
 * The static files (wrangler.toml's [assets]) are served by a Worker of their own, which the edge's
 * Worker reaches through the same binding. With `run_worker_first`, Cloudflare's front door calls
 * our Worker first on every request and the asset router costs it nothing; locally the router is
 * one more Worker hop on the one workerd thread (~0.3–0.5 ms of CPU per request, docs/edge.md).
 * Here only the requests for those files pass through it.
 */
function assetsWorker(options: NonNullable<typeof assets>) {
  return {
    name: ASSETS_WORKER,
    compatibilityDate: workerOptions.compatibilityDate,
    modules: true,
    script: "export default { fetch: () => new Response(null, { status: 404 }) };",
    assets: { ...options, routerConfig: { ...options.routerConfig, invoke_user_worker_ahead_of_assets: false } },
  };
}

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const timer = setTimeout(() => fail("workerd did not stop within 10 s"), 10_000);
  timer.unref();
  await mf.dispose().catch(() => {});
  rmSync(bundleDir, { recursive: true, force: true });
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

try {
  const url = await mf.ready;
  const publicUrl = port === 0 ? url.origin : `${protocol}://${args.ip.includes(":") ? `[${args.ip}]` : args.ip}:${port}`;
  const inspectorNote = inspectorWanted ? ` (inspector on port ${inspectorPort ?? 9229})` : " (inspector off; EDGE_INSPECTOR=1 turns it on)";
  console.log(`[edge-dev] Ready on ${publicUrl}${inspectorNote}`);
} catch (e) {
  console.error(`[edge-dev] the edge did not start: ${describe(e)}`);
  await stop(1);
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.message}${e.cause ? `: ${describe(e.cause)}` : ""}`;
  return String(e);
}
