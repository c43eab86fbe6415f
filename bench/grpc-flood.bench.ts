// The node's event loop under a flood of unauthenticated 4 MiB native gRPC messages:
// `node bench/grpc-flood.bench.ts`. Reports, asserts nothing.
// The node runs as its own process (fake engine, log level info to /dev/null) and measures its
// event-loop delay with perf_hooks.monitorEventLoopDelay while this process keeps BENCH_FLOOD
// unauthenticated Execute calls in flight, each carrying a 4 MiB ExecuteRequest of about 2 million
// empty `tests` entries (2 bytes each), and times authenticated NodeInfo calls. Every flooder and
// the prober have a connection of their own (grpc-js would otherwise share one between them).
// Tuning: BENCH_SECONDS (flood duration, default 10), BENCH_FLOOD (calls in flight, default 2).
import * as grpc from "@grpc/grpc-js";
import { fork } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 2);
const TOKEN = "bench-fleet-token-0123456789abcdef";
const MESSAGE_BYTES = 4 * 1024 * 1024;

interface Delay {
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

if (process.argv[2] === "serve") {
  const { createFakeEngine } = await import("../shared-fixtures/fake-engine.ts");
  const { createLogger } = await import("../fleet/src/service/logger.ts");
  const { startFleetServer } = await import("../fleet/src/service/server.ts");
  const engine = createFakeEngine(1);
  const server = await startFleetServer(
    {
      host: "127.0.0.1", grpcPort: 0, grpcWebPort: 0, token: TOKEN, tls: undefined, queueCapacity: 8,
      resultRetentionSecs: 60, maxRetainedResults: 100, maxRetainedResultBytes: 256 * 1024 * 1024, nodeId: "flood-bench", drainGraceSecs: 0,
    },
    engine,
    createLogger({ level: "info", nodeId: "flood-bench" }),
  );
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  process.on("disconnect", () => process.exit(1));
  process.on("message", async (message) => {
    if (message === "start") {
      histogram.reset();
      histogram.enable();
    } else if (message === "stop") {
      histogram.disable();
      const ms = (ns: number) => ns / 1e6;
      const delay: Delay = { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) };
      process.send!({ delay, rss: process.memoryUsage().rss });
      await server.close();
      process.exit(0);
    }
  });
  process.send!({ port: server.grpcPort });
} else {
  const child = fork(fileURLToPath(import.meta.url), ["serve"], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const next = () => new Promise<any>((resolve) => child.once("message", resolve));
  const { port } = await next();
  const address = `127.0.0.1:${port}`;

  // ~2 million empty `tests` entries (field 14, length 0): 2 bytes each.
  const bomb = Buffer.alloc(MESSAGE_BYTES);
  for (let i = 0; i < MESSAGE_BYTES; i += 2) bomb[i] = 0x72;
  const pass = (b: Buffer) => b;

  const codes = new Map<string, number>();
  let stop = false;
  const flooder = async () => {
    const client = new grpc.Client(address, grpc.credentials.createInsecure(), { "grpc.use_local_subchannel_pool": 1 });
    while (!stop) {
      const code = await new Promise<number>((resolve) => {
        const call = client.makeServerStreamRequest("/codecell.fleet.v1.FleetService/Execute", pass, pass, bomb, new grpc.Metadata());
        call.on("data", () => {});
        call.on("error", (error: grpc.ServiceError) => resolve(error.code));
        call.on("end", () => resolve(grpc.status.OK));
      });
      codes.set(grpc.status[code]!, (codes.get(grpc.status[code]!) ?? 0) + 1);
    }
    client.close();
  };

  const probe = new grpc.Client(address, grpc.credentials.createInsecure(), { "grpc.use_local_subchannel_pool": 1 });
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${TOKEN}`);
  const nodeInfo = () =>
    new Promise<void>((resolve, reject) =>
      probe.makeUnaryRequest("/codecell.fleet.v1.FleetService/NodeInfo", pass, pass, Buffer.alloc(0), metadata, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  await nodeInfo();

  const clientDelay = monitorEventLoopDelay({ resolution: 10 });
  clientDelay.enable();
  child.send("start");
  const flooders = Array.from({ length: FLOOD }, flooder);
  const latencies: number[] = [];
  const failures: string[] = [];
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    const start = performance.now();
    await nodeInfo().then(
      () => latencies.push(performance.now() - start),
      (error: grpc.ServiceError) => failures.push(grpc.status[error.code]!),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  stop = true;
  await Promise.all(flooders);
  child.send("stop");
  const { delay, rss } = (await next()) as { delay: Delay; rss: number };
  clientDelay.disable();
  probe.close();

  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  const f = (n: number) => n.toFixed(1);
  console.log(`flood: ${FLOOD} unauthenticated 4 MiB Execute calls in flight for ${SECONDS} s`);
  console.log(`  flood calls answered: ${[...codes].map(([name, count]) => `${name} ${count}`).join(", ") || "none"}`);
  console.log(`  node event-loop delay (ms): p50 ${f(delay.p50)}, p99 ${f(delay.p99)}, max ${f(delay.max)}, mean ${f(delay.mean)}`);
  console.log(`  node RSS at the end: ${(rss / 2 ** 20).toFixed(0)} MiB`);
  if (latencies.length > 0) {
    console.log(`  authenticated NodeInfo during the flood: ${latencies.length} answered, p50 ${pick(0.5)} ms, p99 ${pick(0.99)} ms, max ${f(latencies.at(-1)!)} ms`);
  }
  if (failures.length > 0) console.log(`  authenticated NodeInfo failed: ${failures.join(", ")}`);
  console.log(`  (client's own event-loop delay p99 ${f(clientDelay.percentile(99) / 1e6)} ms)`);
}
