// Live-session benchmark (not a test): `npm run bench:live-session`.
// Starts a real fleet node and the edge (scripts/edge-dev.ts, HTTPS) like the tests do. One echo
// program per series; each sample is one line's round trip: written to the program's stdin, read
// back from its stdout. Through the edge (a native session: WebSocket → SessionDO → SendInput to the
// node; the node's output → SubmissionDO → SessionDO → WebSocket) beside the same round trip made
// straight to the node (SendInput and the Execute stream over gRPC-Web). Target: the edge's median
// at most 5 ms. BENCH_N (default 200) sets the round trips per series, after 20 of warm-up.
// Then memory: a client offers 10 MiB, then 40 MiB, to a program that never reads, ignoring the
// stdin window (the edge closes it, 4411) and keeping to it (it stalls); the resident memory of
// workerd and of the node is sampled meanwhile, its peak growth printed: it does not grow with
// what is offered.
import { fleetMethods, serverStream, unary } from "../proto/grpc-web/client.ts";
import { Client, LOCAL_TEST_VARS, admin, cleanup, startEdge, startFleet } from "../scripts/stack/index.ts";
import { SessionSocket } from "../scripts/stack/session-socket.ts";
import { summarize } from "./stats.ts";
import { descendants } from "./edge-processes.ts";
import { readFileSync } from "node:fs";

const N = Number(process.env.BENCH_N ?? 200);
const WARM = 20;
const ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n";

const fleet = await startFleet();
const edge = await startEdge({ vars: LOCAL_TEST_VARS });
try {
  const ops = admin(edge);
  await ops.mustRegisterNode(fleet);
  const { key } = await ops.newKey();
  const client = new Client(edge.base, key);

  async function viaEdge(): Promise<number[]> {
    const s = new SessionSocket(edge.base, "/api/sessions", { "x-api-key": client.key! });
    s.send({ type: "start", language: "python", code: ECHO });
    const accepted = await s.next((m) => m.type === "accepted" || m.type === "error");
    if (accepted.type !== "accepted") throw new Error(`session refused: ${JSON.stringify(accepted)}`);
    const samples: number[] = [];
    for (let i = 0; i < WARM + N; i++) {
      const line = `line ${i}\n`;
      const start = performance.now();
      s.send({ type: "stdin", data: line });
      await s.seen(line);
      if (i >= WARM) samples.push(performance.now() - start);
    }
    s.send({ type: "end" });
    await s.closed;
    return samples;
  }

  async function direct(): Promise<number[]> {
    const submissionId = crypto.randomUUID();
    let stdout = "";
    const waiting: { wake: (() => void) | null } = { wake: null };
    const abort = new AbortController();
    const stream = (async () => {
      const text = new TextDecoder();
      const request = { submissionId, language: "python", code: ECHO, streamOutput: true, liveStdin: true };
      for await (const ev of serverStream(fleet, fleetMethods.execute, request, abort.signal)) {
        if (ev.output) stdout += text.decode(ev.output.data, { stream: true });
        waiting.wake?.();
      }
    })();
    const seen = (text: string) => new Promise<void>((resolve) => {
      const check = () => (stdout.includes(text) ? resolve() : void (waiting.wake = check));
      check();
    });
    const samples: number[] = [];
    let offset = 0;
    for (let i = 0; i < WARM + N; i++) {
      const data = new TextEncoder().encode(`line ${i}\n`);
      const start = performance.now();
      for (;;) {
        try {
          await unary(fleet, fleetMethods.sendInput, { submissionId, offset, data }, 5_000);
          break;
        } catch (e) {
          if (i > 0) throw e; // the run registers just after Execute: only the first call may be early
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      offset += data.length;
      await seen(`line ${i}\n`);
      if (i >= WARM) samples.push(performance.now() - start);
    }
    await unary(fleet, fleetMethods.sendInput, { submissionId, offset, end: true }, 5_000);
    await stream;
    return samples;
  }

  const fmt = (label: string, samples: number[]) => {
    const { median, p95 } = summarize(samples);
    return `  ${label.padEnd(44)} median ${median.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms`;
  };
  const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  const workerd = [...descendants(edge.proc.pid!)].find(([, name]) => name === "workerd")?.[0];
  const nodePid = fleet.proc.pid!;

  /** Peak growth (MiB) of workerd's and the node's resident memory while 10 MiB is offered. */
  async function flood(keepWindow: boolean, offeredMiB: number): Promise<{ edge: number; node: number; close: number | null; taken: number }> {
    const s = new SessionSocket(edge.base, "/api/sessions", { "x-api-key": client.key! });
    s.send({ type: "start", language: "python", code: "import time\ntime.sleep(30)\n" });
    const accepted = await s.next((m) => m.type === "accepted");
    const base = { edge: rss(workerd!), node: rss(nodePid) };
    const peak = { ...base };
    const sampler = setInterval(() => {
      peak.edge = Math.max(peak.edge, rss(workerd!));
      peak.node = Math.max(peak.node, rss(nodePid));
    }, 20);
    const taken = () => Math.max(0, ...s.messages.filter((m) => m.type === "stdin_ack").map((m) => m.taken as number));
    const chunk = "a".repeat(64 * 1024);
    let close: number | null = null;
    void s.closed.then((c) => (close = c.code));
    for (let sent = 0, stalled = 0; sent < offeredMiB * 1024 * 1024 && close === null && stalled < 10; ) {
      if (!keepWindow || sent + chunk.length - taken() <= accepted.window) {
        s.send({ type: "stdin", data: chunk });
        sent += chunk.length;
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        const before = taken();
        await new Promise((resolve) => setTimeout(resolve, 100));
        stalled = taken() === before ? stalled + 1 : 0;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    clearInterval(sampler);
    if (close === null) s.send({ type: "signal", signal: "SIGKILL" });
    await s.closed;
    const mib = (b: number) => b / 1024 / 1024;
    return { edge: mib(peak.edge - base.edge), node: mib(peak.node - base.node), close, taken: taken() };
  }

  const straight = await direct();
  const edged = await viaEdge();
  console.log(`one line's stdin → stdout round trip, ${N} samples each, same run:`);
  console.log(fmt("straight to the node (gRPC-Web)", straight));
  console.log(fmt("through the edge (native WebSocket session)", edged));
  const m = summarize(edged).median;
  console.log(`  the edge adds ${(m - summarize(straight).median).toFixed(2)} ms; its median ${m.toFixed(2)} ms (target ≤ 5 ms)`);
  console.log("stdin offered to a program that never reads (caps: the edge holds at most the 1 MiB window, the node its 1 MiB buffer);");
  console.log("peak growth of resident memory while it is offered (transient copies included), in this order:");
  for (const [keep, mib] of [[false, 10], [false, 40], [true, 10], [true, 40]] as const) {
    const f = await flood(keep, mib);
    const how = `${mib} MiB, ${keep ? "keeping to the window (stalls)" : "ignoring the window"}`;
    console.log(
      `  ${how.padEnd(42)} node took ${(f.taken / 1024 / 1024).toFixed(2)} MiB, closed ${f.close ?? "by the client"}; ` +
        `workerd +${f.edge.toFixed(1)} MiB, node +${f.node.toFixed(1)} MiB`,
    );
  }
} finally {
  await edge.stop();
  await fleet.stop();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
}
