// The scheduler's queue as it stands, held in memory beside its table (the SchedulerDO is the
// table's only writer): who waits, in which order, and at which place, without a statement per
// question. Order is the table's `seq` order: runs sent back by a node (requeued) go before every
// other, the latest of them first; the others are in the order they came. Pure, unit tested.

export interface Waiting {
  seq: number;
  sub_id: string;
  language: string;
}

export class WaitingLine {
  /** Sent back, in seq order (each one's seq is below every other's: the newest is first). */
  #front: Waiting[] = [];
  /** The others, in seq order (a Map keeps insertion order, and they come in seq order). */
  #rest = new Map<string, Waiting>();
  /** The last appended while it is still in line (its place is the line's length). */
  #last: string | null = null;

  /** A line as stored (rows in any order). */
  static of(rows: Waiting[]): WaitingLine {
    const line = new WaitingLine();
    for (const row of [...rows].sort((a, b) => a.seq - b.seq)) line.#rest.set(row.sub_id, row);
    return line;
  }

  get size(): number {
    return this.#front.length + this.#rest.size;
  }

  has(subId: string): boolean {
    return this.#rest.has(subId) || this.#front.some((w) => w.sub_id === subId);
  }

  /** The seq of the first in line (undefined when nobody waits). */
  get headSeq(): number | undefined {
    return this.#front[0]?.seq ?? this.#rest.values().next().value?.seq;
  }

  /** At the end of the line (`seq`: above every seq in it). */
  append(w: Waiting): void {
    this.#rest.set(w.sub_id, w);
    this.#last = w.sub_id;
  }

  /** At the head of the line (`seq`: below every seq in it). */
  prepend(w: Waiting): void {
    this.#front.unshift(w);
  }

  /** Whether it was in line. */
  remove(subId: string): boolean {
    if (this.#last === subId) this.#last = null;
    if (this.#rest.delete(subId)) return true;
    const at = this.#front.findIndex((w) => w.sub_id === subId);
    if (at < 0) return false;
    this.#front.splice(at, 1);
    return true;
  }

  /** 1 for the first in line; 0 when not in line. */
  position(subId: string): number {
    const front = this.#front.findIndex((w) => w.sub_id === subId);
    if (front >= 0) return front + 1;
    if (!this.#rest.has(subId)) return 0;
    if (subId === this.#last) return this.size;
    let place = this.#front.length;
    for (const id of this.#rest.keys()) {
      place++;
      if (id === subId) break;
    }
    return place;
  }

  /** First to last. Removing the entry just yielded is allowed while iterating. */
  *inOrder(): Generator<Waiting> {
    for (const w of [...this.#front]) yield w;
    yield* this.#rest.values();
  }
}
