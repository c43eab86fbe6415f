// Fleet node service overhead: `npm run bench:fleet`. Needs root and the built launcher (real engine).
// 1. Median latency of a cached C hello: the engine called directly, and Execute over native gRPC
//    and gRPC-Web against a node in the same process on the same engine, sampled interleaved so
//    that machine noise hits all three alike. The same with an instant stub engine isolates the
//    service layer itself.
// 2. Throughput with 16 concurrent clients against a node started as its own process
//    (fleet/src/main.ts), with the CPU time split between node, sandboxes and clients.
// Tuning: BENCH_ROUNDS (sequential calls per median), BENCH_GAP_MS (pause before each of them),
// BENCH_SECONDS (per throughput run), FLEET_SLOTS.
import * as grpc from "@grpc/grpc-js";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Engine } from "../fleet/src/engine.ts";
import { createEngine } from "../fleet/src/node-engine.ts";
import { SlotQueue } from "../fleet/src/sandbox/slot-queue.ts";
import { createLogger } from "../fleet/src/service/logger.ts";
import { startFleetServer } from "../fleet/src/service/server.ts";
import { grpcServiceDefinition } from "../fleet/src/service/transport-grpc.ts";
import { ExecuteRequest } from "../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, serverStream } from "../proto/grpc-web/client.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 0);
const CLIENTS = 16;
const SLOTS = Number(process.env.FLEET_SLOTS ?? availableParallelism());
const TOKEN = randomUUID() + randomUUID();
const CODE = '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n';
const root = fileURLToPath(new URL("../", import.meta.url));
const stateDir = process.env.FLEET_STATE_DIR ?? mkdtempSync(join(tmpdir(), "fleet-bench-"));

