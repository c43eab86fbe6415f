// How long after a submission ends its first webhook attempt arrives: one at a time (a quiet shard),
// then 200 submitted at once into one shard (SUBMISSION_SHARDS=1), whose completions, releases and
// hand-offs then share the shard and the scheduler. Delay = the receiver's clock at the POST minus
// the record's completed_at (same machine, same clock).
//
//   node bench/webhook-first-attempt.bench.ts [burst=200]
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client, LOCAL_TEST_VARS, admin, cleanup, sleep, startEdge, startFleet } from "../scripts/stack/index.ts";

const BURST = Number(process.argv[2] ?? 200);
const arrived = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (d: Buffer) => (body += d.toString()));
  req.on("end", () => {
    const at = Date.now();
    try {
      const id = (JSON.parse(body) as { id: string }).id;
      if (!arrived.has(id)) arrived.set(id, at);
    } catch {}
    res.writeHead(200).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const port = (receiver.address() as AddressInfo).port;

const fleet = await startFleet();
const edge = await startEdge({
  vars: {
    ...LOCAL_TEST_VARS, WEBHOOK_DEV_ALLOW: `127.0.0.1:${port}`, SUBMISSION_SHARDS: "1", QUEUE_CAPACITY: "1000",
    RATE_LIMIT_PER_MIN: "100000", MAX_IN_FLIGHT: "1000",
  },
});
const ops = admin(edge);
try {
  await ops.mustRegisterNode(fleet);
  const p = await ops.call("POST", "/admin/projects", { name: "bench" });
  const c = new Client(edge.base, (await ops.newKey(p.json.id)).key);
  await ops.call("POST", `/admin/projects/${p.json.id}/webhooks`, { url: `http://127.0.0.1:${port}/hook` });
  const code = "print(1)";

  /** Delays (ms) of the given submissions' first attempts, once all arrived. */
  async function delays(ids: string[]): Promise<number[]> {
    const ended = new Map<string, number>();
    for (let round = 0; ended.size < ids.length; round++) {
      if (round > 1200) throw new Error(`only ${ended.size} of ${ids.length} ended`);
      for (let i = 0; i < ids.length; i += 20) {
        const batch = ids.slice(i, i + 20).filter((id) => !ended.has(id));
        if (batch.length === 0) continue;
        const r = await c.call("GET", `/api/results?ids=${batch.join(",")}`);
        for (const rec of r.json.results as { id: string; completed_at: string | null }[]) {
          if (rec.completed_at) ended.set(rec.id, Date.parse(rec.completed_at));
        }
      }
      await sleep(200);
    }
    for (let i = 0; ids.some((id) => !arrived.has(id)); i++) {
      if (i > 600) throw new Error("not every first attempt arrived");
      await sleep(100);
    }
    return ids.map((id) => arrived.get(id)! - ended.get(id)!);
  }

  const quiet: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await c.submit({ language: "python", code }, { wait: true });
    quiet.push(r.json.id);
  }
  const quietDelays = await delays(quiet);

  const bursts = await Promise.all(Array.from({ length: Math.ceil(BURST / 20) }, (_, i) => {
    const submissions = Array.from({ length: Math.min(20, BURST - i * 20) }, () => ({ language: "python", code }));
    return c.call("POST", "/api/submit/batch", { body: { submissions } });
  }));
  const busy = bursts.flatMap((b) => (b.json.submissions as { id?: string }[]).map((s) => s.id).filter((id): id is string => !!id));
  const busyDelays = await delays(busy);

  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
    return `n=${s.length} p50=${at(0.5)} ms p95=${at(0.95)} ms max=${s.at(-1)} ms`;
  };
  /** Where the time goes: end → delivery object holds the targets (hand-off) → attempt starts → it arrives. */
  async function split(ids: string[]): Promise<string> {
    const hand: number[] = [], start: number[] = [], wire: number[] = [];
    for (const id of ids) {
      const log = (await ops.call("GET", `/admin/projects/${p.json.id}/webhooks/deliveries/${id}`)).json;
      const rec = (await c.result(id)).json;
      const first = log.endpoints[0].log[0];
      hand.push(Date.parse(log.created_at) - Date.parse(rec.completed_at));
      start.push(Date.parse(first.started_at) - Date.parse(log.created_at));
      wire.push(arrived.get(id)! - Date.parse(first.started_at));
    }
    return `hand-off ${stats(hand)}; to attempt start ${stats(start)}; attempt start to arrival ${stats(wire)}`;
  }
  console.log(`first attempt after the end, quiet shard: ${stats(quietDelays)}`);
  console.log(`  ${await split(quiet)}`);
  console.log(`first attempt after the end, ${busy.length} at once in one shard: ${stats(busyDelays)}`);
  console.log(`  ${await split(busy)}`);
} finally {
  await edge.stop();
  await fleet.stop();
  receiver.close();
  cleanup(edge.persistDir);
  cleanup(fleet.stateDir);
}
