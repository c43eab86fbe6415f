// Edge benchmark (not a test): `npm run bench:edge`.
// Starts a real fleet node and the edge (scripts/edge-dev.ts, HTTPS) like the tests do, then prints, each
// figure beside its node-only baseline measured in the same run:
//  - latency: a synchronous Python hello and a cached C hello end to end, beside bare
//    `/usr/bin/python3 -c` / the bare C binary and the same run sent straight to the node
//    (target: sync Python e2e − bare ≤ 10 ms), with where the edge's share went, hop by hop
//    (the Server-Timing header of a synchronous submit);
//  - throughput at saturation: CLIENTS concurrent synchronous cached-C submits through the edge
//    (one API key each, limits that do not bind) beside the same concurrency straight to the node
//    (target: edge ≥ 50 % of node-only), with the CPU milliseconds per run spent in workerd (our
//    Worker, its Durable Objects and the TLS termination: workerd serves HTTPS itself, there is no
//    separate TLS proxy), in the launcher's Node process (scripts/edge-dev.ts; idle once started)
//    and in the fleet node (its service, launcher and sandboxes).
// BENCH_N (default 40) sets the samples per latency series, BENCH_SECS (default 10) each
// throughput run, BENCH_CLIENTS (default 16) the concurrency.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fleetMethods, serverStream } from "../proto/grpc-web/client.ts";
import { Client, admin, cleanup, startEdge, startFleet, tempDir } from "../scripts/stack/index.ts";

const N = Number(process.env.BENCH_N ?? 40);
const SECS = Number(process.env.BENCH_SECS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);

