// bench:bytes's view of workerd's JavaScript heaps: the Chrome DevTools Protocol over workerd's own
// inspector (the edge started with EDGE_INSPECTOR=1, which scripts/edge-dev.ts turns into Miniflare's
// inspectorPort 9229, i.e. `workerd serve --inspector-addr=localhost:9229`; no proxy in between).
// Every Worker of the workerd process is an isolate of its own and a target at /json: the edge's
// Worker (its Durable Objects run in the same isolate) and Miniflare's own (entry, cache, KV, assets).
//
// - Runtime.getHeapUsage answers at once (workerd dispatches it under the isolate's lock, between
//   its tasks): usedSize (live and not yet collected objects in V8's heap), totalSize (the heap's
//   committed pages), backingStorageSize (the backing stores of ArrayBuffers and external strings,
//   outside V8's heap pages: workerd builds V8 without its sandbox, so these are malloc'd).
// - HeapProfiler.collectGarbage is run by V8 as a foreground task, which workerd pumps only after
//   a request has run JavaScript in that isolate: so a GC is asked for, then the edge is poked with a
//   cheap request (which runs the edge's Worker and Miniflare's entry Worker), then awaited (≤ 3 s).
//   An isolate that runs nothing meanwhile (the idle Miniflare helpers) is read without a GC.
// - Runtime.discardConsoleEntries before each GC: with an inspector V8 keeps console messages for
//   DevTools (production does not), which would count as retained.
// One session per target stays open for the stack's life: workerd queues its warnings for an
// inspector that has no session, and a new session boots the old one.
import { readFileSync } from "node:fs";

export interface HeapUsage {
  /** V8 heap in use (live objects and garbage not yet collected), bytes. */
  used: number;
  /** V8 heap committed. */
  total: number;
  /** Backing stores of ArrayBuffers and external strings (outside the V8 heap pages, malloc'd). */
  backing: number;
}

/** The edge's own Worker at /json (Miniflare names a user Worker core:user:<name>). */
const EDGE_TARGET = /^core:user:codecell-edge$/;

const CALL_TIMEOUT_MS = 3_000;

