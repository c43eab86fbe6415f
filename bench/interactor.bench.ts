// npm run bench:interactor — the round trip of one exchanged line in an interactive problem: a C
// program and a C interactor (cached after the warm-up) trade N lines through the engine, each
// side in its own sandbox and the two joined by pipes, beside the same two programs joined by
// pipes outside any sandbox (bare), in the same run. The per-line figure is the difference
// between a long and a short exchange divided by the extra lines, so each side's start-up cancels
// out (target: at most 0.2 ms per line through the sandbox). BENCH_REPS sets the samples (default 5).
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "../fleet/src/node-engine.ts";
import { summarize } from "./stats.ts";

const SHORT = 1_000;
const LONG = 21_000;
const reps = Number(process.env.BENCH_REPS ?? 5);

/** Asks 0, 1, 2, ... and reads each answer, until the interactor says how many it wants. */
const PROGRAM = `#include <stdio.h>
int main(void) {
  long n, reply;
  if (scanf("%ld", &n) != 1) return 1;
  for (long i = 0; i < n; i++) {
    printf("%ld\\n", i);
    fflush(stdout);
    if (scanf("%ld", &reply) != 1 || reply != i + 1) return 2;
  }
  return 0;
}
`;
/** Reads n from its input file, tells the program, answers each number with the next one. */
const INTERACTOR = `#include <stdio.h>
int main(int argc, char **argv) {
  long n, x;
  FILE *in = fopen(argv[1], "r");
  if (!in || fscanf(in, "%ld", &n) != 1) return 3;
  printf("%ld\\n", n);
  fflush(stdout);
  for (long i = 0; i < n; i++) {
    if (scanf("%ld", &x) != 1 || x != i) { fprintf(stderr, "wrong answer at %ld\\n", i); return 1; }
    printf("%ld\\n", x + 1);
    fflush(stdout);
  }
  FILE *out = fopen(argv[2], "w");
  if (out) fprintf(out, "%ld\\n", n);
  return 0;
}
`;

const dir = mkdtempSync(join(tmpdir(), "bench-interactor-"));
const engine = await createEngine({ stateDir: join(dir, "state"), slots: 1, cgroupParent: "codecell-bench" });
if (!engine.health().ready) throw new Error(`engine not ready: ${engine.health().reasons.join("; ")}`);

/** The program's wall time (init's clock: from its exec to its exit) for an exchange of `lines`. */
async function sandboxed(lines: number): Promise<number> {
  const outcome = await engine.execute({ language: "c", code: PROGRAM, stdin: `${lines}\n`, interactor: { language: "c", code: INTERACTOR } });
  if (outcome.result.verdict !== "AC") throw new Error(`${outcome.result.verdict}: ${outcome.result.error_message}`);
  return outcome.result.wall_time_secs * 1000;
}

// The same two programs, built the same way, joined by pipes with no sandbox.
const build = (name: string, code: string) => {
  writeFileSync(join(dir, `${name}.c`), code);
  execFileSync("gcc", ["-O2", "-static", "-o", join(dir, name), join(dir, `${name}.c`)]);
  return join(dir, name);
};
const programPath = build("program", PROGRAM);
const interactorPath = build("interactor", INTERACTOR);

async function bare(lines: number): Promise<number> {
  writeFileSync(join(dir, "input.txt"), `${lines}\n`);
  const start = performance.now();
  const program = spawn(programPath, [], { stdio: ["pipe", "pipe", "inherit"] });
  const interactor = spawn(interactorPath, [join(dir, "input.txt"), join(dir, "output.txt")], { stdio: [program.stdout, program.stdin, "inherit"] });
  await Promise.all([program, interactor].map((child) => new Promise((resolve) => child.on("exit", resolve))));
  return performance.now() - start;
}

await sandboxed(SHORT); // warm-up: both compiles, then cached
await bare(SHORT);
const perLine = { sandboxed: [] as number[], bare: [] as number[] };
for (let i = 0; i < reps; i++) {
  perLine.sandboxed.push(((await sandboxed(LONG)) - (await sandboxed(SHORT))) / (LONG - SHORT));
  perLine.bare.push(((await bare(LONG)) - (await bare(SHORT))) / (LONG - SHORT));
}
await engine.close();
rmSync(dir, { recursive: true, force: true });

const fmt = (samples: number[]) => {
  const { median, p95 } = summarize(samples);
  return `median ${(median * 1000).toFixed(1).padStart(6)} µs   p95 ${(p95 * 1000).toFixed(1).padStart(6)} µs`;
};
console.log(`round trip of one exchanged line (${LONG} − ${SHORT} lines), ${reps} samples each, same run:`);
console.log(`  bare: two processes joined by pipes         ${fmt(perLine.bare)}`);
console.log(`  codecell: two sandboxes joined by pipes     ${fmt(perLine.sandboxed)}`);
console.log(`  target: at most 200 µs per line through the sandbox`);