function stats(samples: number[]): { median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

/** CPU time (user + system, ms) of a process so far, from /proc; 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** A process's command line, arguments joined by spaces; "" once it is gone. */
function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Every process below `root`, by command name (wrangler's Node process's children: workerd, esbuild). */
function descendants(root: number): Map<number, string> {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      comm.set(Number(entry), stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")));
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone
    }
  }
  const below = new Map<number, string>();
  for (const pid of comm.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        below.set(pid, comm.get(pid)!);
        break;
      }
    }
  }
  return below;
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
    QUEUE_CAPACITY: "10000", RATE_LIMIT_PER_MIN: "1000000", MAX_IN_FLIGHT: "1000",
  },
});
try {
  const ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  if (reg.status !== 201) throw new Error(`register: ${reg.text}`);
  const keys = await Promise.all(Array.from({ length: CLIENTS }, () => ops.newKey()));
  const c0 = new Client(edge.base, keys[0]!.key);
  const hops = new Map<string, number[]>();

  async function direct(language: string, code: string): Promise<void> {
    const req = { submissionId: crypto.randomUUID(), language, code, stdin: "", detachOnDisconnect: false, tenantId: "" };
    let ok = false;
    for await (const ev of serverStream(fleet, fleetMethods.execute, req)) if (ev.completed) ok = ev.completed.result?.verdict === 1;
    if (!ok) throw new Error(`direct ${language} failed`);
  }
  async function viaEdge(client: Client, language: string, code: string, keepHops: boolean): Promise<void> {
    const r = await client.submit({ language, code }, { wait: true });
    if (r.status !== 200 || r.json.verdict !== "AC") throw new Error(`${language}: ${r.status} ${r.text.slice(0, 300)}`);
    if (!keepHops) return;
    for (const part of String(r.headers["server-timing"] ?? "").split(",")) {
      const m = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
      if (m) hops.set(m[1]!, [...(hops.get(m[1]!) ?? []), Number(m[2])]);
    }
  }

  // One sample of each kind per iteration (bare, direct to the node, through the edge), interleaved
  // so that all three see the same background load on a shared machine.
  async function series(language: string, code: string, bare: () => void): Promise<{ bare: number[]; direct: number[]; e2e: number[] }> {
    const out = { bare: [] as number[], direct: [] as number[], e2e: [] as number[] };
    for (let i = 0; i < N + 3; i++) {
      let t0 = performance.now();
      bare();
      const tb = performance.now() - t0;
      t0 = performance.now();
      await direct(language, code);
      const td = performance.now() - t0;
      t0 = performance.now();
      await viaEdge(c0, language, code, language === "python" && i >= 3);
      const te = performance.now() - t0;
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

  // Throughput: CLIENTS loops of synchronous cached-C runs for SECS, through the edge or straight to
  // the node, with the CPU each process spent meanwhile.
  // One workerd below the launcher: it terminates TLS on the public port and runs the Worker and
  // its Durable Objects.
  const edgeTree = edge.proc.pid ? [...descendants(edge.proc.pid).entries()] : [];
  const procs = {
    workerd: edgeTree.filter(([, comm]) => comm === "workerd").map(([pid]) => pid),
    launcher: [...(edge.proc.pid ? [edge.proc.pid] : []), ...edgeTree.filter(([, comm]) => comm !== "workerd").map(([pid]) => pid)],
    node: fleet.proc.pid ? [fleet.proc.pid, ...descendants(fleet.proc.pid).keys()] : [],
  };
  if (procs.workerd.length !== 1) {
    throw new Error(`expected one workerd process below the edge: ${procs.workerd.map((pid) => cmdline(pid)).join(" | ")}`);
  }
  const cpuNow = () => Object.fromEntries(Object.entries(procs).map(([k, pids]) => [k, pids.reduce((sum, pid) => sum + cpuMs(pid), 0)]));
  async function saturate(one: (client: number) => Promise<void>): Promise<{ perSec: number; cpu: Record<string, number> }> {
    let done = 0;
    const before = cpuNow();
    const stopAt = Date.now() + SECS * 1000;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, async (_, i) => {
      while (Date.now() < stopAt) {
        await one(i);
        done++;
      }
    }));
    const seconds = (performance.now() - t0) / 1000;
    const after = cpuNow();
    const cpu = Object.fromEntries(Object.keys(before).map((k) => [k, (after[k]! - before[k]!) / done]));
    return { perSec: done / seconds, cpu };
  }
  const clients = keys.map((k) => new Client(edge.base, k.key));
  const nodeOnly = await saturate(() => direct("c", C));
  const throughEdge = await saturate((i) => viaEdge(clients[i]!, "c", C, false));

  const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
  const hopRows = [...hops.entries()].map(([hop, v]) => `    ${hop.padEnd(22)} ${ms(stats(v).median)}`).join("\n");
  const cpuRow = (r: { cpu: Record<string, number> }) =>
    `workerd ${r.cpu.workerd!.toFixed(2)}, TLS proxy none (in workerd), launcher ${r.cpu.launcher!.toFixed(2)}, ` +
    `fleet node ${r.cpu.node!.toFixed(2)} ms CPU per run`;
  const ratio = throughEdge.perSec / nodeOnly.perSec;
  const overheadPy = e2ePy.median - barePy.median;
  console.log(`
codecell edge benchmark  (N=${N} per latency series; fleet run slots=${(await c0.call("GET", "/api/health")).json.workers})

                              median        p95
  bare python3 -c            ${ms(barePy.median)}  ${ms(barePy.p95)}
  direct node, python        ${ms(dirPy.median)}  ${ms(dirPy.p95)}
  e2e python hello (sync)    ${ms(e2ePy.median)}  ${ms(e2ePy.p95)}    e2e − bare ${ms(overheadPy)} (target ≤ 10 ms: ${overheadPy <= 10 ? "met" : "missed"}); edge share ${ms(e2ePy.median - dirPy.median)}
  bare C binary              ${ms(bareC.median)}  ${ms(bareC.p95)}
  direct node, C cached      ${ms(dirC.median)}  ${ms(dirC.p95)}
  e2e C hello, cached (sync) ${ms(e2eC.median)}  ${ms(e2eC.p95)}    e2e − bare ${ms(e2eC.median - bareC.median)}; edge share ${ms(e2eC.median - dirC.median)}
  ("direct node" = gRPC-Web Execute straight to the fleet node, no edge)

  where a synchronous Python submit spends its time inside the edge (Server-Timing, medians):
${hopRows}
    (edge = the Worker's whole handling; in_submission = SubmissionDO.create from entry to answer;
     key_to_submission = the KeyDO↔SubmissionDO round trip outside it; enqueue = the scheduler call;
     node_first_event / node_run = the Execute stream; the terminal write's durability shows in
     key_to_submission, since the answer waits for it)

  throughput at saturation, ${CLIENTS} concurrent synchronous cached-C runs for ${SECS} s each:
    node only (gRPC-Web)     ${nodeOnly.perSec.toFixed(1).padStart(7)} runs/s    ${cpuRow(nodeOnly)}
    through the edge         ${throughEdge.perSec.toFixed(1).padStart(7)} runs/s    ${cpuRow(throughEdge)}
    edge / node-only         ${(ratio * 100).toFixed(0).padStart(6)} %        (target ≥ 50 %: ${ratio >= 0.5 ? "met" : "missed"})
    (CPU: workerd runs the Worker, its Durable Objects and the TLS termination; "launcher" is
     scripts/edge-dev.ts's Node process; "fleet node" its service, launcher and sandboxes)
`);
} finally {
  await edge.stop();
  await fleet.stop();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
  cleanup(tmp);
}
