// npm run bench:languages — hello world per language through the sandbox, next to the bare
// toolchain doing the same outside any sandbox, medians side by side in one run:
//   warm:  sandbox with a compile-cache hit (or the interpreter)  vs  bare run of the program
//   cold:  sandbox compile + run (a cache miss: each sample's source differs by a comment)
//          vs  bare compile + run with the same flags
// TypeScript's bare run is `node` on the JavaScript its compile step emits (emitted on the host
// by the same command). Target (docs/languages.md): warm at most 15 ms over bare.
// BENCH_REPS scales the repetitions (default 1 → 15 warm, 5 cold, 3 cold for java).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "../fleet/src/node-engine.ts";
import { LANGUAGES, type Toolchain } from "../fleet/src/languages/table.ts";
import { detectToolchains } from "../fleet/src/languages/toolchains.ts";
import { typescriptEmitArgv } from "../languages/typescript/emit.ts";
import { summarize } from "./stats.ts";

const scale = Number(process.env.BENCH_REPS ?? 1);
/** The target for a warm run over its bare run (docs/languages.md). */
const TARGET_MS = 15;
const dir = mkdtempSync(join(tmpdir(), "bench-languages-"));
const engine = await createEngine({ stateDir: join(dir, "state"), slots: 1, cgroupParent: "codecell-bench" });
if (!engine.health().ready) throw new Error(`engine not ready: ${engine.health().reasons.join("; ")}`);
const detected = await detectToolchains(LANGUAGES);

/** Host path of a toolchain binary (sandbox paths map back through the binds). */
function host(toolchain: Toolchain, tool: string): string {
  const path = toolchain.paths[tool]!;
  for (const bind of toolchain.binds) {
    if (path === bind.sandboxPath) return bind.hostPath;
    if (path.startsWith(`${bind.sandboxPath}/`)) return bind.hostPath + path.slice(bind.sandboxPath.length);
  }
  return path;
}