type Execute = () => Promise<void>;
interface Clients {
  native: Execute;
  web: Execute;
  close(): void;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const request = (): ExecuteRequest => ExecuteRequest.create({ submissionId: randomUUID(), language: "c", code: CODE });

function clients(ports: { grpc: number; web: number }): Clients {
  const Client = grpc.makeGenericClientConstructor(grpcServiceDefinition(), "FleetService");
  const native = new Client(`127.0.0.1:${ports.grpc}`, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
    execute(request: ExecuteRequest, metadata: grpc.Metadata): grpc.ClientReadableStream<{ completed?: unknown }>;
  };
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${TOKEN}`);
  const web = { url: `http://127.0.0.1:${ports.web}`, token: TOKEN };
  return {
    native: () =>
      new Promise((resolve, reject) => {
        let completed = false;
        const call = native.execute(request(), metadata);
        call.on("data", (message) => (completed ||= message.completed !== undefined));
        call.on("error", reject);
        call.on("end", () => (completed ? resolve() : reject(new Error("no completed event"))));
      }),
    web: async () => {
      let completed = false;
      for await (const event of serverStream(web, fleetMethods.execute, request())) completed ||= event.completed !== undefined;
      if (!completed) throw new Error("no completed event");
    },
    close: () => native.close(),
  };
}

/**
 * Sequential calls, the callers taking turns, after a warm-up; returns each caller's median in ms.
 * BENCH_GAP_MS pauses before each call (lets the engine's after-run work settle, but on a busy
 * machine adds wake-up latency of its own).
 */
async function interleavedMedians(callers: Execute[]): Promise<number[]> {
  for (let i = 0; i < 50; i++) for (const call of callers) await call();
  const samples: number[][] = callers.map(() => []);
  for (let i = 0; i < ROUNDS; i++) {
    for (const [index, call] of callers.entries()) {
      if (GAP_MS > 0) await new Promise((resolve) => setTimeout(resolve, GAP_MS));
      const start = performance.now();
      await call();
      samples[index]!.push(performance.now() - start);
    }
  }
  return samples.map(median);
}

async function throughput(execute: Execute): Promise<number> {
  const stopAt = performance.now() + SECONDS * 1000;
  let done = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < stopAt) {
        await execute();
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

/** Throughput with this process's CPU time per execution (node and clients share this process). */
async function cpuMeasured(execute: Execute): Promise<string> {
  for (let i = 0; i < 200; i++) await execute();
  const before = process.cpuUsage();
  const start = performance.now();
  const rate = await throughput(execute);
  const used = process.cpuUsage(before);
  const runs = (rate * (performance.now() - start)) / 1000;
  return `${rate.toFixed(0).padStart(4)} executions/s   CPU ms per run (node and clients together): ${((used.user + used.system) / 1000 / runs).toFixed(2)}`;
}

/**
 * Interleaved sequential calls: the engine directly, then Execute over each transport to a node in
 * this process on the same engine. Besides each caller's median, the per-call overhead: a call's
 * client-side latency minus the time its engine.execute took inside the node.
 */
async function inProcessNode(real: Engine, options: { throughput: boolean }) {
  let lastEngineMs = 0;
  const timed: Engine = {
    slots: real.slots,
    queue: real.queue,
    languages: () => real.languages(),
    health: () => real.health(),
    close: () => real.close(),
    async execute(request, signal) {
      const start = performance.now();
      const outcome = await real.execute(request, signal);
      lastEngineMs = performance.now() - start;
      return outcome;
    },
  };
  const server = await startFleetServer(
    {
      host: "127.0.0.1",
      grpcPort: 0,
      grpcWebPort: 0,
      token: TOKEN,
      tls: undefined,
      queueCapacity: 64,
      resultRetentionSecs: 600,
      maxRetainedResults: 100_000,
      maxRetainedResultBytes: 1024 * 1024 * 1024,
      nodeId: "bench",
      drainGraceSecs: 1,
    },
    timed,
    // Logs of the in-process node would mix with the report; the node process below logs at info.
    createLogger({ level: process.env.FLEET_LOG_LEVEL ?? "warn", nodeId: "bench" }),
  );
  const client = clients({ grpc: server.grpcPort, web: server.grpcWebPort });
  const rates = options.throughput ? { native: await cpuMeasured(client.native), web: await cpuMeasured(client.web) } : undefined;
  const overhead = { native: [] as number[], web: [] as number[] };
  const measuredCall = (name: "native" | "web"): Execute => async () => {
    const start = performance.now();
    await client[name]();
    overhead[name].push(performance.now() - start - lastEngineMs);
  };
  const direct: Execute = async () => {
    const outcome = await real.execute({ language: "c", code: CODE, stdin: "" });
    if (outcome.result.verdict !== "AC") throw new Error(`unexpected verdict ${outcome.result.verdict}`);
  };
  const [engineMs, nativeMs, webMs] = await interleavedMedians([direct, measuredCall("native"), measuredCall("web")]);
  client.close();
  await server.close();
  return {
    engineMs: engineMs!,
    nativeMs: nativeMs!,
    webMs: webMs!,
    rates,
    nativeOverheadMs: median(overhead.native.slice(50)),
    webOverheadMs: median(overhead.web.slice(50)),
  };
}

// ---- 1. latency: real engine, then an instant stub that replays a real outcome ----
const engine = await createEngine({ slots: SLOTS, stateDir });
if (!engine.health().ready) throw new Error(`engine not ready: ${engine.health().reasons.join("; ")}`);
const real = await inProcessNode(engine, { throughput: false });
const engineRate = await throughput(async () => void (await engine.execute({ language: "c", code: CODE, stdin: "" })));
const recorded = await engine.execute({ language: "c", code: CODE, stdin: "" });
await engine.close();
const stub: Engine = {
  slots: SLOTS,
  queue: new SlotQueue(SLOTS),
  languages: () => [{ name: "c", version: "stub", aliases: [], default: true, compiled: true, libraries: [] }],
  health: () => ({
    ready: true, reasons: [], enforcementMode: "strict", cgroupVersion: "v2", kernel: "stub", controls: [], seccompPolicy: "stub", cpuMode: "shared",
  }),
  execute: async () => recorded,
  close: async () => {},
};
const layer = await inProcessNode(stub, { throughput: true });

// ---- 2. throughput against a node process ----
const node = spawn(process.execPath, ["fleet/src/main.ts"], {
  cwd: root,
  env: {
    ...process.env,
    FLEET_TOKEN: TOKEN,
    FLEET_HOST: "127.0.0.1",
    FLEET_GRPC_PORT: "0",
    FLEET_GRPC_WEB_PORT: "0",
    FLEET_SLOTS: String(SLOTS),
    FLEET_STATE_DIR: stateDir,
    FLEET_LOG_LEVEL: process.env.FLEET_LOG_LEVEL ?? "info",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const listening = await new Promise<{ grpc_port: number; grpc_web_port: number }>((resolve, reject) => {
  createInterface({ input: node.stdout! }).on("line", (line) => {
    if (line.includes('"fleet node listening"')) resolve(JSON.parse(line));
  });
  node.once("exit", (code) => reject(new Error(`node exited (${code})`)));
});
const remote = clients({ grpc: listening.grpc_port, web: listening.grpc_web_port });

const ticks = (pid: number | "self") => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return { own: Number(fields[11]) + Number(fields[12]), children: Number(fields[13]) + Number(fields[14]) };
};
const busyTicks = () => {
  const values = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  return values.reduce((sum, value) => sum + value, 0) - values[3]! - values[4]!; // minus idle and iowait
};
async function measured(execute: Execute) {
  for (let i = 0; i < 10; i++) await execute();
  const [node0, self0, busy0] = [ticks(node.pid!), ticks("self"), busyTicks()];
  const start = performance.now();
  const rate = await throughput(execute);
  const runs = (rate * (performance.now() - start)) / 1000;
  const [node1, self1, busy1] = [ticks(node.pid!), ticks("self"), busyTicks()];
  const perRun = (delta: number) => ((delta * 10) / runs).toFixed(1); // USER_HZ = 100: a tick is 10 ms
  return (
    `${rate.toFixed(0).padStart(4)} executions/s   CPU ms per run: node process ${perRun(node1.own - node0.own)}, ` +
    `sandboxed processes ${perRun(node1.children - node0.children)}, clients ${perRun(self1.own - self0.own)}, whole machine ${perRun(busy1 - busy0)}`
  );
}
const nativeRate = await measured(remote.native);
const webRate = await measured(remote.web);
remote.close();
node.kill("SIGTERM");
await new Promise((resolve) => node.once("exit", resolve));

const ms = (value: number) => `${value.toFixed(2)} ms`.padEnd(10);
const loadAverage = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`fleet service bench: C hello (compile cache hit), ${SLOTS} slots, ${availableParallelism()} cores, load average ${loadAverage}`);
console.log("");
console.log(`median latency, ${ROUNDS} interleaved sequential calls each`);
console.log("                                              real engine                          | stub engine (instant)");
console.log("                                              latency    added      per-call added | latency    per-call added");
console.log(`  engine called in-process                    ${ms(real.engineMs)} -          -              | ${ms(layer.engineMs)} -`);
console.log(
  `  Execute over native gRPC (grpc-js client)   ${ms(real.nativeMs)} ${ms(real.nativeMs - real.engineMs)} ${ms(real.nativeOverheadMs)}     | ` +
    `${ms(layer.nativeMs)} ${ms(layer.nativeOverheadMs)}`,
);
console.log(
  `  Execute over gRPC-Web (proto client, fetch) ${ms(real.webMs)} ${ms(real.webMs - real.engineMs)} ${ms(real.webOverheadMs)}     | ` +
    `${ms(layer.webMs)} ${ms(layer.webOverheadMs)}`,
);
console.log("  (added: median minus the engine's median; per-call added: median of each call's latency minus its own engine.execute time)");
console.log("");
console.log(`throughput, ${CLIENTS} concurrent clients, ${SECONDS} s each`);
console.log(`  engine called in-process  ${engineRate.toFixed(0).padStart(4)} executions/s`);
console.log(`  node process, native gRPC ${nativeRate}`);
console.log(`  node process, gRPC-Web    ${webRate}`);
console.log(`  stub engine, node in this process, native gRPC ${layer.rates!.native}`);
console.log(`  stub engine, node in this process, gRPC-Web    ${layer.rates!.web}`);
