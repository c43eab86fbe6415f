// A session's stdin on its way to the program's node (SendInput, docs/fleet-node.md "Live stdin"):
// the client's bytes, end and signals in the order sent, one call at a time, each from the offset
// the node has taken. The node takes only what fits its buffer; what it has not taken waits here,
// at most the session's window, so a program that does not read holds the edge to that.
import { fleetMethods, GrpcError, unary } from "../../../proto/grpc-web/client.ts";
import { Status } from "../../../proto/grpc-web/status.ts";
import type { NodeTarget } from "../contracts/scheduler.ts";

/** Stdin bytes a client may have sent and the node not yet taken (docs/live-sessions.md). */
export const STDIN_WINDOW_BYTES = 1024 * 1024;
/** One SendInput carries at most this much. */
const CALL_BYTES = 256 * 1024;
const CALL_TIMEOUT_MS = 10_000;
/** Waits before asking again: the program is not reading, or the run is not registered yet. */
const RETRY_MS = [5, 20, 50, 100, 200];

type Item = { data: Uint8Array } | { end: true } | { signal: string };

export interface PumpHost {
  /** The run's node, once known. */
  node(): Promise<NodeTarget | null>;
  /** The node took stdin up to `taken`. */
  taken(taken: number): void;
  /** The run's input is closed (it ended): nothing more is taken. */
  closed(): void;
  failed(why: string): void;
}

export class StdinPump {
  readonly #submissionId: string;
  readonly #host: PumpHost;
  readonly #queue = new Fifo<Item>();
  /** Bytes the node has taken; null until its first answer (after a hibernation, the node says). */
  #taken: number | null = null;
  /** Bytes received and not yet taken by the node. */
  #waiting = 0;
  #running = false;
  /** Kicked while running: run once more after. */
  #again = false;
  #closed = false;
  /** The signals (and the end) waiting, sent or not: one of each kind at most (a repeat is coalesced). */
  readonly #pendingControls = new Set<string>();
  /** End and signal messages received and not yet delivered, the coalesced ones included. */
  #controlsReceived = 0;

  constructor(submissionId: string, host: PumpHost, taken: number | null = 0) {
    this.#submissionId = submissionId;
    this.#host = host;
    this.#taken = taken;
  }

