// Runs every test file on its own with a name pattern that matches nothing and checks that it ends
// by itself (within a bound) and leaves no mount, cgroup or process of ours behind.
//   node scripts/tests-alone.ts [glob...]     (default: every test/**/*.test.ts)
import { spawnSync } from "node:child_process";
import { existsSync, globSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const LIMIT_MS = 120_000;
const CGROUP_ROOTS = ["/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids", "/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/unified", "/sys/fs/cgroup"];

function ourMounts(): Set<string> {
  const lines = readFileSync("/proc/mounts", "utf8").split("\n");
  return new Set(lines.map((l) => l.split(" ")[1] ?? "").filter((m) => m.includes("codecell")));
}

function ourCgroups(): Set<string> {
  const found = new Set<string>();
  for (const root of CGROUP_ROOTS) {
    if (!existsSync(root)) continue;
    for (const top of readdirSync(root)) {
      if (!top.startsWith("codecell")) continue;
      const dir = join(root, top);
      found.add(dir);
      for (const child of readdirSync(dir, { withFileTypes: true })) if (child.isDirectory()) found.add(join(dir, child.name));
    }
  }
  return found;
}

/** New entries left by a process that has ended (a run's instance is named after its node's pid). */
const added = (before: Set<string>, after: Set<string>) => [...after].filter((x) => !before.has(x) && ownerEnded(x));

function ownerEnded(path: string): boolean {
  const pid = /\/i(\d+)-\d+/.exec(path)?.[1];
  return pid !== undefined && !existsSync(`/proc/${pid}`);
}

const patterns = process.argv.slice(2);
const files = globSync(patterns.length ? patterns : ["test/**/*.test.ts"]).sort();
let failures = 0;
for (const file of files) {
  const mounts = ourMounts();
  const cgroups = ourCgroups();
  const started = Date.now();
  const run = spawnSync(process.execPath, ["--test", "--test-name-pattern", "no test is named this", file], {
    env: { ...process.env, CI: "true" }, timeout: LIMIT_MS, killSignal: "SIGKILL", encoding: "utf8",
  });
  const ms = Date.now() - started;
  const problems: string[] = [];
  if (run.error || run.signal) problems.push(`did not end within ${LIMIT_MS / 1000} s`);
  else if (run.status !== 0) problems.push(`exit ${run.status}: ${run.stdout.split("\n").filter((l) => /Error|✖/.test(l)).slice(0, 3).join(" | ")}`);
  const leftMounts = added(mounts, ourMounts());
  const leftCgroups = added(cgroups, ourCgroups());
  if (leftMounts.length) problems.push(`mounts left: ${leftMounts.join(", ")}`);
  if (leftCgroups.length) problems.push(`cgroups left: ${leftCgroups.join(", ")}`);
  if (problems.length) failures++;
  console.log(`${problems.length ? "FAIL" : "ok  "} ${file} (${ms} ms)${problems.length ? `\n     ${problems.join("\n     ")}` : ""}`);
}
console.log(`${files.length} files, ${failures} failing`);
process.exitCode = failures ? 1 : 0;
