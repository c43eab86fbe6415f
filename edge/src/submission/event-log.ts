// A submission's events as stored in its Durable Object's synchronous KV: each event's finished
// SSE frame under its sequence number (1, 2, ...). Writes are synchronous puts that the runtime
// coalesces into the object's next commit: a chunk costs no storage round trip. The `completed`
// event is only a mark: its data is the record, read when the event is sent.
import { CHUNK_CHARS } from "../lib/chunks.ts";
import { KvBlobs } from "../lib/kv-blobs.ts";

const LAST = "ev_last";
const COMPLETED = "ev_completed";

export class EventLog {
  readonly #kv: SyncKvStorage;
  /** Frames too big for one value (a test's record with its output) are chunked. */
  readonly #big: KvBlobs;
  /** Output events appended by this instance (a run's output reaches only the instance that streams it). */
  #outputs = 0;

  constructor(kv: SyncKvStorage) {
    this.#kv = kv;
    this.#big = new KvBlobs(kv);
  }

  /** The last event's id (0: none yet). */
  get last(): number {
    return this.#kv.get<number>(LAST) ?? 0;
  }

  /** The id of the `completed` event, once there is one. */
  get completedId(): number | undefined {
    return this.#kv.get<number>(COMPLETED);
  }

  /** Output events stored so far (the cap counts these). */
  get outputs(): number {
    return this.#outputs;
  }

  /** Stores the frame `make(id)` under the next id and returns it. */
  append(make: (id: number) => string, output = false): { id: number; frame: string } {
    const id = this.last + 1;
    const frame = make(id);
    if (frame.length <= CHUNK_CHARS) this.#kv.put(`ev:${id}`, frame);
    else {
      this.#big.put(`ev:${id}`, frame);
      this.#kv.put(`ev:${id}`, null);
    }
    this.#kv.put(LAST, id);
    if (output) this.#outputs++;
    return { id, frame };
  }

  markCompleted(): number {
    const id = this.last + 1;
    this.#kv.put(COMPLETED, id);
    this.#kv.put(LAST, id);
    return id;
  }

  /** Every stored frame after `after`, in order, with the completed event made by `completed(id)`. */
  *replay(after: number, completed: (id: number) => string): Generator<string> {
    const done = this.completedId;
    const last = this.last;
    for (let id = after + 1; id <= last; id++) {
      if (id === done) yield completed(id);
      else yield this.#kv.get<string | null>(`ev:${id}`) ?? this.#big.get(`ev:${id}`);
    }
  }
}
