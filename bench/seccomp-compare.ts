// The seccomp allow-list beside the policy of a base commit (the deny-list it replaced), in one
// run: the base's launcher is built from `git show BASE:fleet/launcher/*` in a temp dir, and both
// launchers run the same programs pair by pair, so drift hits both alike. Part of
// `npm run bench:sandbox`; BENCH_SECCOMP_BASE picks the base (default: main).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RUN_LIMITS } from "../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../fleet/src/sandbox/sandbox.ts";
import { LAUNCHER_PATH } from "../fleet/src/sandbox/launcher.ts";
import { row, summarize, timeMany } from "./stats.ts";

const ROOT = join(import.meta.dirname, "..");

/** Builds the launcher of git revision `base` under dir; its path. */
function buildBaseLauncher(base: string, dir: string): string {
  const src = join(dir, "launcher");
  mkdirSync(src, { recursive: true });
  const files = execFileSync("git", ["-C", ROOT, "ls-tree", "--name-only", `${base}:fleet/launcher`], { encoding: "utf8" }).trim().split("\n");
  for (const file of files.filter((name) => /\.(c|h|sh)$/.test(name)))
    writeFileSync(join(src, file), execFileSync("git", ["-C", ROOT, "show", `${base}:fleet/launcher/${file}`]));
  execFileSync("sh", [join(src, "build.sh")]);
  return join(src, "build", "codecell-launcher");
}

export async function compareSeccompPolicies(dir: string, hello: string, runs: number): Promise<void> {
  const base = process.env.BENCH_SECCOMP_BASE ?? "main";
  const loop = join(dir, "syscall-loop");
  execFileSync("gcc", ["-O2", "-static", "-o", loop, join(import.meta.dirname, "fixtures", "syscall-loop.c")]);
  const launchers = { [`base (${base})`]: buildBaseLauncher(base, dir), "this tree": LAUNCHER_PATH };
  const sandboxes: Record<string, Sandbox> = {};
  for (const [name, launcherPath] of Object.entries(launchers))
    sandboxes[name] = await Sandbox.create({ stateDir: join(dir, `state-${Object.keys(sandboxes).length}`), slots: 1, launcherPath, anySeccompPolicy: true });
  const run = async (sandbox: Sandbox, argv: string[], path: string): Promise<string> => {
    const { result } = await sandbox.run({ argv, binds: [{ hostPath: path, sandboxPath: argv[0]! }], limits: RUN_LIMITS });
    if (result.verdict !== "AC") throw new Error(JSON.stringify(result));
    return result.stdout;
  };
  const hellos: Record<string, number[]> = {};
  const getppid: Record<string, number[]> = {};
  const prlimit: Record<string, number[]> = {};
  for (const name of Object.keys(sandboxes)) [hellos[name], getppid[name], prlimit[name]] = [[], [], []];
  for (let round = 0; round < runs / 10; round++) {
    for (const [name, sandbox] of Object.entries(sandboxes)) {
      hellos[name]!.push(...(await timeMany(10, () => run(sandbox, ["/opt/hello"], hello))));
      const [a, b] = (await run(sandbox, ["/opt/loop", "200000"], loop)).trim().split(" ").map(Number);
      getppid[name]!.push(a!);
      prlimit[name]!.push(b!);
    }
  }
  for (const sandbox of Object.values(sandboxes)) await sandbox.close();

  const [baseName, ours] = Object.keys(sandboxes) as [string, string];
  console.log(`\nseccomp: allow-list (this tree) beside ${baseName}, pair by pair, ${hellos[ours]!.length} runs each`);
  console.log(row(`full sandbox, static hello, ${baseName}`, hellos[baseName]!));
  console.log(row("full sandbox, static hello, this tree", hellos[ours]!, hellos[baseName]));
  for (const [label, samples] of [["getppid (number only)", getppid], ["prlimit64 read (argument rule)", prlimit]] as const) {
    const [b, o] = [summarize(samples[baseName]!).median, summarize(samples[ours]!).median];
    console.log(`${label.padEnd(40)} ns per call, median of ${samples[ours]!.length} runs: ${baseName} ${b.toFixed(1)}, this tree ${o.toFixed(1)} (${(o - b >= 0 ? "+" : "") + (o - b).toFixed(1)})`);
  }
}
