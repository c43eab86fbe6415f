// The seccomp allow-list beside the deny-list it replaced, in one run. The base commit (default: the
// last one with the deny-list) is checked out beside this tree, its launcher built, and the same
// probe (bench/seccomp-probe.ts, copied there) runs in each tree's own sandbox, in alternating
// blocks, so drift hits both alike. Part of `npm run bench:sandbox`; BENCH_SECCOMP_BASE picks the base.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { row, summarize } from "./stats.ts";

const ROOT = join(import.meta.dirname, "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
/** The last commit whose launcher installs the deny-list. */
const DENY_LIST_COMMIT = "65626e2";

/** A checkout of `base` under dir, with this tree's node_modules and its own launcher built. */
function checkoutBase(base: string, dir: string): string {
  const tree = join(dir, "base-tree");
  execFileSync("git", ["-C", ROOT, "worktree", "add", "--detach", "--quiet", tree, base]);
  symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
  execFileSync("bash", [join(tree, "fleet", "launcher", "build.sh")]);
  copyFileSync(join(import.meta.dirname, "seccomp-probe.ts"), join(tree, "bench", "seccomp-probe.ts"));
  return tree;
}

interface Block { hello: number[]; getppid: number[]; prlimit: number[] }

export async function compareSeccompPolicies(dir: string, hello: string, runs: number): Promise<void> {
  const base = process.env.BENCH_SECCOMP_BASE ?? DENY_LIST_COMMIT;
  const loop = join(dir, "syscall-loop");
  execFileSync("gcc", ["-O2", "-static", "-o", loop, join(import.meta.dirname, "fixtures", "syscall-loop.c")]);
  const tree = checkoutBase(base, dir);
  const sides = { [`deny-list (${base})`]: tree, "allow-list (this tree)": ROOT };
  const samples: Record<string, Block> = {};
  try {
    const blocks = 6;
    const rounds = Math.max(1, Math.round(runs / 10 / blocks));
    for (let block = 0; block < blocks; block++) {
      for (const [name, root] of Object.entries(sides)) {
        const stateDir = join(dir, `state-${block}-${name.startsWith("deny") ? "base" : "ours"}`);
        const line = execFileSync(NODE, [join(root, "bench", "seccomp-probe.ts"), hello, loop, String(rounds), stateDir], { cwd: root, encoding: "utf8" });
        const got = JSON.parse(line.trim().split("\n").pop()!) as Block;
        const into = (samples[name] ??= { hello: [], getppid: [], prlimit: [] });
        into.hello.push(...got.hello);
        into.getppid.push(...got.getppid);
        into.prlimit.push(...got.prlimit);
      }
    }
  } finally {
    if (existsSync(tree)) execFileSync("git", ["-C", ROOT, "worktree", "remove", "--force", tree]);
  }
  const [baseName, ours] = Object.keys(sides) as [string, string];
  console.log(`\nseccomp: the allow-list beside ${baseName}, each tree's own sandbox, alternating blocks, ${samples[ours]!.hello.length} runs each`);
  console.log("(the hello rows compare the whole sandbox of each tree: every change since the base, not the filter alone; the ns per call is the filter)");
  console.log(row(`full sandbox, static hello, ${baseName}`, samples[baseName]!.hello));
  console.log(row("full sandbox, static hello, allow-list (this tree)", samples[ours]!.hello, samples[baseName]!.hello));
  for (const [label, key] of [["getppid (number only)", "getppid"], ["prlimit64 read (argument rule)", "prlimit"]] as const) {
    const [b, o] = [summarize(samples[baseName]![key]).median, summarize(samples[ours]![key]).median];
    const change = (o - b >= 0 ? "+" : "") + (o - b).toFixed(1);
    const runs = samples[ours]![key].length;
    console.log(`${label.padEnd(40)} ns per call, median of ${runs} runs: deny-list ${b.toFixed(1)}, allow-list ${o.toFixed(1)} (${change})`);
  }
}