function sh(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd, stdio: ["ignore", "pipe", "pipe"], env: { PATH: "/usr/bin:/bin", HOME: cwd, LANG: "C.UTF-8", ...env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${argv.join(" ")}: exit ${code}: ${err}`))));
  });
}

interface Case {
  language: string;
  source: string;
  code: string;
  /** Bare compile (in `cwd`), or undefined for interpreters. */
  compile?: (cwd: string) => Promise<unknown>;
  run: (cwd: string) => Promise<string>;
}

const go = (cwd: string) => ({ GO111MODULE: "off", CGO_ENABLED: "0", GOCACHE: join(cwd, "go-cache"), GOPATH: join(cwd, "go"), GOTOOLCHAIN: "local" });

function cases(): Case[] {
  const t = (name: string) => detected.get(name)?.toolchain;
  const list: (Case | undefined)[] = [
    t("python") && { language: "python", source: "main.py", code: 'print("hello, world")', run: (cwd) => sh(["/usr/bin/python3", "main.py"], cwd) },
    t("c") && {
      language: "c",
      source: "main.c",
      code: '#include <stdio.h>\nint main(void) { puts("hello, world"); return 0; }',
      compile: (cwd) => sh(["/usr/bin/gcc", "-std=c17", "-O2", "-pipe", "-o", "main", "main.c", "-lm"], cwd),
      run: (cwd) => sh(["./main"], cwd),
    },
    t("cpp") && {
      language: "cpp",
      source: "main.cpp",
      code: '#include <iostream>\nint main() { std::cout << "hello, world\\n"; }',
      compile: (cwd) => sh(["/usr/bin/g++", "-std=c++20", "-O2", "-pipe", "-o", "main", "main.cpp", "-lm"], cwd),
      run: (cwd) => sh(["./main"], cwd),
    },
    t("java") && {
      language: "java",
      source: "Main.java",
      code: 'public class Main { public static void main(String[] a) { System.out.println("hello, world"); } }',
      compile: (cwd) => sh([t("java")!.paths.javac!, "-d", "classes", "Main.java"], cwd),
      run: (cwd) => sh([t("java")!.paths.java!, "-cp", "classes", "Main"], cwd),
    },
    t("javascript") && {
      language: "javascript",
      source: "main.js",
      code: 'console.log("hello, world")',
      run: (cwd) => sh([host(t("javascript")!, "node"), "main.js"], cwd),
    },
    t("typescript") && {
      language: "typescript",
      source: "main.ts",
      code: 'const greeting: string = "hello, world";\nconsole.log(greeting)',
      compile: (cwd) => {
        rmSync(join(cwd, "main.js"), { force: true });
        return sh(typescriptEmitArgv(host(t("typescript")!, "node"), "main.ts", "main.js"), cwd);
      },
      run: (cwd) => sh([host(t("typescript")!, "node"), "main.js"], cwd),
    },
    t("go") && {
      language: "go",
      source: "main.go",
      code: 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello, world") }',
      // A fresh build cache per bare compile too: the sandbox never shares one between runs.
      compile: async (cwd) => {
        rmSync(join(cwd, "go-cache"), { recursive: true, force: true });
        return sh([t("go")!.paths.go!, "build", "-o", "main", "main.go"], cwd, go(cwd));
      },
      run: (cwd) => sh(["./main"], cwd),
    },
    t("rust") && {
      language: "rust",
      source: "main.rs",
      code: 'fn main() { println!("hello, world"); }',
      compile: (cwd) => sh([host(t("rust")!, "rustc"), "--edition", "2021", "-O", "-o", "main", "main.rs"], cwd),
      run: (cwd) => sh(["./main"], cwd),
    },
  ];
  return list.filter((c): c is Case => !!c);
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const comment = (language: string, nonce: string) => (language === "python" ? `\n# ${nonce}\n` : `\n// ${nonce}\n`);
const med = (samples: number[]) => summarize(samples).median;
const fmt = (ms: number) => `${ms.toFixed(1)}`.padStart(8);

const rows: string[] = [];
let nonce = 0;
for (const c of cases()) {
  const cwd = join(dir, c.language);
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, c.source), c.code);
  const sandboxed = async (code: string, expectHit?: boolean) => {
    const outcome = await engine.execute({ language: c.language, code, stdin: "" });
    if (outcome.result.verdict !== "AC" || outcome.result.stdout !== "hello, world\n") throw new Error(`${c.language}: ${JSON.stringify(outcome.result)}`);
    if (expectHit !== undefined && outcome.compileCacheHit !== expectHit) throw new Error(`${c.language}: cache hit ${outcome.compileCacheHit}`);
  };
  // Warm-up: page cache, the first compile, the cache entry.
  if (c.compile) await c.compile(cwd);
  await c.run(cwd);
  await sandboxed(c.code);
  await sandboxed(c.code);

  const warmReps = 15 * scale;
  const bareRun: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < warmReps; i++) {
    bareRun.push(await time(() => c.run(cwd)));
    warm.push(await time(() => sandboxed(c.code, c.compile ? true : false)));
  }
  let coldCells = "       -        -        -";
  if (c.compile) {
    const coldReps = (c.language === "java" ? 3 : 5) * scale;
    const bareCold: number[] = [];
    const cold: number[] = [];
    for (let i = 0; i < coldReps; i++) {
      const code = c.code + comment(c.language, `bench ${process.pid} ${nonce++}`);
      writeFileSync(join(cwd, c.source), code);
      bareCold.push(await time(async () => { await c.compile!(cwd); await c.run(cwd); }));
      cold.push(await time(() => sandboxed(code, false)));
    }
    coldCells = `${fmt(med(bareCold))} ${fmt(med(cold))} ${`${((med(cold) / med(bareCold) - 1) * 100).toFixed(0)}%`.padStart(8)}`;
  }
  const version = detected.get(c.language)!.info.version;
  const over = med(warm) - med(bareRun);
  const overCell = `${over >= 0 ? "+" : ""}${over.toFixed(1)}`.padStart(8);
  const metCell = (over <= TARGET_MS ? "yes" : "no").padStart(5);
  rows.push(`${c.language.padEnd(11)} ${version.padEnd(17)} ${fmt(med(bareRun))} ${fmt(med(warm))} ${overCell} ${metCell}   ${coldCells}`);
  console.error(`${c.language} done`);
}
await engine.close();
rmSync(dir, { recursive: true, force: true });

console.log("hello world, median wall ms (bare = the toolchain outside any sandbox)");
console.log(
  `${"language".padEnd(11)} ${"toolchain".padEnd(17)} ${"bare run".padStart(8)} ${"warm".padStart(8)} ` +
    `${"Δ ms".padStart(8)} ${`≤${TARGET_MS}`.padStart(5)}   ${"bare c+r".padStart(8)} ${"cold".padStart(8)} ${"Δ %".padStart(8)}`,
);
for (const line of rows) console.log(line);
console.log(
  `warm = sandbox run with a compile-cache hit (interpreters: every run); ≤${TARGET_MS}: warm at most ${TARGET_MS} ms over bare; ` +
    "cold = sandbox compile + run (cache miss)",
);
