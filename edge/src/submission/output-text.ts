// A run's streamed output as the record writes it: UTF-8 text, or base64 of the raw bytes. Each
// stream of each test has its own decoder, so a character split across two chunks is decoded
// whole, and the concatenated chunks of a stream equal the record's text (utf8) or, decoded, its
// bytes (base64).
import { toBase64 } from "../../../proto/base64.ts";
import type { Encoding } from "../../../proto/record.ts";

export class OutputText {
  readonly #encoding: Encoding;
  readonly #decoders = new Map<string, InstanceType<typeof TextDecoder>>();

  constructor(encoding: Encoding) {
    this.#encoding = encoding;
  }

  get encoding(): Encoding {
    return this.#encoding;
  }

  /** The text of `bytes` for the stream `key`; "" when they end inside a character (held for the next chunk). */
  take(key: string, bytes: Uint8Array): string {
    if (this.#encoding === "base64") return toBase64(bytes);
    let decoder = this.#decoders.get(key);
    if (!decoder) this.#decoders.set(key, (decoder = new TextDecoder("utf-8")));
    return decoder.decode(bytes, { stream: true });
  }

  /** What a stream's decoder still holds (an unfinished character → U+FFFD, as the record has it). */
  finish(key: string): string {
    const decoder = this.#decoders.get(key);
    this.#decoders.delete(key);
    return decoder ? decoder.decode() : "";
  }

  /** Keys still holding bytes or state, to finish at the end of the run. */
  keys(): string[] {
    return [...this.#decoders.keys()];
  }
}
