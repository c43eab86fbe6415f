// Edge benchmark (not a test): `npm run bench:edge`.
// Starts a real fleet node and the edge (wrangler dev, HTTPS) like the tests do, then prints:
//  - median / p95 end-to-end latency of a synchronous Python hello and a cached C hello,
//    next to bare `/usr/bin/python3 -c` (the interpreter the sandbox runs, not a pyenv shim) and the bare C binary (target: median e2e − bare ≤ 15 ms);
//  - async throughput with 16 clients submitting and polling.
// BENCH_N (default 40) sets the samples per latency series, BENCH_SECS (default 15) the throughput run.
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { fleetMethods, serverStream } from "../proto/grpc-web/client.ts";
import { Client, admin, cleanup, sleep, startEdge, startFleet, tempDir } from "../test/edge/harness.ts";

const N = Number(process.env.BENCH_N ?? 40);
const SECS = Number(process.env.BENCH_SECS ?? 15);
const CLIENTS = 16;
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 50);

function stats(samples: number[]): { median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

const PY = "print('hello')";
const C = '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n';

const tmp = tempDir("bench");
const cFile = join(tmp, "hello.c");
const cBin = join(tmp, "hello");
execFileSync("bash", ["-c", `cat > ${cFile} <<'EOF'\n${C}EOF\ncc -O2 -o ${cBin} ${cFile}`]);

const fleet = await startFleet();
const edge = await startEdge({
  vars: {
    ENVIRONMENT: "development", SYNC_HOLD_MS: "30000", WATCHDOG_MS: "10000", HEALTH_TTL_MS: "5000",
    QUEUE_CAPACITY: "10000", RATE_LIMIT_PER_MIN: "1000000",
  },
});
try {
  const ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  if (reg.status !== 201) throw new Error(`register: ${reg.text}`);
  const keys = await Promise.all(Array.from({ length: CLIENTS }, () => ops.newKey()));
  const c0 = new Client(edge.base, keys[0]!.key);

  // One sample of each kind per iteration (bare, direct to the node, through the edge), interleaved
  // so that all three see the same background load on a shared machine.
  async function series(language: string, code: string, bare: () => void): Promise<{ bare: number[]; direct: number[]; e2e: number[] }> {
    const out = { bare: [] as number[], direct: [] as number[], e2e: [] as number[] };
    for (let i = 0; i < N + 3; i++) {
      let t0 = performance.now();
      bare();
      const tb = performance.now() - t0;
      t0 = performance.now();
      let ok = false;
      const req = { submissionId: crypto.randomUUID(), language, code, stdin: "", detachOnDisconnect: false, tenantId: "" };
      for await (const ev of serverStream(fleet, fleetMethods.execute, req)) if (ev.completed) ok = ev.completed.result?.verdict === 1;
      if (!ok) throw new Error(`direct ${language} failed`);
      const td = performance.now() - t0;
      t0 = performance.now();
      const r = await c0.submit({ language, code }, { wait: true });
      const te = performance.now() - t0;
      if (r.status !== 200 || r.json.verdict !== "AC") throw new Error(`${language}: ${r.status} ${r.text.slice(0, 300)}`);
      if (i >= 3) {
        // The first iterations warm up (and, for C, fill the compile cache).
        out.bare.push(tb);
        out.direct.push(td);
        out.e2e.push(te);
      }
    }
    return out;
  }
  const run = (cmd: string, args: string[]) => () => {
    const r = spawnSync(cmd, args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  };
  const py = await series("python", PY, run("/usr/bin/python3", ["-c", PY]));
  const cc = await series("c", C, run(cBin, []));
  const [barePy, dirPy, e2ePy] = [stats(py.bare), stats(py.direct), stats(py.e2e)];
  const [bareC, dirC, e2eC] = [stats(cc.bare), stats(cc.direct), stats(cc.e2e)];

  // Throughput: 16 clients, each submits async and polls its result until terminal, in a loop.
  let done = 0;
  let errors = 0;
  const lat: number[] = [];
  const stopAt = Date.now() + SECS * 1000;
  const t0 = performance.now();
  await Promise.all(keys.map(async (k) => {
    const c = new Client(edge.base, k.key);
    while (Date.now() < stopAt) {
      const s0 = performance.now();
      const r = await c.submit({ language: "python", code: PY });
      if (r.status !== 202) {
        errors++;
        await sleep(50);
        continue;
      }
      for (;;) {
        await sleep(POLL_MS);
        const p = await c.result(r.json.id);
        if (p.json?.job_status === "completed" || p.json?.job_status === "error") {
          if (p.json.job_status === "completed") done++;
          else errors++;
          lat.push(performance.now() - s0);
          break;
        }
      }
    }
  }));
  const elapsed = (performance.now() - t0) / 1000;
  const tp = stats(lat);
  const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
  console.log(`
codecell edge benchmark  (N=${N} per series; fleet slots=${(await c0.call("GET", "/api/health")).json.workers})

                              median        p95
  bare python3 -c            ${ms(barePy.median)}  ${ms(barePy.p95)}
  e2e python hello (sync)    ${ms(e2ePy.median)}  ${ms(e2ePy.p95)}    overhead ${ms(e2ePy.median - barePy.median)} (target ≤ 15 ms)
  direct node, python        ${ms(dirPy.median)}  ${ms(dirPy.p95)}    edge share ${ms(e2ePy.median - dirPy.median)}
  bare C binary              ${ms(bareC.median)}  ${ms(bareC.p95)}
  e2e C hello, cached (sync) ${ms(e2eC.median)}  ${ms(e2eC.p95)}    overhead ${ms(e2eC.median - bareC.median)} (target ≤ 15 ms)
  direct node, C cached      ${ms(dirC.median)}  ${ms(dirC.p95)}    edge share ${ms(e2eC.median - dirC.median)}
  ("direct node" = gRPC-Web Execute straight to the fleet node, no edge: the edge's own cost is the "edge share")

  async throughput, ${CLIENTS} clients submitting + polling every ${POLL_MS} ms for ${elapsed.toFixed(1)} s:
    ${(done / elapsed).toFixed(1)} completed/s (${done} completed, ${errors} errors); submit→result median ${ms(tp.median)}, p95 ${ms(tp.p95)}
`);
} finally {
  await edge.stop();
  await fleet.stop();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
  cleanup(tmp);
}