  /** Bytes received and not yet taken by the node. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Bytes the node has taken; null until it answers after a wake-up. */
  get taken(): number | null {
    return this.#taken;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** End and signal messages the client sent that wait for the node (coalesced ones included). */
  get controlsWaiting(): number {
    return this.#controlsReceived;
  }

  write(data: Uint8Array): void {
    if (data.length === 0 || this.#closed) return;
    this.#waiting += data.length;
    this.#queue.push({ data });
    this.kick();
  }

  end(): void {
    this.#control("end", { end: true });
  }

  /**
   * A signal after the input sent before it. SIGKILL goes first: the input still waiting is dropped
   * (the program dies, and one that does not read would otherwise never get it).
   */
  signal(name: string): void {
    if (name === "SIGKILL") {
      this.#queue.clear();
      this.#waiting = 0;
      this.#pendingControls.clear();
    }
    this.#control(name, { signal: name });
  }

  /** Queued unless one of its kind waits already: as the kernel's pending signals, a repeat is one. */
  #control(kind: string, item: Item): void {
    if (this.#closed) return;
    this.#controlsReceived++;
    if (this.#pendingControls.has(kind)) return;
    this.#pendingControls.add(kind);
    this.#queue.push(item);
    this.kick();
  }

  /** Sends what waits (again: the node is known now, or it may have room). */
  kick(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    this.#again = false;
    void this.#run().finally(() => {
      this.#running = false;
      if (this.#again) this.kick();
    });
  }

  async #run(): Promise<void> {
    for (let attempt = 0; !this.#closed && (this.#queue.length > 0 || this.#taken === null); ) {
      const node = await this.#host.node();
      if (!node) return; // the run is not at a node yet: kicked again when it is
      // After a wake-up the node says first where it is (a query), so new bytes go from there.
      const call = this.#taken === null ? { request: {}, bytes: 0, control: null } : this.#nextCall();
      let progressed = false;
      try {
        const before = this.#taken ?? 0;
        const res = await unary(node, fleetMethods.sendInput, { submissionId: this.#submissionId, offset: before, ...call.request }, CALL_TIMEOUT_MS);
        progressed = this.#settle(Number(res.taken), call, res.closed);
        if (res.closed) return this.#close();
        if (progressed && res.room > 0) attempt = 0;
      } catch (e) {
        if (!(e instanceof GrpcError) || (e.code !== Status.NOT_FOUND && !e.transport)) return this.#fail(e);
      }
      if (!progressed || this.#queue.length > 0) await pause(RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]!);
    }
  }

  /** The next call: the data before the first end or signal (capped), with that end or signal when all of it goes. */
  #nextCall(): { request: { data?: Uint8Array; end?: boolean; signal?: string }; bytes: number; control: Item | null } {
    const parts: Uint8Array[] = [];
    let bytes = 0;
    let i = 0;
    for (; i < this.#queue.length && bytes < CALL_BYTES; i++) {
      const item = this.#queue.at(i)!;
      if (!("data" in item)) break;
      parts.push(item.data);
      bytes += item.data.length;
    }
    const data = concat(parts, Math.min(bytes, CALL_BYTES));
    const next = this.#queue.at(i);
    const control = bytes <= CALL_BYTES && next !== undefined && !("data" in next) ? next : null;
    const extra = control === null || "data" in control ? {} : "end" in control ? { end: true } : { signal: control.signal };
    return { request: { ...(data.length ? { data } : {}), ...extra }, bytes: data.length, control };
  }

  /** Drops what the node took; whether anything moved. */
  #settle(taken: number, call: { bytes: number; control: Item | null }, closed: boolean): boolean {
    const before = this.#taken;
    this.#taken = taken;
    if (before === null) {
      // The first answer after a wake-up: what came before it was all taken.
      this.#host.taken(taken);
      return true;
    }
    let drop = taken - before;
    while (drop > 0 && this.#queue.length > 0) {
      const head = this.#queue.at(0)!;
      if (!("data" in head)) break;
      const cut = Math.min(head.data.length, drop);
      drop -= cut;
      this.#waiting -= cut;
      if (cut === head.data.length) this.#queue.shift();
      else this.#queue.replaceHead({ data: head.data.subarray(cut) });
    }
    const allSent = taken - before === call.bytes;
    // Not when a SIGKILL cleared the queue meanwhile: the head is the SIGKILL then, still to send.
    if (call.control && allSent && !closed && this.#queue.at(0) === call.control) this.#delivered();
    if (taken > before) this.#host.taken(taken);
    return taken > before || (call.control !== null && allSent);
  }

  /** The control at the head was taken; what waits now is the controls still queued. */
  #delivered(): void {
    const head = this.#queue.at(0)!;
    this.#pendingControls.delete("end" in head ? "end" : "signal" in head ? head.signal : "");
    this.#queue.shift();
    this.#controlsReceived = this.#pendingControls.size;
  }

  #close(): void {
    this.#closed = true;
    this.#queue.clear();
    this.#waiting = 0;
    this.#pendingControls.clear();
    this.#controlsReceived = 0;
    this.#host.closed();
  }

  #fail(e: unknown): void {
    this.#close();
    this.#host.failed(e instanceof Error ? e.message : String(e));
  }
}

function concat(parts: Uint8Array[], max: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.length <= max) return parts[0]!;
  const out = new Uint8Array(max);
  let at = 0;
  for (const part of parts) {
    const take = Math.min(part.length, max - at);
    out.set(part.subarray(0, take), at);
    at += take;
    if (at === max) break;
  }
  return out;
}

/** A first-in first-out queue whose shift is amortized O(1): a client may send a million one-byte messages. */
class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  at(i: number): T | undefined {
    return this.#items[this.#head + i];
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): void {
    this.#head++;
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items.splice(0, this.#head);
      this.#head = 0;
    }
  }

  replaceHead(item: T): void {
    this.#items[this.#head] = item;
  }

  clear(): void {
    this.#items.length = 0;
    this.#head = 0;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
