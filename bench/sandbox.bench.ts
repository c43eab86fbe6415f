// npm run bench:sandbox — the cost of isolation, measured side by side in one run:
// (a) bare fork+exec of a static C hello, (b) the same under `unshare -pmn --fork --mount-proc`,
// (c) the same through the full sandbox (cgroup, namespaces, root, limits, evidence, cleanup);
// then what the CPU-time limit's poll adds to a run: (c) includes it, this isolates it;
// then the seccomp allow-list beside the base commit's policy (bench/seccomp-compare.ts).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectCgroupDriver } from "../fleet/src/sandbox/cgroup/detect.ts";
import { CpuWatch } from "../fleet/src/sandbox/cpu-watch.ts";
import { RUN_LIMITS } from "../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../fleet/src/sandbox/sandbox.ts";
import { compareSeccompPolicies } from "./seccomp-compare.ts";
import { row, summarize, timeMany } from "./stats.ts";

const runs = Number(process.env.BENCH_RUNS ?? 300);
const dir = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
const binary = join(dir, "hello");
writeFileSync(join(dir, "hello.c"), '#include <unistd.h>\nint main(void){write(1,"hello\\n",6);return 0;}\n');
execFileSync("gcc", ["-O2", "-static", "-o", binary, join(dir, "hello.c")]);

function spawnAndWait(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("close", (code) => (code === 0 && out === "hello\n" ? resolve() : reject(new Error(`${command}: ${code} ${out}`))));
  });
}

const sandbox = await Sandbox.create({ stateDir: join(dir, "state"), slots: 1 });
if (!sandbox.health().ready) throw new Error(`sandbox not ready: ${sandbox.health().reasons.join("; ")}`);
const spec = { argv: ["/opt/hello"], binds: [{ hostPath: binary, sandboxPath: "/opt/hello" }], limits: RUN_LIMITS };
const sandboxed = async () => {
  const { result } = await sandbox.run(spec);
  if (result.verdict !== "AC" || result.stdout !== "hello\n") throw new Error(JSON.stringify(result));
};

// Warm up each path, then measure them interleaved in rounds so drift hits all three alike.
for (let i = 0; i < 20; i++) {
  await spawnAndWait(binary, []);
  await spawnAndWait("unshare", ["-pmn", "--fork", "--mount-proc", binary]);
  await sandboxed();
}
const bare: number[] = [];
const unshared: number[] = [];
const full: number[] = [];
for (let round = 0; round < runs / 10; round++) {
  bare.push(...(await timeMany(10, () => spawnAndWait(binary, []))));
  unshared.push(...(await timeMany(10, () => spawnAndWait("unshare", ["-pmn", "--fork", "--mount-proc", binary]))));
  full.push(...(await timeMany(10, sandboxed)));
}
await sandbox.close();

console.log(`sandbox benchmark: ${bare.length} runs each, static C hello, spawned from Node ${process.version}`);
console.log(row("(a) bare fork+exec", bare));
console.log(row("(b) unshare -pmn --fork --mount-proc", unshared, bare));
console.log(row("(c) full sandbox (cgroup, ns, root, limits, evidence)", full, bare));
const added = summarize(full).median - summarize(bare).median;
console.log(`target (c) - (a) <= 1.5 ms median: ${added <= 1.5 ? "met" : "missed"} (${added.toFixed(2)} ms)`);
console.log(`CPU-time limit poll, per short run (one reading of the run cgroup's CPU usage, one timer): ${(await cpuPollCostUsec()).toFixed(1)} µs`);
await compareSeccompPolicies(dir, binary, Number(process.env.BENCH_SECCOMP_RUNS ?? runs));
rmSync(dir, { recursive: true, force: true });

/** A short run's whole cost of the CPU-time limit: the watch started at execve and stopped at exit. */
async function cpuPollCostUsec(): Promise<number> {
  const driver = detectCgroupDriver(`codecell-bench/i${process.pid}-poll`);
  if (typeof driver === "string") throw new Error(driver);
  const problems = driver.problems();
  if (problems.length > 0) throw new Error(problems.join("; "));
  const cgroup = await driver.create("r0", { memoryBytes: RUN_LIMITS.memoryBytes, processes: RUN_LIMITS.processes, cpu: { mode: "dedicated", cpus: [driver.cpus()[0]!], quotaCores: undefined } });
  const samples: number[] = [];
  try {
    for (let round = 0; round < 20; round++) {
      const start = performance.now();
      for (let i = 0; i < 1000; i++) {
        const watch = new CpuWatch({ limitMs: RUN_LIMITS.cpuTimeMs, cores: 1, readUsageUsec: () => cgroup.cpuUsageUsec(), onExceeded: () => {}, onUnreadable: () => {} });
        watch.start();
        watch.stop();
      }
      samples.push(performance.now() - start); // ms per 1000 = µs per run
    }
  } finally {
    await cgroup.destroy();
    driver.close();
  }
  return summarize(samples).median;
}
