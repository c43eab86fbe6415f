// The pure parts of the SDK's live sessions: the stdin window's accounting (sent, taken, waiting
// for room), the cutting of writes into messages, the WebSocket URL, the start's own stdin bytes,
// the reading of server frames and the event queue. The whole against the real stack: session.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StdinWindow, chunkBytes, chunkText, toBase64 } from "../../client/src/stdin-window.ts";
import { sessionUrl, startStdinBytes } from "../../client/src/session-open.ts";
import { parseServerMessage } from "../../client/src/session-protocol.ts";
import { EventQueue } from "../../client/src/event-queue.ts";

/** Whether `promise` has settled once the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("stdin window", () => {
  it("room resolves at once while the bytes fit, and waits for an ack when they do not", async () => {
    const w = new StdinWindow(10);
    await w.room(10);
    w.sending(6);
    assert.equal(w.unacknowledged, 6);
    const waiting = w.room(5);
    assert.equal(await settled(waiting), false, "6 + 5 > 10");
    w.ack(0);
    assert.equal(await settled(waiting), false, "an ack of nothing makes no room");
    w.ack(1);
    assert.equal(await settled(waiting), true, "5 + 5 fit");
    assert.equal(w.taken, 1);
  });

  it("sending past the window throws; acks only grow and never pass what was sent", () => {
    const w = new StdinWindow(8, 3);
    assert.equal(w.sent, 3, "the start's own stdin counts");
    assert.throws(() => w.sending(6), RangeError);
    w.sending(5);
    w.ack(6);
    w.ack(2);
    assert.equal(w.taken, 6);
    w.ack(100);
    assert.equal(w.taken, 8, "never more than sent");
    assert.equal(w.unacknowledged, 0);
  });

  it("waiters are woken in order: a later small one does not pass an earlier large one", async () => {
    const w = new StdinWindow(10);
    w.sending(10);
    const order: string[] = [];
    const large = w.room(8).then(() => order.push("large"));
    const small = w.room(1).then(() => order.push("small"));
    w.ack(2);
    assert.equal(await settled(small), false, "the large one is first in line");
    w.ack(8);
    await Promise.all([large, small]);
    assert.deepEqual(order, ["large", "small"]);
  });

  it("fail rejects the waiters and every later room; more than the window is refused at once", async () => {
    const w = new StdinWindow(4);
    w.sending(4);
    const waiting = w.room(1);
    const closed = new Error("closed");
    w.fail(closed);
    await assert.rejects(waiting, closed);
    await assert.rejects(w.room(1), closed);
    await assert.rejects(new StdinWindow(4).room(5), RangeError);
    assert.throws(() => new StdinWindow(0), RangeError);
  });
});

describe("cutting writes", () => {
  it("bytes: pieces of at most max, nothing lost", () => {
    const bytes = Uint8Array.from({ length: 10 }, (_, i) => i);
    const pieces = chunkBytes(bytes, 4);
    assert.deepEqual(pieces.map((p) => p.length), [4, 4, 2]);
    assert.deepEqual(Buffer.concat(pieces), Buffer.from(bytes));
    assert.deepEqual(chunkBytes(new Uint8Array(0), 4), []);
  });

  it("text: never inside a character, each piece's byte count right", () => {
    const text = "aé€😀b".repeat(50);
    for (const max of [4, 5, 7, 64]) {
      const pieces = chunkText(text, max);
      assert.equal(pieces.map((p) => p.text).join(""), text);
      for (const p of pieces) {
        assert.ok(p.bytes <= max, `${p.bytes} > ${max}`);
        assert.equal(Buffer.byteLength(p.text), p.bytes);
        assert.ok(!p.text.includes("\uFFFD"), "no character was split");
      }
    }
    assert.throws(() => chunkText("😀", 3), RangeError);
  });

  it("base64 as Node's Buffer writes it, also past the 32 KiB pieces it is built from", () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) & 0xff);
    assert.equal(toBase64(bytes), Buffer.from(bytes).toString("base64"));
    assert.equal(toBase64(new Uint8Array(0)), "");
  });
});

describe("opening", () => {
  it("the WebSocket URL: http → ws, https → wss, the base URL's path kept", () => {
    assert.equal(sessionUrl("https://codecell.example.com"), "wss://codecell.example.com/api/sessions");
    assert.equal(sessionUrl("http://127.0.0.1:8787/"), "ws://127.0.0.1:8787/api/sessions");
    assert.equal(sessionUrl("https://example.com/cc"), "wss://example.com/cc/api/sessions");
  });

  it("the start's own stdin in bytes: UTF-8, or decoded base64", () => {
    assert.equal(startStdinBytes({ language: "python", code: "" }), 0);
    assert.equal(startStdinBytes({ language: "python", code: "", stdin: "é\n" }), 3);
    assert.equal(startStdinBytes({ language: "python", code: "", stdin: Buffer.from("hello").toString("base64"), encoding: "base64" }), 5);
  });

  it("server frames: known types parsed, anything else ignored", () => {
    assert.deepEqual(parseServerMessage('{"type":"stdin_ack","taken":5}'), { type: "stdin_ack", taken: 5 });
    assert.equal(parseServerMessage('{"type":"bogus"}'), null);
    assert.equal(parseServerMessage("not json"), null);
    assert.equal(parseServerMessage("null"), null);
    assert.equal(parseServerMessage(new ArrayBuffer(2)), null);
  });
});

describe("event queue", () => {
  it("keeps events until read, hands them to a waiting reader, ends after those kept", async () => {
    const q = new EventQueue<number>();
    q.push(1);
    const it = q[Symbol.asyncIterator]();
    assert.deepEqual(await it.next(), { value: 1, done: false });
    const waiting = it.next();
    q.push(2);
    assert.deepEqual(await waiting, { value: 2, done: false });
    q.push(3);
    q.end();
    q.push(4);
    assert.deepEqual(await it.next(), { value: 3, done: false });
    assert.deepEqual(await it.next(), { value: undefined, done: true });
  });
});
