// Shared test fixtures: a node on OS-chosen loopback ports, clients for both transports, /proc probes.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Metadata } from "nice-grpc-common";
import { createChannel, createClient, FetchTransport } from "nice-grpc-web";
import type { Engine, EngineOptions, EngineRequest } from "../../fleet/src/engine.ts";
import { createLogger } from "../../fleet/src/service/logger.ts";
import { startFleetServer, type FleetServer } from "../../fleet/src/service/server.ts";
import { FleetServiceDefinition } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { createFakeEngine } from "../../shared-fixtures/fake-engine.ts";

export const TOKEN = "test-fleet-token-0123456789abcdef";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const REAL_ENGINE = join(ROOT, "fleet/src/node-engine.ts");
export const usingRealEngine = existsSync(REAL_ENGINE) && process.env.FLEET_TEST_ENGINE !== "fake";

let stateDir: string | undefined;

/** The real engine when it exists (FLEET_TEST_ENGINE=fake forces the double), wrapped to count runs. */
export async function createTestEngine(slots: number) {
  let engine: Engine;
  if (usingRealEngine) {
    stateDir ??= mkdtempSync(join(tmpdir(), "fleet-service-test-"));
    const { createEngine } = (await import(REAL_ENGINE)) as { createEngine(options: EngineOptions): Promise<Engine> };
    engine = await createEngine({ slots, stateDir });
  } else {
    engine = createFakeEngine(slots);
  }
  return counted(engine);
}

/** The engine, counting the requests it is given. */
function counted(engine: Engine): Engine & { executed: EngineRequest[] } {
  const executed: EngineRequest[] = [];
  const counting: Engine & { executed: EngineRequest[] } = {
    executed,
    get slots() {
      return engine.slots;
    },
    get queue() {
      return engine.queue;
    },
    languages: () => engine.languages(),
    health: () => engine.health(),
    close: () => engine.close(),
    execute(request, signal) {
      executed.push(request);
      return engine.execute(request, signal);
    },
  };
  return counting;
}

export interface TestNode {
  server: FleetServer;
  engine: Engine & { executed: EngineRequest[] };
  grpcAddress: string;
  webUrl: string;
  close(): Promise<void>;
}

export async function startTestNode(
  options: { slots?: number; queueCapacity?: number; grpcMaxConcurrentStreams?: number; engine?: Engine; inflightBytes?: number } = {},
): Promise<TestNode> {
  const engine = options.engine ? counted(options.engine) : await createTestEngine(options.slots ?? 2);
  const logger = createLogger({ level: process.env.FLEET_TEST_LOG ?? "silent", nodeId: "test-node" });
  const server = await startFleetServer(
    {
      host: "127.0.0.1",
      grpcPort: 0,
      grpcWebPort: 0,
      token: TOKEN,
      tls: undefined,
      queueCapacity: options.queueCapacity ?? 64,
      resultRetentionSecs: 600,
      maxRetainedResults: 1000,
      maxRetainedResultBytes: 256 * 1024 * 1024,
      nodeId: "test-node",
      drainGraceSecs: 5,
      ...(options.grpcMaxConcurrentStreams === undefined ? {} : { grpcMaxConcurrentStreams: options.grpcMaxConcurrentStreams }),
      ...(options.inflightBytes === undefined ? {} : { inflightBytes: options.inflightBytes }),
    },
    engine,
    logger,
  );
  return {
    server,
    engine,
    grpcAddress: `127.0.0.1:${server.grpcPort}`,
    webUrl: `http://127.0.0.1:${server.grpcWebPort}`,
    async close() {
      await server.close();
      await engine.close();
    },
  };
}

// ---- native gRPC client from the .proto file (independent of the generated code) ----

const packageDefinition = protoLoader.loadSync("codecell/fleet/v1/fleet.proto", {
  includeDirs: [join(ROOT, "proto")],
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
});
const loaded = grpc.loadPackageDefinition(packageDefinition) as unknown as {
  codecell: { fleet: { v1: { FleetService: grpc.ServiceClientConstructor } } };
};

export type NativeClient = grpc.Client & Record<string, (...args: unknown[]) => unknown>;

export function nativeClient(address: string, credentials = grpc.credentials.createInsecure()): NativeClient {
  return new loaded.codecell.fleet.v1.FleetService(address, credentials) as unknown as NativeClient;
}

export function authMetadata(token = TOKEN): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${token}`);
  return metadata;
}

// Snake_case messages as proto-loader decodes them.
export type WireMessage = Record<string, any>;

export function nativeExecute(
  client: NativeClient,
  request: WireMessage,
  options: { metadata?: grpc.Metadata; deadline?: Date } = {},
): grpc.ClientReadableStream<WireMessage> {
  return client.Execute!(request, options.metadata ?? authMetadata(), { deadline: options.deadline }) as grpc.ClientReadableStream<WireMessage>;
}

/** Every message of a stream, then its status. */
export function collect(stream: grpc.ClientReadableStream<WireMessage>): Promise<{ messages: WireMessage[]; error?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    const messages: WireMessage[] = [];
    stream.on("data", (message: WireMessage) => messages.push(message));
    stream.on("error", (error: grpc.ServiceError) => resolve({ messages, error }));
    stream.on("end", () => resolve({ messages }));
  });
}

export function nativeUnary(client: NativeClient, method: string, request: WireMessage, metadata = authMetadata()): Promise<WireMessage> {
  return new Promise((resolve, reject) => {
    client[method]!(request, metadata, (error: grpc.ServiceError | null, response: WireMessage) =>
      error ? reject(error) : resolve(response),
    );
  });
}

/** Resolves with the first message the stream delivers that satisfies `predicate`. */
export function firstMessage(stream: grpc.ClientReadableStream<WireMessage>, predicate: (message: WireMessage) => boolean): Promise<WireMessage> {
  return new Promise((resolve, reject) => {
    const onData = (message: WireMessage) => {
      if (predicate(message)) {
        stream.off("data", onData);
        resolve(message);
      }
    };
    stream.on("data", onData);
    stream.on("error", reject);
    stream.on("end", () => reject(new Error("stream ended first")));
  });
}

// ---- gRPC-Web client: nice-grpc-web over fetch, with the ts-proto definition ----

/** `token: null` sends no credential. */
export function webClient(url: string, token: string | null = TOKEN) {
  const channel = createChannel(url, FetchTransport());
  const metadata = token === null ? Metadata() : Metadata({ authorization: `Bearer ${token}` });
  return createClient(FleetServiceDefinition, channel, { "*": { metadata } });
}

// ---- probes ----

export { hostProcessesWith as processesWith } from "../helpers.ts";

/** Polls until `condition` holds; the bound only keeps a broken test from hanging. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, boundMs = 30_000): Promise<void> {
  const giveUp = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A python program that replaces itself with a sleeper whose argv carries `marker`, so the host can
 * see from /proc whether the program still exists.
 */
export function markedSleeper(marker: string): string {
  return [
    "import os, sys",
    `os.execv(sys.executable, [sys.executable, "-c", "import time\\nwhile True: time.sleep(1)", "${marker}"])`,
  ].join("\n");
}
