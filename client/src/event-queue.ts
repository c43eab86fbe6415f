// Events pushed by a socket, pulled by one async iterator: kept until read, ending after end().

export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #ended = false;
  #waiting: ((result: IteratorResult<T>) => void) | null = null;

  push(item: T): void {
    if (this.#ended) return;
    if (this.#waiting) {
      const wake = this.#waiting;
      this.#waiting = null;
      wake({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  /** No more items: the iterator ends once it has read those kept. */
  end(): void {
    this.#ended = true;
    this.#waiting?.({ value: undefined, done: true });
    this.#waiting = null;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#items.length > 0) return Promise.resolve({ value: this.#items.shift()!, done: false });
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    if (this.#waiting) return Promise.reject(new Error("a session's events are read by one iterator at a time"));
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return { next: () => this.next() };
  }
}
