// A submission's events as stored in its shard's synchronous KV: each event's finished SSE frame
// under its sequence number (1, 2, ...). While nobody follows the stream, frames wait in memory and
// are written with the terminal record (one commit for the whole run); once a client follows, each
// frame is written as it comes, so a reconnect by Last-Event-ID always finds what it was sent. The
// `completed` event is only a mark: its data is the record, read when the event is sent.
import { CHUNK_CHARS } from "../lib/chunks.ts";
import { KvBlobs } from "../lib/kv-blobs.ts";
import type { SyncKv } from "../lib/scoped-kv.ts";
import { EVENT_MEMORY_CHARS } from "./budgets.ts";

const LAST = "ev_last";
const COMPLETED = "ev_completed";

export class EventLog {
  readonly #kv: SyncKv;
  /** Frames too big for one value (a test's record with its output) are chunked. */
  readonly #big: KvBlobs;
  /** Output events appended by this instance (a run's output reaches only the instance that streams it). */
  #outputs = 0;
  /** Frames not written yet, in order. */
  #pending: [number, string][] = [];
  /** Characters of the frames in #pending. */
  #pendingChars = 0;
  /** Read when first needed (a new submission's scope is known empty by then: no read). */
  #last: number | undefined;
  #eager = false;
  /** Makes room when the frames held pass EVENT_MEMORY_CHARS (the submission writes itself, then flush()). */
  readonly #spill: () => void;

  constructor(kv: SyncKv, spill?: () => void) {
    this.#kv = kv;
    this.#spill = spill ?? (() => this.flush());
    this.#big = new KvBlobs(kv);
  }

  /** The last event's id (0: none yet). */
  get last(): number {
    return (this.#last ??= this.#kv.get<number>(LAST) ?? 0);
  }

  /** The id of the `completed` event, once there is one. */
  get completedId(): number | undefined {
    return this.#kv.get<number>(COMPLETED);
  }

  /** Characters of event frames held in memory, not written yet. */
  get pendingChars(): number {
    return this.#pendingChars;
  }

  /** Output events stored so far (the cap counts these). */
  get outputs(): number {
    return this.#outputs;
  }

  /** Stores the frame `make(id)` under the next id and returns it. */
  append(make: (id: number) => string, output = false): { id: number; frame: string } {
    const id = (this.#last = this.last + 1);
    const frame = make(id);
    this.#pending.push([id, frame]);
    this.#pendingChars += frame.length;
    if (this.#eager) this.flush();
    else if (this.#pendingChars > EVENT_MEMORY_CHARS) {
      this.#spill();
      this.flush();
    }
    if (output) this.#outputs++;
    return { id, frame };
  }

  /** From now on every frame is written as it is appended (a client follows the stream). */
  persistEagerly(): void {
    this.#eager = true;
    this.flush();
  }

  /** Writes the frames waiting in memory. */
  flush(): void {
    if (this.#pending.length === 0) return;
    for (const [id, frame] of this.#pending) {
      if (frame.length <= CHUNK_CHARS) this.#kv.put(`ev:${id}`, frame);
      else {
        this.#big.put(`ev:${id}`, frame);
        this.#kv.put(`ev:${id}`, null);
      }
    }
    this.#pending = [];
    this.#pendingChars = 0;
    this.#kv.put(LAST, this.last);
  }

  markCompleted(): number {
    this.flush();
    const id = (this.#last = this.last + 1);
    this.#kv.put(COMPLETED, id);
    this.#kv.put(LAST, id);
    return id;
  }

  /** Every frame after `after`, in order (written first), with the completed event made by `completed(id)`. */
  *replay(after: number, completed: (id: number) => string): Generator<string> {
    this.flush();
    const done = this.completedId;
    const last = this.last;
    for (let id = after + 1; id <= last; id++) {
      if (id === done) yield completed(id);
      else yield this.#kv.get<string | null>(`ev:${id}`) ?? this.#big.get(`ev:${id}`);
    }
  }
}
