// Event-stream benchmark (not a test): `npm run bench:sse`.
// Starts a real fleet node and the edge (scripts/edge-dev.ts, HTTPS) like the tests do. A Python program
// writes its own clock (time.time(), ms), sleeps 500 ms, writes it again. The delay from a write
// to its receipt is measured through the edge (GET /api/result/{id}/events, the stdout events)
// beside the same program's Output events read straight from the node's gRPC-Web stream. Same
// machine, same clock. The first write races the client's connect: a first chunk written before
// the event stream was open is a replay, not live delivery, and is left out (counted).
// BENCH_N (default 20) sets the runs per series.
import { fleetMethods, serverStream } from "../proto/grpc-web/client.ts";
import { Client, LOCAL_TEST_VARS, admin, cleanup, startEdge, startFleet } from "../scripts/stack/index.ts";
import { openEvents } from "../scripts/stack/sse-client.ts";
import { summarize } from "./stats.ts";

const N = Number(process.env.BENCH_N ?? 20);
const PROGRAM = [
  "import sys, time",
  "def stamp():",
  "    sys.stdout.write('%.3f\\n' % (time.time() * 1000))",
  "    sys.stdout.flush()",
  "stamp()",
  "time.sleep(0.5)",
  "stamp()",
].join("\n");

const wallNow = () => performance.timeOrigin + performance.now();

interface Sample {
  first?: number;
  second: number;
}

/** Delays (ms) of each stamp in `text` received at `at`. */
const delays = (text: string, at: number) => text.split("\n").filter(Boolean).map((line) => ({ stamp: Number(line), delay: at - Number(line) }));

const fleet = await startFleet();
const edge = await startEdge({ vars: LOCAL_TEST_VARS });
try {
  const ops = admin(edge);
  await ops.mustRegisterNode(fleet);
  const { key } = await ops.newKey();
  const client = new Client(edge.base, key);

  async function direct(): Promise<Sample> {
    const req = { submissionId: crypto.randomUUID(), language: "python", code: PROGRAM, streamOutput: true };
    const got: number[] = [];
    const text = new TextDecoder();
    for await (const ev of serverStream(fleet, fleetMethods.execute, req)) {
      if (ev.output) got.push(...delays(text.decode(ev.output.data, { stream: true }), wallNow()).map((d) => d.delay));
      if (ev.completed && ev.completed.result?.verdict !== 1) throw new Error(`direct run failed: ${ev.completed.result?.errorMessage}`);
    }
    if (got.length !== 2) throw new Error(`direct: expected 2 stamps, got ${got.length}`);
    return { first: got[0]!, second: got[1]! };
  }

  let replayedFirst = 0;
  async function viaEdge(): Promise<Sample> {
    const r = await client.submit({ language: "python", code: PROGRAM });
    if (r.status !== 202) throw new Error(`submit: ${r.status} ${r.text}`);
    const openedAt = wallNow();
    const s = await openEvents(edge.base, `/api/result/${r.json.id}/events`, { "x-api-key": key });
    if (s.status !== 200) throw new Error(`events: ${s.status} ${JSON.stringify(s.error)}`);
    const got: { stamp: number; delay: number }[] = [];
    for (const ev of await s.rest()) {
      if (ev.event === "stdout") got.push(...delays(ev.data.data, ev.at));
      if (ev.event === "completed" && ev.data.verdict !== "AC") throw new Error(`edge run failed: ${JSON.stringify(ev.data).slice(0, 300)}`);
    }
    if (got.length !== 2) throw new Error(`edge: expected 2 stamps, got ${got.length}`);
    const live = got[0]!.stamp >= openedAt;
    if (!live) replayedFirst++;
    return { first: live ? got[0]!.delay : undefined, second: got[1]!.delay };
  }

  await direct();
  await viaEdge(); // warm both paths
  replayedFirst = 0;
  const d: Sample[] = [];
  const e: Sample[] = [];
  for (let i = 0; i < N; i++) {
    d.push(await direct());
    e.push(await viaEdge());
  }
  const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
  const line = (label: string, xs: number[]) => {
    const s = summarize(xs);
    return `    ${label.padEnd(34)} median ${ms(s.median)}   p95 ${ms(s.p95)}   (n=${xs.length})`;
  };
  const firstEdge = e.flatMap((x) => (x.first === undefined ? [] : [x.first]));
  const firstGap = ms(summarize(firstEdge).median - summarize(d.map((x) => x.first!)).median);
  const secondGap = ms(summarize(e.map((x) => x.second)).median - summarize(d.map((x) => x.second)).median);
  console.log(`
  delay from the program's write to the client's receipt (python, ${N} runs each):
  first chunk (the program's first write)
${line("node's gRPC-Web stream (baseline)", d.map((x) => x.first!))}
${line("edge event stream", firstEdge)}
    (${replayedFirst} of ${N} first writes happened before the event stream was open: replayed, left out)
  second chunk (after the 500 ms sleep)
${line("node's gRPC-Web stream (baseline)", d.map((x) => x.second))}
${line("edge event stream", e.map((x) => x.second))}
  edge − node (medians): first ${firstGap}, second ${secondGap}
`);
} finally {
  await edge.stop();
  await fleet.stop();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
}
