// A submission's events as stored in its shard's synchronous KV, under their sequence numbers
// (1, 2, ...), compactly: a small event as its SSE frame; an output chunk as the raw bytes it is
// the text of (output-text.ts), never as JSON (a control byte would take 6); a test's event as its
// record without output, plus that output's bytes until the run ends. At the end the run's record
// becomes the output's one home: compact() turns each output chunk into a range of the record's
// bytes and each test's event into the test's index, so a finished run stores its output once.
// Entries are written and read through (never kept in memory once written). While nobody follows
// the stream they wait in memory and are written with the terminal record (one commit); once a
// client follows, each is written as it comes, so a reconnect by Last-Event-ID finds what it was
// sent. The `completed` event is only a mark: its data is the record, read when it is sent.
import type { BulkKv } from "../lib/scoped-kv.ts";
import type { TestRecord } from "../../../proto/record.ts";
import { EVENT_MEMORY_BYTES } from "./budgets.ts";
import { placeOf, sameBytes, type Place, type RecordOutput, type StreamName } from "./output-bytes.ts";

const LAST = "ev_last";
const COMPLETED = "ev_completed";

/** A test's record without its output (the output is in `bytes`, or in the record once compacted). */
export type BareTest = Omit<TestRecord, "stdout" | "stderr">;

export type EventEntry =
  /** queued, started: the frame itself. */
  | string
  /** An output chunk: its bytes (while the run goes). */
  | { o: StreamName; t: number; b: Uint8Array }
  /** An output chunk once compacted: bytes [a, z) of the record's stream at `p`. */
  | { o: StreamName; t: number; p: Place; a: number; z: number }
  /** A test's event: its record without output, and the output's bytes until compacted. */
  | { i: number; r?: BareTest; b?: [Uint8Array, Uint8Array] };

/** An output-carrying entry without its bytes: a chunk's stream, test and length, or a test's index and output lengths. */
type Shape = { o: StreamName; t: number; n: number } | { i: number; n: [number, number] };

function shapeOf(e: EventEntry | undefined): Shape | null {
  if (typeof e !== "object" || e === null || !("b" in e) || !e.b) return null;
  if ("o" in e) return { o: e.o, t: e.t, n: e.b.length };
  return { i: e.i, n: [e.b[0].length, e.b[1].length] };
}

/** Bytes an entry with output takes: its output and its framing. */
const shapeBytes = (s: Shape): number => ("o" in s ? s.n : s.n[0] + s.n[1]) + 64;

/** Bytes an entry takes in memory (a frame's UTF-16, or its output and framing). */
function entrySize(e: EventEntry): number {
  if (typeof e === "string") return e.length * 2;
  const shape = shapeOf(e);
  return shape ? shapeBytes(shape) : 64;
}

export class EventLog {
  readonly #kv: BulkKv;
  /** Output events appended by this instance (a run's output reaches only the instance that streams it). */
  #outputs = 0;
  /** Entries not written yet, in order. */
  #pending: [number, EventEntry][] = [];
  /** Bytes of the entries in #pending. */
  #pendingBytes = 0;
  /** Read when first needed (a new submission's scope is known empty by then: no read). */
  #last: number | undefined;
  #eager = false;
  /** Makes room when the entries held pass EVENT_MEMORY_BYTES (the submission writes itself, then flush()). */
  readonly #spill: () => void;
  /**
   * What this instance appended that carries output, without the bytes (their lengths): the
   * compaction needs no read-back of what it wrote itself (the node's Output and TestFinished
   * events are the bytes its result reports, by construction: fleet-node.md, "Output budget").
   */
  readonly #shapes = new Map<number, Shape | null>();

  constructor(kv: BulkKv, spill?: () => void) {
    this.#kv = kv;
    this.#spill = spill ?? (() => this.flush());
  }

