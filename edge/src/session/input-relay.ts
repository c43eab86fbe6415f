// A live session's input on its way from its clients to its program (docs/live-sessions.md, "The
// channel, both ways"): the session's stdin cap and window, the stdin count kept on the sockets, and
// the pump to the program's node (stdin-pump.ts), made again after a wake-up. The session's object
// (do/session-do.ts) hands it each client's stdin, end and signal.
import type { NodeTarget } from "../contracts/scheduler.ts";
import type { Env } from "../env.ts";
import { fleetRegistry, submissionObject } from "../stubs.ts";
import type { Refusal } from "./dialect.ts";
import { MAX_CONTROLS_WAITING, PAST_CONTROLS } from "./message-budget.ts";
import type { Session, SocketState } from "./sockets.ts";
import { STDIN_WINDOW_BYTES, StdinPump } from "./stdin-pump.ts";

export interface RelayHost {
  env: Env;
  /** The session once admitted (null before, or none). */
  stored(): Session | null;
  /** The node has taken stdin up to `taken`: every socket is told. */
  taken(taken: number): void;
  /** Ends one socket and kills the program. */
  refuse(ws: WebSocket, r: Refusal): void;
  /** Ends every socket and kills the program. */
  refuseAll(r: Refusal): void;
}

export class InputRelay {
  readonly #host: RelayHost;
  #pump: StdinPump | null = null;
  #node: NodeTarget | null = null;

  constructor(host: RelayHost) {
    this.#host = host;
  }

  /** The run's node, as its submission's object learnt it: what waits goes there now. */
  node(node: NodeTarget): void {
    this.#node = node;
    this.pump()?.kick();
  }

  stdin(ws: WebSocket, data: Uint8Array): void {
    const s = this.#host.stored();
    const pump = this.pump();
    if (!s || !pump) return;
    if (s.received + data.length > s.caps.stdin_bytes) {
      return this.#host.refuseAll({ refused: "stdin_cap", message: `stdin past the session's cap of ${s.caps.stdin_bytes} bytes; the program was killed` });
    }
    if (pump.waiting + data.length > STDIN_WINDOW_BYTES) {
      const message = `more than ${STDIN_WINDOW_BYTES} bytes of stdin wait for the program; wait for stdin_ack before sending more`;
      return this.#host.refuse(ws, { refused: "window", message });
    }
    s.received += data.length;
    // Kept on the socket for a wake-up (the cap counts on): no storage write in the way of the bytes.
    ws.serializeAttachment({ ...(ws.deserializeAttachment() as SocketState), received: s.received });
    pump.write(data);
  }

  /** An end or a signal; past the controls that may wait, the session ends. */
  control(send: (pump: StdinPump) => void): void {
    const pump = this.pump();
    if (!pump) return;
    send(pump);
    if (pump.controlsWaiting > MAX_CONTROLS_WAITING) this.#host.refuseAll(PAST_CONTROLS);
  }

  /** SIGKILL for a program still running. */
  kill(): void {
    const s = this.#host.stored();
    if (s && !s.done) this.pump()?.signal("SIGKILL");
  }

  /**
   * The stdin pump. Made with the session (`fresh`) it starts from 0; made again after a wake-up or
   * an edge restart, it first asks the node what it has taken (the count here may be behind).
   */
  pump(fresh = false): StdinPump | null {
    if (this.#pump) return this.#pump;
    const s = this.#host.stored();
    if (!s || s.done) return null;
    this.#pump = new StdinPump(s.id, {
      node: () => this.#runNode(s.id),
      taken: (taken) => {
        s.received = Math.max(s.received, taken);
        this.#host.taken(taken);
      },
      closed: () => {},
      failed: (why) => console.warn("live session stdin failed", s.id, why),
    }, fresh ? 0 : null);
    return this.#pump;
  }

  async #runNode(id: string): Promise<NodeTarget | null> {
    if (this.#node) return this.#node;
    const nodeId = await submissionObject(this.#host.env, id).liveNode(id);
    const target = nodeId ? await fleetRegistry(this.#host.env).target(nodeId) : null;
    // A push may have named the node meanwhile: it stands.
    this.#node ??= target;
    return this.#node;
  }
}
