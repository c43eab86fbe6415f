// Rolling maintenance as an operator does it: under a steady, bounded load (4 clients), each of the
// three nodes in turn is drained (`codecell nodes drain`), stopped like systemd stops it (SIGTERM:
// the enrollment command drains and leaves), and started again (it enrolls again). Nothing may be
// lost, nothing may end in `error`, every answer is the right one, and each result is delivered once.
import assert from "node:assert/strict";
import { it } from "node:test";
import { after, before } from "../hooks.ts";
import { sleep, startCluster } from "./harness.ts";
import type { Cluster } from "./harness.ts";
import type { Res } from "../edge/harness.ts";

const CLIENTS = 4;
/** The load runs until the rolling restart is over, at least MIN and at most MAX submissions. */
const MIN_SUBMISSIONS = 300;
const MAX_SUBMISSIONS = 1200;
/**
 * Each client's pause between submissions: the load is paced (at most CLIENTS / PAUSE per second)
 * so that it lasts through the whole rolling restart however fast the stack answers.
 */
const PAUSE_MS = 100;

let c: Cluster;

before(async () => {
  c = await startCluster();
}, { timeout: 240_000 });

after(async () => {
  await c?.teardown();
});

interface Tally {
  submitted: number;
  completed: number;
  ids: string[];
  problems: string[];
}

/** One submission: Python, or C (same source, so the compile cache is used across restarts). */
function program(n: number): { body: unknown; expect: string } {
  if (n % 5 === 0) {
    return {
      body: { language: "c", code: "#include <stdio.h>\nint main(void){long x; if (scanf(\"%ld\", &x) != 1) return 1; printf(\"c %ld\\n\", x * 3); return 0;}", stdin: `${n}\n` },
      expect: `c ${n * 3}\n`,
    };
  }
  return { body: { language: "python", code: `print("py", ${n} * 2)` }, expect: `py ${n * 2}\n` };
}

async function outcome(first: Res): Promise<Res> {
  if (first.status === 200) return first;
  if (first.status === 202) return c.client.terminal(first.json.id, 120_000);
  return first;
}

async function loadClient(tally: Tally, next: () => number | null): Promise<void> {
  for (let n = next(); n !== null; n = next()) {
    await sleep(PAUSE_MS);
    const { body, expect } = program(n);
    let res: Res;
    try {
      res = await outcome(await c.client.submit(body, { wait: true }));
    } catch (e) {
      tally.problems.push(`#${n}: ${(e as Error).message}`);
      continue;
    }
    if (res.json?.id) tally.ids.push(res.json.id);
    if (res.status !== 200 || res.json.job_status !== "completed") {
      tally.problems.push(`#${n}: HTTP ${res.status} ${res.json?.job_status ?? ""} ${res.json?.error_message ?? res.text.slice(0, 200)}`);
    } else if (res.json.verdict !== "AC" || res.json.stdout !== expect) {
      tally.problems.push(`#${n}: ${res.json.verdict} ${JSON.stringify(res.json.stdout)} ${res.json.stderr?.slice(0, 200) ?? ""}`);
    } else {
      tally.completed++;
    }
  }
}

it(`rolling drain + restart of all three nodes under ${CLIENTS} clients: 0 lost, 0 error`, { timeout: 900_000 }, async () => {
  const tally: Tally = { submitted: 0, completed: 0, ids: [], problems: [] };
  let rollingDone = false;
  const next = () => {
    if (tally.submitted >= MAX_SUBMISSIONS || (rollingDone && tally.submitted >= MIN_SUBMISSIONS)) return null;
    return tally.submitted++;
  };
  const t0 = Date.now();
  const load = Promise.all(Array.from({ length: CLIENTS }, () => loadClient(tally, next)));
  try {
    await sleep(2_000);
    for (const node of c.nodes) {
      const drain = await c.cli(["nodes", "drain", node.name]);
      assert.equal(drain.code, 0, drain.stderr);
      assert.equal(drain.json.node.state === "draining" || drain.json.node.state === "drained", true, drain.stdout);
      await c.waitNodes((l) => l.find((n) => n.name === node.name)?.state === "drained", `${node.name} drained`, 60_000);
      assert.equal(await node.stop(), 0, "the enrollment command drains, leaves and exits 0");
      await c.waitNodes((l) => !l.some((n) => n.name === node.name), `${node.name} left the registry`, 30_000);
      await node.start();
      await c.waitNodes((l) => l.length === 3 && l.every((n) => n.state === "healthy"), `${node.name} back`, 120_000);
      // The restarted node takes its share of the load before the next one goes.
      const deadline = Date.now() + 60_000;
      while ((await node.runs()) < 1) {
        assert.ok(Date.now() < deadline, `${node.name} got no work after its restart`);
        await sleep(200);
      }
      console.log(`# ${node.name} drained, restarted and serving again at ${Math.round((Date.now() - t0) / 1000)} s; ${tally.submitted} submitted so far`);
    }
  } finally {
    rollingDone = true;
    await load;
  }
  console.log(`# ${tally.submitted} submissions in ${Math.round((Date.now() - t0) / 1000)} s: ${tally.completed} completed, ${tally.problems.length} problems`);
  assert.deepEqual(tally.problems, []);
  assert.ok(tally.submitted >= MIN_SUBMISSIONS);
  assert.equal(tally.completed, tally.submitted, "0 lost, 0 error");
  // One result each: one webhook delivery per submission, none twice.
  const deadline = Date.now() + 60_000;
  const mine = () => c.hooks.filter((h) => tally.ids.includes(h.submission));
  while (mine().length < tally.ids.length && Date.now() < deadline) await sleep(200);
  const delivered = mine().map((h) => h.submission);
  assert.equal(new Set(delivered).size, tally.ids.length);
  assert.equal(delivered.length, tally.ids.length);
});
