// The local edge: the Worker in real workerd through wrangler's programmatic dev API
// (`unstable_startWorker`), which runs the same controllers as `wrangler dev` (bundler, ProxyWorker,
// Miniflare) but lets the inspector be left off. `wrangler dev` always enables it, and its
// inspector proxy then asks workerd for Network.* events on every outbound fetch and stream chunk,
// which wrangler's Node process receives and writes to its debug log: CPU that production never
// spends. The inspector is off here unless asked for (EDGE_INSPECTOR=1, or --inspector-port).
//
//   node scripts/edge-dev.ts [--config wrangler.toml] [--local-protocol https|http] [--ip 127.0.0.1]
//     [--port 8787] [--https-cert-path P --https-key-path P] [--persist-to DIR] [--env-file F]…
//     [--var K:V]… [--log-level debug|info|log|warn|error|none] [--inspector-port N]
//
// The flags mean what the `wrangler dev` flags of the same names mean. The Worker's console output
// is printed on this process's stdout/stderr (workerd's structured logs, as under `wrangler dev`).
// Prints "Ready on <url>" once it serves; exits 1 with the reason if it cannot start (a port in use
// shows as "Address already in use"); SIGTERM/SIGINT stop workerd and exit 0.
import { resolve } from "node:path";
import { parseArgs } from "node:util";

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

const bindings: Record<string, { type: "plain_text"; value: string; hidden: boolean }> = {};
for (const kv of args.var ?? []) {
  const at = kv.indexOf(":");
  if (at <= 0) fail(`--var takes KEY:VALUE, not ${kv}`);
  // hidden: left out of the printed bindings table, as `wrangler dev --var` does (tokens pass here).
  bindings[kv.slice(0, at)] = { type: "plain_text", value: kv.slice(at + 1), hidden: true };
}

// wrangler's logger reads its level from WRANGLER_LOG on every call; set it before wrangler loads so
// that logs outside a startWorker call (the Worker's console output among them) follow it too.
process.env.WRANGLER_LOG = logLevel;
const { unstable_startWorker } = await import("wrangler");

const worker = await unstable_startWorker({
  config: resolve(args.config),
  envFiles: args["env-file"]?.map((f) => resolve(f)),
  bindings,
  sendMetrics: process.env.WRANGLER_SEND_METRICS === "false" ? false : undefined,
  dev: {
    remote: false,
    logLevel,
    persist: args["persist-to"] === undefined ? undefined : resolve(args["persist-to"]),
    server: {
      hostname: args.ip, port, secure: protocol === "https",
      httpsCertPath: args["https-cert-path"], httpsKeyPath: args["https-key-path"],
    },
    inspector: inspectorWanted ? { hostname: "127.0.0.1", ...(inspectorPort !== undefined ? { port: inspectorPort } : {}) } : false,
  },
}).catch((e: unknown) => fail(`the edge did not start: ${describe(e)}`));

let ready = false;
let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const timer = setTimeout(() => fail("workerd did not stop within 10 s"), 10_000);
  timer.unref();
  // dispose() waits for the server to be ready first, which never happens after a failed start.
  await (ready ? worker.dispose() : worker.raw.teardown()).catch(() => {});
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

// After start, wrangler reports what fails (a port in use, a crashed runtime) as an "error" event.
worker.raw.on("error", (e: unknown) => {
  console.error(`[edge-dev] the edge failed: ${describe(e)}`);
  void stop(1);
});

try {
  const url = await worker.url;
  const inspector = await worker.inspectorUrl;
  ready = true;
  // wrangler's url is the proxy's loopback entry, not the public address when --ip names another one.
  const publicUrl = port === 0 ? url.origin : `${protocol}://${args.ip.includes(":") ? `[${args.ip}]` : args.ip}:${port}`;
  console.log(`[edge-dev] Ready on ${publicUrl}${inspector ? ` (inspector: ${inspector.href})` : " (inspector off; EDGE_INSPECTOR=1 turns it on)"}`);
} catch (e) {
  console.error(`[edge-dev] the edge did not start: ${describe(e)}`);
  await stop(1);
}

function describe(e: unknown): string {
  if (e && typeof e === "object" && "reason" in e) {
    // A wrangler error event: { reason, cause, source }.
    const ev = e as { reason: unknown; cause?: unknown; source?: unknown };
    return `${String(ev.reason)}${ev.cause ? `: ${describe(ev.cause)}` : ""}${ev.source ? ` (${String(ev.source)})` : ""}`;
  }
  if (e instanceof Error) return `${e.message}${e.cause ? `: ${describe(e.cause)}` : ""}`;
  return String(e);
}
