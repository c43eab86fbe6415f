// Node settings: a command-line flag wins over its environment variable, which wins over the default.
import { Command, Option } from "commander";
import ipaddr from "ipaddr.js";
import { readFileSync } from "node:fs";
import { availableParallelism, hostname } from "node:os";
import { CPU_POLICIES, parseCpuPolicy, type CpuPolicyName } from "../sandbox/cgroup/cpu-policy.ts";
import { DEFAULT_INFLIGHT_MIB, DEFAULT_RETAINED_MIB, MIN_INFLIGHT_MIB } from "./node-memory.ts";

export interface FleetConfig {
  host: string;
  grpcPort: number;
  grpcWebPort: number;
  grpcMaxConcurrentStreams: number;
  token: string;
  tls: { cert: Buffer; key: Buffer } | undefined;
  slots: number;
  queueCapacity: number;
  resultRetentionSecs: number;
  maxRetainedResults: number;
  /** FLEET_MAX_RETAINED_RESULT_MIB in bytes. */
  maxRetainedResultBytes: number;
  /** FLEET_INFLIGHT_MIB in bytes. */
  inflightBytes: number;
  nodeId: string;
  stateDir: string;
  cgroupParent: string | undefined;
  launcherPath: string | undefined;
  cpuPolicy: CpuPolicyName;
  drainGraceSecs: number;
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

const MIN_TOKEN_LENGTH = 16;
/** Native gRPC calls one connection may have open at once (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS). */
export const DEFAULT_GRPC_MAX_CONCURRENT_STREAMS = 100;

/** flag name → [environment variable, description, default] (defaults as the text a user would type). */
export const SETTINGS = {
  host: ["FLEET_HOST", "address both transports bind to", "127.0.0.1"],
  grpcPort: ["FLEET_GRPC_PORT", "native gRPC port (0: any free port)", "50051"],
  grpcWebPort: ["FLEET_GRPC_WEB_PORT", "gRPC-Web and /metrics port (0: any free port)", "50052"],
  grpcMaxConcurrentStreams: [
    "FLEET_GRPC_MAX_CONCURRENT_STREAMS",
    "native gRPC calls one connection may have open at once (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS)",
    String(DEFAULT_GRPC_MAX_CONCURRENT_STREAMS),
  ],
  tokenFile: ["FLEET_TOKEN_FILE", "file holding the fleet credential (or set FLEET_TOKEN)", undefined],
  tlsCert: ["FLEET_TLS_CERT", "PEM certificate chain for both transports", undefined],
  tlsKey: ["FLEET_TLS_KEY", "PEM private key for both transports", undefined],
  slots: ["FLEET_SLOTS", "concurrent runs (default: number of cores)", undefined],
  queueCapacity: ["FLEET_QUEUE_CAPACITY", "runs that may wait for a slot", "64"],
  resultRetentionSecs: ["FLEET_RESULT_RETENTION_SECS", "how long outcomes stay available to GetResult", "600"],
  maxRetainedResults: ["FLEET_MAX_RETAINED_RESULTS", "cap on kept outcomes (least recently used dropped first)", "10000"],
  maxRetainedResultMib: [
    "FLEET_MAX_RETAINED_RESULT_MIB", "byte budget of kept outcomes in MiB (least recently used dropped first)", String(DEFAULT_RETAINED_MIB),
  ],
  inflightMib: [
    "FLEET_INFLIGHT_MIB", "budget in MiB of what admitted submissions may make the node hold; past it new work is refused", String(DEFAULT_INFLIGHT_MIB),
  ],
  nodeId: ["FLEET_NODE_ID", "node identity (default: the host name)", undefined],
  stateDir: ["FLEET_STATE_DIR", "compile cache and staging directory", "/var/lib/codecell/fleet"],
  cgroupParent: ["FLEET_CGROUP_PARENT", "cgroup under which run cgroups are made (engine default if unset)", undefined],
  launcherPath: ["FLEET_LAUNCHER_PATH", "the sandbox launcher binary (default: fleet/launcher/build/codecell-launcher)", undefined],
  cpuPolicy: ["FLEET_CPU_POLICY", "how slots share the CPUs: auto, dedicated (a core per slot) or shared (equal weights and a quota)", "auto"],
  drainGraceSecs: ["FLEET_DRAIN_GRACE_SECS", "after a drain, how long open streams get to finish before exit", "10"],
  logLevel: ["FLEET_LOG_LEVEL", "fatal, error, warn, info, debug, trace or silent", "info"],
} as const satisfies Record<string, readonly [string, string, string | undefined]>;

type Raw = Partial<Record<keyof typeof SETTINGS, string>>;

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function integer(name: keyof typeof SETTINGS, value: string, min: number, max: number): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || parsed < min || parsed > max) {
    throw new ConfigError(`${SETTINGS[name][0]} (--${kebab(name)}) must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === "loopback";
}

function readFile(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): FleetConfig {
  const program = new Command("codecell-fleet")
    .description("codecell fleet node: runs submissions in the sandbox over gRPC and gRPC-Web")
    .exitOverride()
    .allowExcessArguments(false);
  for (const [name, [variable, description, fallback]] of Object.entries(SETTINGS)) {
    const hint = fallback === undefined ? variable : `${variable}, default ${fallback}`;
    program.addOption(new Option(`--${kebab(name)} <value>`, `${description} [${hint}]`));
  }
  program.parse(argv, { from: "user" });
  const flags = program.opts<Raw>();
  const raw = Object.fromEntries(
    Object.entries(SETTINGS).map(([name, [variable, , fallback]]) => {
      const value = flags[name as keyof Raw] ?? (env[variable] || undefined) ?? fallback;
      return [name, value];
    }),
  ) as Raw;

  const host = raw.host!;
  const tls = raw.tlsCert || raw.tlsKey ? loadTls(raw.tlsCert, raw.tlsKey) : undefined;
  if (!tls && !isLoopback(host)) {
    throw new ConfigError(
      `refusing to serve plaintext on ${host}: set FLEET_TLS_CERT and FLEET_TLS_KEY, or bind FLEET_HOST to a loopback address`,
    );
  }
  return {
    host,
    grpcPort: integer("grpcPort", raw.grpcPort!, 0, 65535),
    grpcWebPort: integer("grpcWebPort", raw.grpcWebPort!, 0, 65535),
    grpcMaxConcurrentStreams: integer("grpcMaxConcurrentStreams", raw.grpcMaxConcurrentStreams!, 1, 10_000),
    token: loadToken(env.FLEET_TOKEN, raw.tokenFile),
    tls,
    slots: raw.slots === undefined ? availableParallelism() : integer("slots", raw.slots, 1, 1024),
    queueCapacity: integer("queueCapacity", raw.queueCapacity!, 0, 100_000),
    resultRetentionSecs: integer("resultRetentionSecs", raw.resultRetentionSecs!, 1, 7 * 24 * 3600),
    maxRetainedResults: integer("maxRetainedResults", raw.maxRetainedResults!, 1, 10_000_000),
    maxRetainedResultBytes: integer("maxRetainedResultMib", raw.maxRetainedResultMib!, 16, 1024 * 1024) * 1024 * 1024,
    inflightBytes: integer("inflightMib", raw.inflightMib!, MIN_INFLIGHT_MIB, 1024 * 1024) * 1024 * 1024,
    nodeId: raw.nodeId ?? hostname().toLowerCase(),
    stateDir: raw.stateDir!,
    cgroupParent: raw.cgroupParent,
    launcherPath: raw.launcherPath,
    cpuPolicy: cpuPolicy(raw.cpuPolicy!),
    drainGraceSecs: integer("drainGraceSecs", raw.drainGraceSecs!, 0, 3600),
    logLevel: raw.logLevel!,
  };
}

function cpuPolicy(value: string): CpuPolicyName {
  const policy = parseCpuPolicy(value);
  if (!policy) throw new ConfigError(`FLEET_CPU_POLICY (--cpu-policy) must be one of ${CPU_POLICIES.join(", ")}, got "${value}"`);
  return policy;
}

function loadTls(certPath: string | undefined, keyPath: string | undefined): FleetConfig["tls"] {
  if (!certPath || !keyPath) throw new ConfigError("FLEET_TLS_CERT and FLEET_TLS_KEY must be set together");
  return { cert: readFile(certPath, "TLS certificate"), key: readFile(keyPath, "TLS key") };
}

function loadToken(fromEnv: string | undefined, file: string | undefined): string {
  if (fromEnv && file) throw new ConfigError("set either FLEET_TOKEN or FLEET_TOKEN_FILE, not both");
  const token = (file ? readFile(file, "token file").toString("utf8") : (fromEnv ?? "")).trim();
  if (token === "") throw new ConfigError("the fleet credential is required: set FLEET_TOKEN or FLEET_TOKEN_FILE");
  if (token.length < MIN_TOKEN_LENGTH) throw new ConfigError(`the fleet credential must be at least ${MIN_TOKEN_LENGTH} characters`);
  return token;
}
