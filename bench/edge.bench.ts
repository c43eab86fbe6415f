// Edge benchmark (not a test): `npm run bench:edge`.
// Starts a real fleet node and the edge (scripts/edge-dev.ts, HTTPS: the stack `npm start` runs, with
// limits that do not bind) like the tests do, and measures it twice: on the fresh stack, and again
// after a bounded load (edge-load.ts) has left its state behind (stored records, idempotency keys,
// wake-ups, rate windows). Each measurement is REPS repetitions (edge-rep.ts); every figure printed
// is the median over the repetitions of each repetition's own median (or p95), beside its baseline
// measured in the same repetitions:
//  - latency: a synchronous Python hello and a cached C hello end to end, through the stack's
//    client and through a plain undici fetch client (keep-alive), beside bare `/usr/bin/python3 -c`
//    / the bare C binary and the same run sent straight to the node (target: sync Python e2e − bare
//    ≤ 10 ms), and where the edge's share went, hop by hop (Server-Timing of a synchronous submit);
//  - throughput at saturation: CLIENTS concurrent synchronous cached-C submits through the edge (one
//    API key each) beside the same concurrency straight to the node (target: edge ≥ 60 % of
//    node-only), with the CPU milliseconds per run spent in workerd (our Worker, its Durable Objects
//    and the TLS termination), in the launcher's Node process and in the fleet node.
// The edge's stored state (its Durable Objects' SQLite files, KV) is thrown away at the end, so it
// lives in memory (/dev/shm): on this machine's disk, workerd fsyncs each Durable Object commit on
// its one thread (about 1.8 a run), which Cloudflare's storage does not do on the isolate's. The
// throughput is then measured once more, for reference, on a second edge whose state is on disk.
// BENCH_REPS (5) repetitions, BENCH_N (20) samples per latency series and repetition, BENCH_SECS
// (10) each throughput run, BENCH_CLIENTS (16) its concurrency, BENCH_LOAD_SECS (600) the load
// phase (shorten it for a quick run), BENCH_LOAD_CLIENTS (8) its concurrent clients,
// BENCH_DISK_REPS (3) the throughput pairs with the state on disk (0 skips them).
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { Client, admin, cleanup, memoryTempDir, startEdge, startFleet, tempDir, type Edge, type Fleet } from "../scripts/stack/index.ts";
import { diskBytes, stackProcesses } from "./edge-processes.ts";
import { load } from "./edge-load.ts";
import { printReport } from "./edge-report.ts";
import { C, repetition, throughputPair, type RepSetup, type Repetition, type ThroughputPair } from "./edge-rep.ts";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const REPS = env("BENCH_REPS", 5);
const N = env("BENCH_N", 20);
const SECS = env("BENCH_SECS", 10);
const CLIENTS = env("BENCH_CLIENTS", 16);
const LOAD_SECS = env("BENCH_LOAD_SECS", 600);
const LOAD_CLIENTS = env("BENCH_LOAD_CLIENTS", 8);
const DISK_REPS = env("BENCH_DISK_REPS", 3);
/** Limits that do not bind: the bench measures the path, not the policy. */
const VARS = {
  ENVIRONMENT: "development", SYNC_HOLD_MS: "30000", WATCHDOG_MS: "10000", HEALTH_TTL_MS: "5000",
  QUEUE_CAPACITY: "10000", RATE_LIMIT_PER_MIN: "1000000", MAX_IN_FLIGHT: "1000",
};

const tmp = tempDir("bench");
const cFile = join(tmp, "hello.c");
const cBin = join(tmp, "hello");
execFileSync("bash", ["-c", `cat > ${cFile} <<'EOF'\n${C}EOF\ncc -O2 -o ${cBin} ${cFile}`]);

const fleet = await startFleet();
const edge = await startEdge({ persistDir: memoryTempDir("edge"), vars: VARS });
try {
  const { setup, clients } = await ready(edge, fleet, Math.max(CLIENTS, LOAD_CLIENTS));
  /** The machine's load average over each phase's last minute, as it ends (other work shares the cores). */
  const load1: number[] = [];
  const phase = async (label: string): Promise<Repetition[]> => {
    const reps: Repetition[] = [];
    for (let r = 1; r <= REPS; r++) {
      console.error(`[bench:edge] ${label}: repetition ${r} of ${REPS}`);
      reps.push(await repetition(setup));
    }
    load1.push(loadavg()[0]!);
    return reps;
  };
  const fresh = await phase("fresh stack");
  const stateBefore = diskBytes(edge.persistDir);
  console.error(`[bench:edge] load: ${LOAD_CLIENTS} clients for ${LOAD_SECS} s`);
  const loadReport = await load(clients.slice(0, LOAD_CLIENTS), LOAD_SECS);
  const stateAfter = diskBytes(edge.persistDir);
  const loaded = await phase(`after ${LOAD_SECS} s of load`);
  const slots = (await clients[0]!.call("GET", "/api/health")).json.workers as number;
  const onDisk = DISK_REPS > 0 ? await stateOnDisk(fleet) : [];
  printReport({
    load1, reps: REPS, n: N, secs: SECS, clients: CLIENTS, slots, loadSecs: LOAD_SECS, loadClients: LOAD_CLIENTS,
    fresh, loaded, loadReport, stateBefore, stateAfter, onDisk, stateParent: dirname(edge.persistDir),
  });
} finally {
  await edge.stop();
  await fleet.stop();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
  cleanup(tmp);
}

/** The node registered with `edge`, and `keyCount` keys' clients (the first CLIENTS of them saturate). */
async function ready(edge: Edge, node: Fleet, keyCount: number): Promise<{ setup: RepSetup; clients: Client[] }> {
  const ops = admin(edge);
  await ops.mustRegisterNode(node);
  const keys = await Promise.all(Array.from({ length: keyCount }, () => ops.newKey()));
  const clients = keys.map((k) => new Client(edge.base, k.key));
  const setup: RepSetup = {
    fleet: node, base: edge.base, key: keys[0]!.key, clients: clients.slice(0, CLIENTS), n: N, secs: SECS, cBin,
    procs: stackProcesses(edge.proc.pid, node.proc.pid),
  };
  return { setup, clients };
}

/** The throughput pairs again, through a fresh edge whose state is in the temp dir on disk. */
async function stateOnDisk(node: Fleet): Promise<ThroughputPair[]> {
  const diskEdge = await startEdge({ vars: VARS });
  try {
    const { setup } = await ready(diskEdge, node, CLIENTS);
    for (let i = 0; i < 20; i++) await setup.clients[0]!.submit({ language: "c", code: C }, { wait: true });
    const pairs: ThroughputPair[] = [];
    for (let r = 1; r <= DISK_REPS; r++) {
      console.error(`[bench:edge] state on disk: throughput pair ${r} of ${DISK_REPS}`);
      pairs.push(await throughputPair(setup));
    }
    return pairs;
  } finally {
    await diskEdge.stop();
    cleanup(diskEdge.persistDir);
  }
}