class Session {
  readonly id: string;
  readonly #ws: WebSocket;
  #next = 0;
  readonly #pending = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  closed = false;
  private constructor(id: string, ws: WebSocket) {
    this.id = id;
    this.#ws = ws;
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
      // Events (console messages, warnings) are read and dropped.
      if (m.id === undefined) return;
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.error) p.reject(new Error(`${this.id}: ${m.error.message}`));
      else p.resolve(m.result ?? {});
    };
    ws.onclose = () => {
      this.closed = true;
      for (const [, p] of this.#pending) {
        clearTimeout(p.timer);
        p.reject(new Error(`${this.id}: inspector session closed`));
      }
      this.#pending.clear();
    };
  }
  static open(id: string, url: string): Promise<Session> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const timer = setTimeout(() => {
        ws.close();
        reject(new Error(`${id}: inspector session did not open`));
      }, CALL_TIMEOUT_MS);
      ws.onopen = () => {
        clearTimeout(timer);
        resolve(new Session(id, ws));
      };
      ws.onerror = () => {
        clearTimeout(timer);
        reject(new Error(`${id}: inspector session failed to open`));
      };
    });
  }
  call(method: string, timeoutMs = CALL_TIMEOUT_MS): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new Error(`${this.id}: inspector session closed`));
    return new Promise((resolve, reject) => {
      const id = ++this.#next;
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${this.id}: ${method} timed out`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#ws.send(JSON.stringify({ id, method, params: {} }));
    });
  }
  async usage(): Promise<HeapUsage> {
    const r = await this.call("Runtime.getHeapUsage");
    return { used: Number(r.usedSize), total: Number(r.totalSize), backing: Number(r.backingStorageSize ?? 0) };
  }
  close(): void {
    this.closed = true;
    this.#ws.close();
  }
}

/** workerd's inspector address from its command line (--inspector-addr=host:port), or null. */
export function inspectorAddr(workerdPid: number): string | null {
  try {
    const args = readFileSync(`/proc/${workerdPid}/cmdline`, "utf8").split("\0");
    const addr = args.find((a) => a.startsWith("--inspector-addr="))?.slice("--inspector-addr=".length);
    return addr ? addr.replace(/^localhost:/, "127.0.0.1:") : null;
  } catch {
    return null;
  }
}

/** Every isolate's used heap, the edge's apart: one reading. */
export interface HeapReading {
  edge: HeapUsage;
  /** Summed over every isolate (the edge's included). */
  all: HeapUsage;
  isolates: number;
}

const sum = (us: HeapUsage[]): HeapUsage =>
  us.reduce((a, u) => ({ used: a.used + u.used, total: a.total + u.total, backing: a.backing + u.backing }), { used: 0, total: 0, backing: 0 });

export class Inspector {
  readonly #sessions: Session[];
  readonly #edge: Session;
  private constructor(sessions: Session[], edge: Session) {
    this.#sessions = sessions;
    this.#edge = edge;
  }

  /** Sessions on every isolate of the workerd process; a reason (string) when it has no inspector. */
  static async connect(workerdPid: number): Promise<Inspector | string> {
    const addr = inspectorAddr(workerdPid);
    if (!addr) return "workerd runs without --inspector-addr";
    let targets: { id: string; webSocketDebuggerUrl: string }[];
    try {
      targets = (await (await fetch(`http://${addr}/json`, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })).json()) as typeof targets;
    } catch (e) {
      return `http://${addr}/json: ${String(e instanceof Error ? e.message : e)}`;
    }
    const sessions: Session[] = [];
    try {
      for (const t of targets) sessions.push(await Session.open(t.id, t.webSocketDebuggerUrl));
    } catch (e) {
      for (const s of sessions) s.close();
      return String(e instanceof Error ? e.message : e);
    }
    const edge = sessions.find((s) => EDGE_TARGET.test(s.id));
    if (!edge) {
      for (const s of sessions) s.close();
      return `no target named core:user:codecell-edge at http://${addr}/json (${targets.map((t) => t.id).join(", ")})`;
    }
    return new Inspector(sessions, edge);
  }

  get isolates(): number {
    return this.#sessions.length;
  }

  /** One reading of every isolate's heap (an isolate whose session failed counts 0). */
  async read(): Promise<HeapReading> {
    const all = await Promise.all(this.#sessions.map((s) => (s === this.#edge ? s.usage() : s.usage().catch(() => ({ used: 0, total: 0, backing: 0 })))));
    return { edge: all[this.#sessions.indexOf(this.#edge)]!, all: sum(all), isolates: all.length };
  }

  /**
   * A full GC in every isolate that runs JavaScript meanwhile (the edge's and Miniflare's entry
   * Worker at least: `poke` sends a request through both), then a reading. Throws when the edge's
   * isolate did not collect within the timeout.
   */
  async collected(poke: () => Promise<unknown>): Promise<HeapReading> {
    await Promise.all(this.#sessions.map((s) => s.call("Runtime.discardConsoleEntries").catch(() => {})));
    const gcs = this.#sessions.map((s) => s.call("HeapProfiler.collectGarbage"));
    for (const g of gcs) g.catch(() => {});
    // The GC runs once the isolate has run a request's JavaScript; poke again while it has not.
    const edgeGc = gcs[this.#sessions.indexOf(this.#edge)]!;
    let done = false;
    void edgeGc.then(() => (done = true), () => (done = true));
    for (let i = 0; i < 5 && !done; i++) {
      await poke().catch(() => {});
      await Promise.race([edgeGc.catch(() => {}), new Promise((r) => setTimeout(r, 300))]);
    }
    await edgeGc;
    // The other isolates' GCs, those that ran: a moment more; the rest are read as they are.
    await Promise.race([Promise.allSettled(gcs), new Promise((r) => setTimeout(r, 300))]);
    return this.read();
  }

  close(): void {
    for (const s of this.#sessions) s.close();
  }
}

/** Peak of the isolates' used heap, read every `everyMs` (a reading still in flight is not doubled). */
export class HeapSampler {
  readonly #inspector: Inspector;
  readonly #timer: NodeJS.Timeout;
  #busy = false;
  peakEdge: HeapUsage | null = null;
  peakAll: HeapUsage | null = null;
  /** The largest ArrayBuffer backing stores seen in the edge's isolate; the largest committed heap, the edge's and all isolates'. */
  peakEdgeBacking = 0;
  peakEdgeTotal = 0;
  peakAllTotal = 0;
  samples = 0;
  failures = 0;
  constructor(inspector: Inspector, everyMs = 100) {
    this.#inspector = inspector;
    this.#timer = setInterval(() => void this.#sample(), everyMs);
    void this.#sample();
  }
  async #sample(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      const r = await this.#inspector.read();
      this.samples++;
      if (!this.peakEdge || r.edge.used > this.peakEdge.used) this.peakEdge = r.edge;
      if (!this.peakAll || r.all.used > this.peakAll.used) this.peakAll = r.all;
      this.peakEdgeBacking = Math.max(this.peakEdgeBacking, r.edge.backing);
      this.peakEdgeTotal = Math.max(this.peakEdgeTotal, r.edge.total);
      this.peakAllTotal = Math.max(this.peakAllTotal, r.all.total);
    } catch {
      this.failures++;
    } finally {
      this.#busy = false;
    }
  }
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    while (this.#busy) await new Promise((r) => setTimeout(r, 10));
    await this.#sample();
  }
}
