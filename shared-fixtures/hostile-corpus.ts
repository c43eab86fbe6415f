// The hostile corpus of bounded work (docs/architecture.md, "Bounded work"): requests whose bytes
// are at the caps and shaped to make naive code super-linear or unbounded, a neighbour that runs a
// small program under a 1 s wall limit meanwhile, and the node's event-loop delay. Used by
// test/fleet-service/hostile-corpus.test.ts (which asserts outcomes) and bench/hostile.bench.ts
// (which prints latency and delay beside a run without the corpus).
import { randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import type { DeepPartial, ExecuteRequest, ExecutionResult } from "../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, serverStream, unary, type FleetTarget } from "../proto/grpc-web/client.ts";
import { MAX_EXECUTE_REQUEST_BYTES } from "../proto/limits.ts";
import { COMPARE_MODES } from "../proto/submission-rules.ts";

const MiB = 1024 * 1024;
/** 1 MiB exactly: the capture cap and the expected-output cap. */
const BLANK_LINE = " ".repeat(MiB - 1) + "x";
const DIGIT_RUN = "1".repeat(MiB);

export interface HostileCase {
  name: string;
  request: DeepPartial<ExecuteRequest>;
}

/** A program that prints the hostile line its stdin names, or "x". */
const PRINTER = String.raw`import sys
k = sys.stdin.read().strip()
sys.stdout.write((" " * (2**20 - 2) + "x\n") if k == "blank" else ("1" * (2**20 - 1) + "\n") if k == "digits" else "x\n")`;

/** 1 MiB on stdout and 1 MiB on stderr. */
const TWO_MIB = String.raw`#include <string.h>
#include <unistd.h>
static char buf[1 << 20];
int main(void) { memset(buf, 'y', sizeof buf); for (int fd = 1; fd <= 2; fd++) { size_t n = 0; while (n < sizeof buf) { ssize_t w = write(fd, buf + n, sizeof buf - n); if (w <= 0) return 1; n += (size_t)w; } } return 0; }`;

const enc = (s: string) => new TextEncoder().encode(s);

/** Every compare mode, hostile bytes on the program's side and on the expected side. */
function checkerCases(): HostileCase[] {
  return COMPARE_MODES.map((compare) => ({
    name: `${compare}: 1 MiB blank line and 1 MiB digit run, printed and expected`,
    request: {
      language: "python",
      code: PRINTER,
      check: { compare },
      tests: [
        { name: "printed blank", stdin: enc("blank"), expectedOutput: enc("x\n") },
        { name: "printed digits", stdin: enc("digits"), expectedOutput: enc("x\n") },
        { name: "expected blank", stdin: enc("x"), expectedOutput: enc(BLANK_LINE) },
        { name: "expected digits", stdin: enc("x"), expectedOutput: enc(DIGIT_RUN) },
      ],
    },
  }));
}

function javaCases(): HostileCase[] {
  const body = "\npublic class Main { public static void main(String[] a) { System.out.println(1); } }\n";
  const size = 64 * 1024 - body.length;
  return [
    { name: "java: 64 KiB of unclosed comments", request: { language: "java", code: "/*".repeat(size / 2) + body } },
    { name: "java: 64 KiB of newlines", request: { language: "java", code: "\n".repeat(size) + body } },
    { name: "java: 64 KiB of line comments and package-like lines", request: { language: "java", code: "// package a.b;\n".repeat(Math.floor(size / 16)) + body } },
  ];
}

export function hostileCorpus(): HostileCase[] {
  return [
    ...checkerCases(),
    ...javaCases(),
    {
      name: "50 tests × (1 MiB stdout + 1 MiB stderr)",
      request: { language: "c", code: TWO_MIB, tests: Array.from({ length: 50 }, (_, i) => ({ name: `t${i + 1}`, stdin: new Uint8Array(0) })) },
    },
    { name: "go: an 80 MiB array", request: { language: "go", code: "package main\n\nvar big = [80 << 20]byte{1}\n\nfunc main() { println(big[0]) }\n" } },
    { name: "rust: a 100 MiB static", request: { language: "rust", code: "static BIG: [u8; 100 << 20] = [1; 100 << 20];\nfn main() { println!(\"{}\", BIG[12345]); }\n" } },
  ];
}

/** Runs one request on the node over gRPC-Web (as the edge does) and returns its result. */
export async function execute(target: FleetTarget, request: DeepPartial<ExecuteRequest>): Promise<ExecutionResult> {
  let result: ExecutionResult | undefined;
  for await (const event of serverStream(target, fleetMethods.execute, { submissionId: randomUUID(), ...request })) {
    if (event.completed?.result) result = event.completed.result;
  }
  if (!result) throw new Error("the stream ended without a result");
  return result;
}

export interface NeighbourRun {
  ms: number;
  result: ExecutionResult;
}

/** A neighbour's small run under a 1 s wall limit, over and over until `signal`; each timed end to end. */
export async function neighbour(target: FleetTarget, signal: AbortSignal, wallTimeMs = 1000): Promise<NeighbourRun[]> {
  const runs: NeighbourRun[] = [];
  while (!signal.aborted) {
    const started = performance.now();
    const result = await execute(target, { language: "python", code: "print('neighbour')", limits: { wallTimeMs } });
    runs.push({ ms: performance.now() - started, result });
  }
  return runs;
}

/**
 * `count` clients, each on a connection of its own, sending unauthenticated 4 MiB ExecuteRequests
 * (about 2 million empty tests each) to the native gRPC port, one after another, until `signal`.
 * Returns how many were sent and their status codes.
 */
export async function floodNativeGrpc(address: string, signal: AbortSignal, count = 2): Promise<{ sent: number; statuses: Map<string, number> }> {
  const message = Buffer.alloc(MAX_EXECUTE_REQUEST_BYTES);
  // field 14 (tests), length 0: the bytes 0x72 0x00, repeated
  for (let i = 0; i + 1 < message.length; i += 2) message[i] = 0x72;
  const pass = (value: Buffer) => value;
  const statuses = new Map<string, number>();
  let sent = 0;
  const one = (client: grpc.Client) =>
    new Promise<void>((resolve) => {
      const call = client.makeServerStreamRequest("/codecell.fleet.v1.FleetService/Execute", pass, pass, message, new grpc.Metadata());
      let answered = false;
      const done = (code: grpc.status) => {
        if (answered) return;
        answered = true;
        statuses.set(String(code), (statuses.get(String(code)) ?? 0) + 1);
        resolve();
      };
      call.on("data", () => {});
      call.on("error", (error: grpc.ServiceError) => done(error.code));
      call.on("end", () => done(grpc.status.OK));
      sent++;
    });
  await Promise.all(Array.from({ length: count }, async () => {
    const client = new grpc.Client(address, grpc.credentials.createInsecure(), { "grpc.use_local_subchannel_pool": 1 });
    try {
      while (!signal.aborted) await one(client);
    } finally {
      client.close();
    }
  }));
  return { sent, statuses };
}

/** The node's event-loop delay since the last read (prom-client resets its histogram on every scrape), in ms. */
export async function eventLoopDelayMs(target: FleetTarget): Promise<{ p50: number; p99: number; max: number }> {
  const res = await fetch(`${target.url}/metrics`, { headers: { authorization: `Bearer ${target.token}` } });
  const lines = (await res.text()).split("\n");
  const value = (name: string) => {
    const line = lines.find((l) => l.startsWith(`${name} `));
    if (!line) throw new Error(`no ${name} on /metrics`);
    return Number(line.split(" ")[1]) * 1000;
  };
  return { p50: value("nodejs_eventloop_lag_p50_seconds"), p99: value("nodejs_eventloop_lag_p99_seconds"), max: value("nodejs_eventloop_lag_max_seconds") };
}

/** The p99 alone (see eventLoopDelayMs). */
export async function eventLoopP99Ms(target: FleetTarget): Promise<number> {
  return (await eventLoopDelayMs(target)).p99;
}

/** Whether the node says it is ready. */
export async function nodeReady(target: FleetTarget): Promise<{ ready: boolean; reasons: string[] }> {
  const info = await unary(target, fleetMethods.nodeInfo, {}, 10_000);
  return { ready: info.ready, reasons: info.notReadyReasons };
}
