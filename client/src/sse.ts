// A text/event-stream reader (the WHATWG EventSource parsing rules, without EventSource: it needs
// custom headers for the key and Last-Event-ID). Yields one message per blank-line-terminated block.

export interface SseMessage {
  /** The block's `id:` field, or null when it has none. */
  id: string | null;
  event: string;
  data: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let id: string | null = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A trailing "\r" may be the first half of a "\r\n": keep it for the next chunk.
      const held = !done && buffer.endsWith("\r");
      const lines = (held ? buffer.slice(0, -1) : buffer).split(/\r\n|\r|\n/);
      // The last piece is an unfinished line (empty after a line break).
      buffer = done ? "" : lines.pop()! + (held ? "\r" : "");
      for (const line of lines) {
        if (line === "") {
          if (data.length > 0) yield { id, event: event || "message", data: data.join("\n") };
          data = [];
          event = "";
          id = null;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "event") event = value;
        else if (field === "id" && !value.includes("\0")) id = value;
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
