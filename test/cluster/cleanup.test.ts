// The harness leaves nothing behind: not when a test process dies of an uncaught error (its exit
// handler cleans up), and not when it is killed outright (the next cluster run sweeps its leftovers).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { ROOT } from "../edge/harness.ts";
import { sweepStaleClusters } from "./harness.ts";
import { alive, cgroupMounts, waitGone } from "./processes.ts";

const NODE = join(ROOT, "node_modules", ".bin", "node");

interface Made {
  net: number;
  netns: string[];
  links: string[];
  pids: number[];
  dirs: string[];
}

/** Starts the fixture; resolves with what it made once it printed it, and its exit. */
function abandon(how: "throw" | "wait"): Promise<{ made: Made; pid: number; exited: Promise<number | null>; output: () => string }> {
  const proc = spawn(NODE, [join(ROOT, "test", "cluster", "fixtures", "abandoned-cluster.ts"), how], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  return new Promise((resolve, reject) => {
    let line = "";
    proc.stdout.on("data", (d: Buffer) => {
      line += d.toString();
      const m = /^\{"net".*$/m.exec(line);
      if (m) resolve({ made: JSON.parse(m[0]) as Made, pid: proc.pid!, exited, output: () => out });
    });
    void exited.then((code) => reject(new Error(`fixture exited (${code}) before starting its cluster: ${out}`)));
  });
}

function leftovers(m: Made): string[] {
  const left: string[] = [];
  for (const ns of m.netns) if (existsSync(`/run/netns/${ns}`)) left.push(`netns ${ns}`);
  for (const l of m.links) if (existsSync(`/sys/class/net/${l}`)) left.push(`link ${l}`);
  for (const pid of m.pids) if (pid && alive(pid)) left.push(`process ${pid}`);
  for (const d of m.dirs) if (existsSync(d)) left.push(`dir ${d}`);
  for (const mount of cgroupMounts()) {
    if (mount.type !== "tmpfs" && readdirSync(mount.target).includes(`codecell-cluster-${m.net}`)) left.push(`cgroup ${mount.target}/codecell-cluster-${m.net}`);
  }
  if (existsSync(`/run/codecell-cluster/${m.net}.json`)) left.push("claim file");
  return left;
}

it("a test process that dies of an uncaught error leaves no namespace, link, process, cgroup or directory", { timeout: 300_000 }, async () => {
  const run = await abandon("throw");
  assert.notEqual(await run.exited, 0);
  await waitGone(run.made.pids, 5_000);
  assert.deepEqual(leftovers(run.made), [], run.output());
});

it("a test process killed outright: its leftovers are swept by the next cluster run", { timeout: 300_000 }, async () => {
  const run = await abandon("wait");
  process.kill(run.pid, "SIGKILL");
  await run.exited;
  assert.ok(leftovers(run.made).length > 0, "SIGKILL leaves the cluster behind (else this case proves nothing)");
  assert.ok(sweepStaleClusters().includes(run.made.net));
  await waitGone(run.made.pids, 5_000);
  // State directories are under the OS temp dir, left to it; everything else must be gone.
  assert.deepEqual(leftovers(run.made).filter((l) => !l.startsWith("dir ")), []);
});
