// One node "host": the enrollment command (fleet/src/enroll/main.ts) run in the host's network
// namespace with `ip netns exec`, which starts the fleet node (TLS on the host's own address) and
// enrolls it with the edge. `ip netns exec` gives the command a fresh /sys for its namespace, which
// hides the cgroup mounts; the same hierarchies are mounted again in its private mount namespace
// (with the host's options, so they are the same hierarchies), as a host of its own would have.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import https from "node:https";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../edge/harness.ts";
import type { NodeHost } from "./network.ts";
import { cgroupMounts, killGroup } from "./processes.ts";

const NODE = join(ROOT, "node_modules", ".bin", "node");

export interface NodeAgent {
  proc: ChildProcess;
  /** The fleet node's PID (the enrollment command logs it), once started. */
  nodePid(): number | null;
  fleetToken: string;
  log(): string;
  exited: Promise<number | null>;
  /** SIGKILL to the enrollment command's and the node's process groups. */
  killNow(): void;
}

function remountCgroups(): string {
  return cgroupMounts()
    .map((m) => `mkdir -p ${m.target} && mount -t ${m.type} -o ${m.options} ${m.source} ${m.target}`)
    .join(" && ");
}

export function nodeAgent(o: {
  host: NodeHost; name: string; edgeUrl: string; enrollToken: string; stateDir: string;
  tls: { cert: string; key: string }; caCert: string; cgroupParent: string; fleetToken?: string;
}): NodeAgent {
  const fleetToken = o.fleetToken ?? randomBytes(24).toString("hex");
  let out = "";
  const script = `${remountCgroups()} && exec "$@"`;
  const proc = spawn("ip", [
    "netns", "exec", o.host.netns, "sh", "-c", script, "sh",
    NODE, "--no-warnings", join(ROOT, "fleet", "src", "enroll", "main.ts"), "--edge", o.edgeUrl, "--name", o.name,
  ], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      CODECELL_ENROLL_TOKEN: o.enrollToken,
      NODE_EXTRA_CA_CERTS: o.caCert,
      FLEET_TOKEN: fleetToken,
      FLEET_HOST: o.host.address,
      FLEET_GRPC_PORT: "50051",
      FLEET_GRPC_WEB_PORT: "50052",
      FLEET_TLS_CERT: o.tls.cert,
      FLEET_TLS_KEY: o.tls.key,
      FLEET_STATE_DIR: o.stateDir,
      FLEET_CGROUP_PARENT: o.cgroupParent,
      FLEET_SLOTS: "1",
      FLEET_NODE_ID: o.name,
      FLEET_LOG_LEVEL: "warn",
      FLEET_DRAIN_GRACE_SECS: "1",
    },
  });
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  const nodePid = () => {
    const m = /"msg":"fleet node started","pid":(\d+)/.exec(out);
    return m ? Number(m[1]) : null;
  };
  return {
    proc, nodePid, fleetToken, exited, log: () => out,
    killNow() {
      const child = nodePid();
      if (proc.pid) killGroup(proc.pid);
      if (child) killGroup(child);
    },
  };
}

/** GET <url>/metrics over TLS verified against the cluster's CA; the sum of one metric's samples. */
export function fetchMetric(url: string, caCert: string, token: string, metric: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.get(`${url}/metrics`, { ca: readFileSync(caCert), headers: { authorization: `Bearer ${token}` }, timeout: 10_000 }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`${url}/metrics: HTTP ${res.statusCode}`));
        let sum = 0;
        for (const line of text.split("\n")) {
          if (line.startsWith(`${metric}{`) || line.startsWith(`${metric} `)) sum += Number(line.slice(line.lastIndexOf(" ") + 1));
        }
        resolve(sum);
      });
    });
    req.on("timeout", () => req.destroy(new Error(`${url}/metrics: timeout`)));
    req.on("error", reject);
  });
}
