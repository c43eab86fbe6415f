// Live-session benchmark (not a test): `npm run bench:live-session`.
// Starts a real fleet node and the edge (scripts/edge-dev.ts, HTTPS) like the tests do. One echo
// program per series; each sample is one line's round trip: written to the program's stdin, read
// back from its stdout. Through the edge (a native session: WebSocket → SessionDO → SendInput to the
// node; the node's output → SubmissionDO → SessionDO → WebSocket) beside the same round trip made
// straight to the node (SendInput and the Execute stream over gRPC-Web). Target: the edge's median
// at most 5 ms. BENCH_N (default 200) sets the round trips per series, after 20 of warm-up.
import { fleetMethods, serverStream, unary } from "../proto/grpc-web/client.ts";
import { Client, LOCAL_TEST_VARS, admin, cleanup, startEdge, startFleet } from "../scripts/stack/index.ts";
import { SessionSocket } from "../scripts/stack/session-socket.ts";
import { summarize } from "./stats.ts";

const N = Number(process.env.BENCH_N ?? 200);
const WARM = 20;
const ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n";

const fleet = await startFleet();
const edge = await startEdge({ vars: LOCAL_TEST_VARS });
try {
  const ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  if (reg.status !== 201) throw new Error(`register: ${reg.text}`);
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
      for await (const ev of serverStream(fleet, fleetMethods.execute, { submissionId, language: "python", code: ECHO, streamOutput: true, liveStdin: true }, abort.signal)) {
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
  const straight = await direct();
  const edged = await viaEdge();
  console.log(`one line's stdin → stdout round trip, ${N} samples each, same run:`);
  console.log(fmt("straight to the node (gRPC-Web)", straight));
  console.log(fmt("through the edge (native WebSocket session)", edged));
  const m = summarize(edged).median;
  console.log(`  the edge adds ${(m - summarize(straight).median).toFixed(2)} ms; its median ${m.toFixed(2)} ms (target ≤ 5 ms)`);
} finally {
  await edge.stop();
  await fleet.stop();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
}