  /** The last event's id (0: none yet). */
  get last(): number {
    return (this.#last ??= this.#kv.get<number>(LAST) ?? 0);
  }

  /** The id of the `completed` event, once there is one. */
  get completedId(): number | undefined {
    return this.#kv.get<number>(COMPLETED);
  }

  /** Bytes of entries held in memory, not written yet. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** Output events stored so far (the cap counts these). */
  get outputs(): number {
    return this.#outputs;
  }

  /** Stores `entry` under the next id and returns the id. */
  append(entry: EventEntry): number {
    const id = (this.#last = this.last + 1);
    this.#pending.push([id, entry]);
    this.#pendingBytes += entrySize(entry);
    this.#shapes.set(id, shapeOf(entry)); // null: no output (queued, started), never read back
    if (this.#eager) this.flush();
    else if (this.#pendingBytes > EVENT_MEMORY_BYTES) {
      this.#spill();
      this.flush();
    }
    if (typeof entry === "object" && "o" in entry) this.#outputs++;
    return id;
  }

  /** From now on every entry is written as it is appended (a client follows the stream). */
  persistEagerly(): void {
    this.#eager = true;
    this.flush();
  }

  /** Writes the entries waiting in memory. */
  flush(): void {
    if (this.#pending.length === 0) return;
    for (const [id, entry] of this.#pending) this.#kv.putThrough(`ev:${id}`, entry);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#kv.put(LAST, this.last);
  }

  /**
   * The record `out` is the output's home from now on: each output chunk becomes the range of it
   * it stands for, each test's event its index. What this instance appended is placed by its
   * length; an entry written before (another instance's: an eviction) is read back and compared,
   * and one that does not match keeps its own bytes, as does every later chunk of its stream.
   * Without a record (an error) every entry keeps its bytes. Call inside the terminal commit.
   * Returns the bytes of output still stored in entries.
   */
  compact(out: RecordOutput | null): number {
    this.flush();
    const offsets = new Map<string, number>();
    const broken = new Set<string>();
    let left = 0;
    for (let id = 1; id <= this.last; id++) {
      const known = this.#shapes.has(id);
      const stored = known ? undefined : this.#kv.getThrough<EventEntry>(`ev:${id}`);
      const shape = known ? this.#shapes.get(id)! : shapeOf(stored);
      if (!shape) continue;
      const compacted = out ? placed(shape, out, offsets, broken, stored) : null;
      if (compacted) this.#kv.putThrough(`ev:${id}`, compacted);
      else left += shapeBytes(shape);
    }
    this.#shapes.clear();
    return left;
  }

  markCompleted(): number {
    this.flush();
    const id = (this.#last = this.last + 1);
    this.#kv.put(COMPLETED, id);
    this.#kv.put(LAST, id);
    return id;
  }

  /**
   * Every event after `after` in order, as `render` makes its frame (or the frame's pieces) from
   * the stored entry (the completed event's entry is null), read one at a time as the caller
   * pulls: a replay's memory is one event's, however long the run. Stops early if the submission
   * is wiped meanwhile.
   */
  replay(after: number, render: (id: number, entry: EventEntry | null) => string | Iterable<string>): Generator<string> {
    // Which events the replay covers is fixed now, not when it is first read: a live event
    // appended meanwhile goes to the follower directly, and must not come twice.
    this.flush();
    const [done, last] = [this.completedId, this.last];
    const kv = this.#kv;
    return (function* () {
      for (let id = after + 1; id <= last; id++) {
        const entry = id === done ? null : kv.getThrough<EventEntry>(`ev:${id}`);
        if (entry === undefined) return;
        const frame = render(id, entry);
        if (typeof frame === "string") yield frame;
        else yield* frame;
      }
    })();
  }
}

/**
 * Where an entry's output is in the record, or null when it is not there. `stored`: the entry as
 * read back (its bytes are compared); absent: this instance appended it (its length places it).
 */
function placed(shape: Shape, out: RecordOutput, offsets: Map<string, number>, broken: Set<string>, stored: EventEntry | undefined): EventEntry | null {
  const bytes = typeof stored === "object" && stored !== null && "b" in stored ? stored.b : undefined;
  if (!("o" in shape)) {
    const test = out.tests[shape.i];
    if (!test || test.stdout.length !== shape.n[0] || test.stderr.length !== shape.n[1]) return null;
    const [stdout, stderr] = (bytes as [Uint8Array, Uint8Array] | undefined) ?? [];
    return !stdout || !stderr || (sameBytes(test.stdout, stdout) && sameBytes(test.stderr, stderr)) ? { i: shape.i } : null;
  }
  const place = placeOf(out, shape.t);
  const key = `${place}:${shape.o}`;
  if (broken.has(key)) return null;
  const whole = place === "top" ? out.top?.[shape.o] : out.tests[place]?.[shape.o];
  const a = offsets.get(key) ?? 0;
  const z = a + shape.n;
  if (!whole || z > whole.length || (bytes instanceof Uint8Array && !sameBytes(whole.subarray(a, z), bytes))) {
    broken.add(key);
    return null;
  }
  offsets.set(key, z);
  return { o: shape.o, t: shape.t, p: place, a, z };
}
