// npm run bench:hostile — does a tenant's data cost its neighbours anything? One real node process
// (2 run slots). Phase "quiet": a neighbour runs a small Python program under a 1 s wall limit,
// over and over, for as long as phase "hostile" took. Phase "hostile": the same neighbour while
// the hostile corpus (shared-fixtures/hostile-corpus.ts: 1 MiB blank lines and digit runs through every
// compare mode, 64 KiB Java sources of unclosed comments and newlines, 50 tests × 2 MiB of output,
// an 80 MiB Go array and a 100 MiB Rust static) runs one request at a time in the other slot and a
// client floods the native gRPC port with 4 MiB unauthenticated messages. Printed side by side:
// the neighbour's end-to-end latency (targets: every run within 1.5 s) and the node's event-loop
// delay over the whole phase, from its /metrics (prom-client's histogram, reset by each scrape;
// target: p99 under 50 ms).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventLoopDelayMs, execute, floodNativeGrpc, hostileCorpus, neighbour, nodeReady } from "../shared-fixtures/hostile-corpus.ts";
import { Verdict } from "../proto/gen/codecell/fleet/v1/fleet.ts";
import { summarize } from "./stats.ts";

const verdictName = (v: number) => Object.entries(Verdict).find(([, value]) => value === v)?.[0]?.replace("VERDICT_", "") ?? String(v);

const ROOT = join(import.meta.dirname, "..");
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const token = randomBytes(24).toString("hex");
const [grpcPort, webPort] = [await freePort(), await freePort()];
const stateDir = mkdtempSync(join(tmpdir(), "bench-hostile-"));
const node = spawn(process.execPath, [join(ROOT, "fleet/src/main.ts")], {
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env, FLEET_TOKEN: token, FLEET_HOST: "127.0.0.1", FLEET_GRPC_PORT: String(grpcPort), FLEET_GRPC_WEB_PORT: String(webPort),
    FLEET_STATE_DIR: stateDir, FLEET_SLOTS: "2", FLEET_LOG_LEVEL: "warn",
  },
});
const target = { url: `http://127.0.0.1:${webPort}`, token };

try {
  for (let i = 0; ; i++) {
    if ((await nodeReady(target).catch(() => ({ ready: false }))).ready) break;
    if (i > 300) throw new Error("the node did not become ready");
    await sleep(200);
  }
  // Warm the compile cache and the toolchains so that both phases see the same node.
  await execute(target, { language: "python", code: "print('neighbour')" });

  // Hostile first (its length sets the quiet phase's), then quiet.
  const hostileStop = new AbortController();
  const hostileStarted = performance.now();
  await eventLoopDelayMs(target); // the delay's window starts with the phase
  const [hostileRuns, flood] = [neighbour(target, hostileStop.signal), floodNativeGrpc(`127.0.0.1:${grpcPort}`, hostileStop.signal)];
  const verdicts: string[] = [];
  for (const hostile of hostileCorpus()) {
    const started = performance.now();
    const r = await execute(target, hostile.request).catch((e: Error) => e);
    verdicts.push(`  ${hostile.name}: ${r instanceof Error ? `failed: ${r.message}` : `${verdictName(r.verdict)} ${r.evidence?.verdictCause ?? ""}`} (${Math.round(performance.now() - started)} ms)`);
  }
  hostileStop.abort();
  const hostileMs = performance.now() - hostileStarted;
  const [hRuns, flooded] = await Promise.all([hostileRuns, flood]);
  const hDelay = await eventLoopDelayMs(target);

  const quietStop = new AbortController();
  await eventLoopDelayMs(target);
  const quietRuns = neighbour(target, quietStop.signal);
  await sleep(hostileMs);
  quietStop.abort();
  const qRuns = await quietRuns;
  const qDelay = await eventLoopDelayMs(target);

  const row = (label: string, runs: { ms: number; result: { verdict: number } }[], d: { p50: number; p99: number; max: number }) => {
    const lat = { ...summarize(runs.map((r) => r.ms)), max: Math.max(...runs.map((r) => r.ms)) };
    const notAc = runs.filter((r) => r.result.verdict !== 1).length;
    return `| ${label} | ${runs.length} | ${lat.median.toFixed(0)} | ${lat.p95.toFixed(0)} | ${lat.max.toFixed(0)} | ${notAc} | ${d.p50.toFixed(1)} | ${d.p99.toFixed(1)} | ${d.max.toFixed(1)} |`;
  };
  console.log(`hostile corpus on one node (2 slots), ${Math.round(hostileMs / 1000)} s per phase; load average ${(await import("node:os")).loadavg()[0]!.toFixed(2)}`);
  console.log(verdicts.join("\n"));
  console.log(`  native gRPC flood: ${flooded.sent} messages of 4 MiB, statuses ${JSON.stringify([...flooded.statuses])}`);
  console.log("");
  console.log("| phase | neighbour runs | latency median ms | p95 ms | max ms (target ≤ 1500) | not AC | event-loop delay p50 ms | p99 ms (target < 50) | max ms |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  console.log(row("quiet (baseline)", qRuns, qDelay));
  console.log(row("hostile corpus", hRuns, hDelay));
} finally {
  node.kill("SIGTERM");
  await new Promise((r) => node.once("exit", r));
  rmSync(stateDir, { recursive: true, force: true });
}
