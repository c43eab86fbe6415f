// One repetition of bench:edge's measurements against a running stack: the latency series (bare,
// straight to the node, through the edge with the stack's client and with a plain undici client)
// and the saturation throughput through the edge beside node-only, with CPU per run.
import { spawnSync } from "node:child_process";
import { Agent, fetch as undiciFetch } from "undici";
import { fleetMethods, serverStream } from "../proto/grpc-web/client.ts";
import type { Client, Fleet } from "../scripts/stack/index.ts";
import { cpuNow, type StackProcesses } from "./edge-processes.ts";

export const PY = "print('hello')";
export const C = '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n';

export interface Series {
  bare: number[];
  direct: number[];
  /** Through the edge, the stack's client (node:https, keep-alive). */
  e2e: number[];
  /** Through the edge, a plain client: undici's fetch with its keep-alive pool, as a user's program would. */
  plain: number[];
}

export interface Throughput {
  perSec: number;
  /** CPU ms per run of each group of processes. */
  cpu: Record<string, number>;
}

export interface Repetition {
  py: Series;
  c: Series;
  /** Server-Timing hops of the synchronous Python submits, ms each. */
  hops: Map<string, number[]>;
  nodeOnly: Throughput;
  throughEdge: Throughput;
}

export interface RepSetup {
  fleet: Fleet;
  base: string;
  /** The latency series' key, then one key per concurrent client of the throughput runs. */
  key: string;
  clients: Client[];
  procs: StackProcesses;
  n: number;
  secs: number;
  cBin: string;
}

/** undici's pool keeps its connections open between requests (keep-alive), like any long-lived client. */
const plainAgent = new Agent({ connect: { rejectUnauthorized: false } });

export async function plainSubmit(base: string, key: string, language: string, code: string): Promise<void> {
  const res = await undiciFetch(`${base}/api/submit?wait=true`, {
    method: "POST", dispatcher: plainAgent,
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ language, code }),
  });
  const body = (await res.json()) as { verdict?: string };
  if (res.status !== 200 || body.verdict !== "AC") throw new Error(`plain ${language}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
}

export async function direct(fleet: Fleet, language: string, code: string): Promise<void> {
  const req = { submissionId: crypto.randomUUID(), language, code, stdin: "", detachOnDisconnect: false, tenantId: "" };
  let ok = false;
  for await (const ev of serverStream(fleet, fleetMethods.execute, req)) if (ev.completed) ok = ev.completed.result?.verdict === 1;
  if (!ok) throw new Error(`direct ${language} failed`);
}

async function viaEdge(client: Client, language: string, code: string, hops: Map<string, number[]> | null): Promise<void> {
  const r = await client.submit({ language, code }, { wait: true });
  if (r.status !== 200 || r.json.verdict !== "AC") throw new Error(`${language}: ${r.status} ${r.text.slice(0, 300)}`);
  if (!hops) return;
  for (const part of String(r.headers["server-timing"] ?? "").split(",")) {
    const m = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
    if (m) hops.set(m[1]!, [...(hops.get(m[1]!) ?? []), Number(m[2])]);
  }
}

const bareRun = (cmd: string, args: string[]) => () => {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
};

const timed = async (f: () => unknown): Promise<number> => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};

/**
 * One sample of each kind per iteration (bare, direct to the node, through the edge twice),
 * interleaved so that all see the same background load on a shared machine. The first iterations
 * warm up (and, for C, fill the compile cache).
 */
async function series(s: RepSetup, language: string, code: string, bare: () => void, hops: Map<string, number[]> | null): Promise<Series> {
  const out: Series = { bare: [], direct: [], e2e: [], plain: [] };
  const client = s.clients[0]!;
  for (let i = 0; i < s.n + 2; i++) {
    const tb = await timed(bare);
    const td = await timed(() => direct(s.fleet, language, code));
    const te = await timed(() => viaEdge(client, language, code, i >= 2 ? hops : null));
    const tp = await timed(() => plainSubmit(s.base, s.key, language, code));
    if (i < 2) continue;
    out.bare.push(tb);
    out.direct.push(td);
    out.e2e.push(te);
    out.plain.push(tp);
  }
  return out;
}

/** `clients` loops of `one` for `secs`, with the CPU each group of processes spent meanwhile. */
async function saturate(s: RepSetup, one: (client: number) => Promise<void>): Promise<Throughput> {
  let done = 0;
  const before = cpuNow(s.procs);
  const stopAt = Date.now() + s.secs * 1000;
  const t0 = performance.now();
  await Promise.all(s.clients.map(async (_, i) => {
    while (Date.now() < stopAt) {
      await one(i);
      done++;
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  const after = cpuNow(s.procs);
  const cpu = Object.fromEntries(Object.keys(before).map((k) => [k, (after[k as keyof typeof after] - before[k as keyof typeof before]) / done]));
  return { perSec: done / seconds, cpu };
}

export async function repetition(s: RepSetup): Promise<Repetition> {
  const hops = new Map<string, number[]>();
  const py = await series(s, "python", PY, bareRun("/usr/bin/python3", ["-c", PY]), hops);
  const c = await series(s, "c", C, bareRun(s.cBin, []), null);
  return { py, c, hops, ...(await throughputPair(s)) };
}

export type ThroughputPair = Pick<Repetition, "nodeOnly" | "throughEdge">;

/** Saturation straight to the node, then through the edge. */
export async function throughputPair(s: RepSetup): Promise<ThroughputPair> {
  const nodeOnly = await saturate(s, () => direct(s.fleet, "c", C));
  const throughEdge = await saturate(s, (i) => viaEdge(s.clients[i]!, "c", C, null));
  return { nodeOnly, throughEdge };
}
