// A live session's run, as its submission learns it, pushed to the session's object (SessionDO):
// the node, the stages, the output as text, the record at the end. One push in flight at a time,
// so the session sees them in order; what comes meanwhile goes in the next push.
import type { OutputStream as WireStream, ExecuteResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { OutputStream } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { ResultRecord } from "../../../proto/record.ts";
import type { NodeTarget } from "../contracts/scheduler.ts";
import type { SessionEvent } from "../contracts/session.ts";
import type { RunOptions } from "../contracts/submission.ts";
import type { Env } from "../env.ts";
import { sessionObject } from "../stubs.ts";

/** The feed of a submission made with `options`, when it is a live session's. */
export function sessionFeedFor(host: { env: Env; waitUntil: (p: Promise<unknown>) => void }, options: RunOptions | undefined): SessionFeed | null {
  return options?.live ? new SessionFeed(host.env, options.live.session, host.waitUntil) : null;
}

const streamName = (s: WireStream) => (s === OutputStream.OUTPUT_STREAM_STDERR ? "stderr" : "stdout");

export class SessionFeed {
  readonly #env: Env;
  readonly #session: string;
  readonly #waitUntil: (p: Promise<unknown>) => void;
  readonly #queue: SessionEvent[] = [];
  /** One decoder per stream: a character split across two chunks is kept whole. */
  readonly #decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  #sending = false;

  constructor(env: Env, session: string, waitUntil: (p: Promise<unknown>) => void) {
    this.#env = env;
    this.#session = session;
    this.#waitUntil = waitUntil;
  }

  node(node: NodeTarget): void {
    this.#add({ kind: "node", node });
  }

  /** The node's stage and output events (the others reach the session through the record). */
  fromNode(ev: ExecuteResponse): void {
    if (ev.stage) this.#add({ kind: "stage", stage: ev.stage.name });
    else if (ev.output && ev.output.data.length > 0) {
      const stream = streamName(ev.output.stream);
      const data = this.#decoders[stream].decode(ev.output.data, { stream: true });
      if (data) this.#add({ kind: "output", stream, data });
    }
  }

  result(record: ResultRecord): void {
    for (const stream of ["stdout", "stderr"] as const) {
      const rest = this.#decoders[stream].decode();
      if (rest) this.#queue.push({ kind: "output", stream, data: rest });
    }
    this.#add({ kind: "result", record });
  }

  #add(e: SessionEvent): void {
    this.#queue.push(e);
    if (this.#sending) return;
    this.#sending = true;
    this.#waitUntil(this.#send());
  }

  async #send(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0);
        await sessionObject(this.#env, this.#session).push(batch).catch((e: unknown) => {
          console.warn("live session push failed", this.#session, e instanceof Error ? e.message : String(e));
        });
      }
    } finally {
      this.#sending = false;
    }
  }
}
