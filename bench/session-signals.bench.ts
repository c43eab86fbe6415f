// A signal flood on one live session (not a test): `npm run bench:session-signals`.
// Starts a real fleet node and the edge like the tests do; one session runs a program that prints a
// line for each SIGINT it gets; its client sends SIGNALS (default 2000) `signal` messages at once,
// then `end`. Printed: how the session closed, how many signals reached the program, how long until
// its record was stored, and the CPU the node and workerd spent from the first signal to then.
import { Client, LOCAL_TEST_VARS, admin, startEdge, startFleet, cleanup } from "../scripts/stack/index.ts";
import { SessionSocket } from "../scripts/stack/session-socket.ts";
import { cpuMs, descendants } from "./edge-processes.ts";

const SIGNALS = Number(process.env.SIGNALS ?? 2000);
const PROGRAM = [
  "import signal, sys",
  "signal.signal(signal.SIGINT, lambda *a: print('int', flush=True))",
  "print('ready', flush=True)",
  "sys.stdin.read()",
].join("\n");

const fleet = await startFleet();
const edge = await startEdge({ vars: LOCAL_TEST_VARS });
try {
  const ops = admin(edge);
  await ops.mustRegisterNode(fleet);
  const client = new Client(edge.base, (await ops.newKey()).key);
  const workerd = [...descendants(edge.proc.pid!)].find(([, name]) => name === "workerd")?.[0];
  if (!workerd) throw new Error("no workerd process below the edge");
  const nodePid = fleet.proc.pid!;

  const s = new SessionSocket(edge.base, "/api/sessions", { "x-api-key": client.key! });
  s.send({ type: "start", language: "python", code: PROGRAM });
  const accepted = await s.next((m) => m.type === "accepted" || m.type === "error");
  if (accepted.type !== "accepted") throw new Error(`session refused: ${JSON.stringify(accepted)}`);
  await s.seen("ready\n");
  const before = { node: cpuMs(nodePid), workerd: cpuMs(workerd), at: performance.now() };
  const frame = JSON.stringify({ type: "signal", signal: "SIGINT" });
  for (let i = 0; i < SIGNALS; i++) s.send(frame);
  const sentMs = performance.now() - before.at;
  s.send({ type: "end" });
  const closed = await s.closed;
  const record = (await client.terminal(accepted.id, 300_000)).json;
  const after = { node: cpuMs(nodePid), workerd: cpuMs(workerd), at: performance.now() };
  const delivered = String(record.stdout ?? "").split("\n").filter((l) => l === "int").length;
  console.log(`${SIGNALS} SIGINT messages sent in ${sentMs.toFixed(0)} ms, then end:`);
  console.log(`  session closed with ${closed.code} (${closed.reason}); record ${record.verdict}`);
  console.log(`  signals that reached the program: ${delivered}`);
  console.log(`  first signal → record stored: ${((after.at - before.at) / 1000).toFixed(1)} s`);
  console.log(`  CPU meanwhile: node ${((after.node - before.node) / 1000).toFixed(2)} s, workerd ${((after.workerd - before.workerd) / 1000).toFixed(2)} s`);
} finally {
  await edge.stop();
  await fleet.stop();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
}
