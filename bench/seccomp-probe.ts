// One block of the seccomp comparison (bench/seccomp-compare.ts), run by a tree's own sandbox: this
// file is copied into the base commit's checkout and run there too, so each side runs its own
// launcher with its own TypeScript. Prints one JSON line: hello run times (ms) and ns per call.
//   node bench/seccomp-probe.ts HELLO LOOP ROUNDS STATE_DIR
import { RUN_LIMITS } from "../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../fleet/src/sandbox/sandbox.ts";

const [hello, loop, rounds, stateDir] = process.argv.slice(2) as [string, string, string, string];
const sandbox = await Sandbox.create({ stateDir, slots: 1 });
if (!sandbox.health().ready) throw new Error(`sandbox not ready: ${sandbox.health().reasons.join("; ")}`);
const run = async (argv: string[], path: string): Promise<string> => {
  const { result } = await sandbox.run({ argv, binds: [{ hostPath: path, sandboxPath: argv[0]! }], limits: RUN_LIMITS });
  if (result.verdict !== "AC") throw new Error(JSON.stringify(result).slice(0, 500));
  return result.stdout;
};
const out = { hello: [] as number[], getppid: [] as number[], prlimit: [] as number[] };
await run(["/opt/hello"], hello); // warm-up
for (let round = 0; round < Number(rounds); round++) {
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    await run(["/opt/hello"], hello);
    out.hello.push(performance.now() - start);
  }
  const [getppid, prlimit] = (await run(["/opt/loop", "200000"], loop)).trim().split(" ").map(Number);
  out.getppid.push(getppid!);
  out.prlimit.push(prlimit!);
}
await sandbox.close().catch((error: Error) => console.error(`close: ${error.message}`)); // the figures are taken
console.log(JSON.stringify(out));
