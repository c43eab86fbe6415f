// The event stream's pure pieces: SSE framing, the resume point, output chunks in the record's encoding.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resumePoint, sseComment, sseFrame, sseFramePieces } from "../../edge/src/lib/sse.ts";
import { jsonChunks, jsonPieces } from "../../edge/src/lib/json-pieces.ts";
import { OutputChunks, heldTail, outputView } from "../../edge/src/submission/output-text.ts";
import { fromBase64 } from "../../proto/base64.ts";
import { EVENT_MEMORY_BYTES, HELD_OUTPUT_BYTES } from "../../edge/src/submission/budgets.ts";
import { HeldOutput } from "../../edge/src/submission/held-output.ts";
import { EventLog } from "../../edge/src/submission/event-log.ts";

describe("SSE framing", () => {
  it("an event is id, event and one data line of JSON, ended by a blank line; newlines in data stay escaped", () => {
    assert.equal(sseFrame(3, "stdout", { data: "a\nb\r\n" }), 'id: 3\nevent: stdout\ndata: {"data":"a\\nb\\r\\n"}\n\n');
    assert.equal(sseComment("heartbeat"), ": heartbeat\n\n");
  });

  it("resume point: the header wins over the query; absent → 0; anything but a whole number 0..2^31-1 names the field", () => {
    assert.deepEqual(resumePoint(null, null), { ok: true, after: 0 });
    assert.deepEqual(resumePoint("7", "2"), { ok: true, after: 7 });
    assert.deepEqual(resumePoint(null, "2"), { ok: true, after: 2 });
    assert.deepEqual(resumePoint(" 5 ", null), { ok: true, after: 5 });
    for (const bad of ["", "-1", "1.5", "x", "0x10", "2147483648", "99999999999"]) {
      assert.equal(resumePoint(bad, null).ok, false, bad);
      assert.deepEqual(resumePoint(null, bad), { ok: false, field: "last_event_id", value: bad });
    }
    assert.equal((resumePoint("abc", null) as { field: string }).field, "Last-Event-ID");
  });
});

describe("JSON in pieces (json-pieces.ts)", () => {
  it("joined, the pieces are JSON.stringify's text, character for character, long strings escaped a slice at a time", () => {
    const long = "\u0001a\"\\\n😀é".repeat(20_000) + "\ud800" + "x".repeat(16 * 1024 - 1) + "😀";
    const values: unknown[] = [
      null, 0, -1.5, NaN, true, "", "plain", long, [], {}, [1, undefined, () => 1, "s"],
      { a: 1, skip: undefined, f: () => 1, nested: { list: [long, { deep: null }] }, date: new Date(0), "k\"ey": "v" },
      { stdout: long, tests: [{ stdout: long, stderr: "" }] },
    ];
    for (const value of values) {
      assert.equal([...jsonPieces(value)].join(""), JSON.stringify(value));
      assert.equal([...jsonChunks(value, 1000)].join(""), JSON.stringify(value));
    }
    const chunks = [...jsonChunks({ stdout: long })];
    assert.ok(chunks.length > 10 && chunks.every((c) => c.length < 64 * 1024), "a long string comes out in bounded chunks");
    assert.equal([...sseFramePieces(3, "completed", { stdout: long })].join(""), sseFrame(3, "completed", { stdout: long }));
  });
});

describe("OutputChunks", () => {
  const bytes = new TextEncoder().encode("é€😀 ok\n");

  it("utf8: a character split across chunks is sent whole once complete; the chunks join to the whole text", () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const t = new OutputChunks("utf8");
      const parts = [t.take("stdout:0", bytes.subarray(0, cut)), t.take("stdout:0", bytes.subarray(cut)), t.finish("stdout:0")].map((c) => outputView(c, "utf8"));
      assert.equal(parts.join(""), "é€😀 ok\n", `cut at ${cut}`);
      for (const p of parts) assert.doesNotMatch(p, /\uFFFD/, `no replacement character at cut ${cut}`);
    }
  });

  it("utf8: an unfinished character at the end becomes U+FFFD, as the record's text has it; streams decode apart", () => {
    const t = new OutputChunks("utf8");
    const smile = new TextEncoder().encode("😀");
    assert.equal(t.take("stdout:0", smile.subarray(0, 2)).length, 0);
    assert.equal(outputView(t.take("stderr:0", new TextEncoder().encode("e")), "utf8"), "e");
    assert.deepEqual(t.keys(), ["stdout:0"]);
    assert.equal(outputView(t.finish("stdout:0"), "utf8"), "\uFFFD");
    assert.equal(Buffer.from(smile.subarray(0, 2)).toString("utf8"), "\uFFFD", "the node's decoding agrees");
  });

  it("base64: each chunk is its bytes in base64; decoded and joined they are the output's bytes", () => {
    const t = new OutputChunks("base64");
    const a = outputView(t.take("stdout:0", bytes.subarray(0, 5)), "base64");
    const b = outputView(t.take("stdout:0", bytes.subarray(5)), "base64");
    assert.equal(t.finish("stdout:0").length, 0);
    assert.deepEqual(Buffer.concat([fromBase64(a)!, fromBase64(b)!]), Buffer.from(bytes));
  });
});

describe("whole ranges of a stream's bytes (heldTail)", () => {
  it("every chunk is the text of the bytes it keeps, and the chunks join to what a streaming TextDecoder makes, on any bytes cut anywhere", () => {
    // Bytes chosen to hit every rule of WHATWG's UTF-8 decoder: leads with their own second-byte
    // ranges (E0, ED, F0, F4), bytes no sequence starts with, continuations alone.
    const pool = [0x41, 0x01, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff, 0xc0, 0xe1, 0xf1];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let trial = 0; trial < 20_000; trial++) {
      const bytes = Uint8Array.from({ length: random(12) }, () => pool[random(pool.length)]!);
      const cuts = [0, random(bytes.length + 1), random(bytes.length + 1), bytes.length].sort((a, b) => a - b);
      const t = new OutputChunks("utf8");
      const streaming = new TextDecoder();
      let mine = "";
      let reference = "";
      for (let i = 0; i + 1 < cuts.length; i++) {
        const part = bytes.subarray(cuts[i], cuts[i + 1]);
        mine += outputView(t.take("k", part), "utf8");
        reference += streaming.decode(part, { stream: true });
      }
      mine += outputView(t.finish("k"), "utf8");
      reference += streaming.decode();
      assert.equal(mine, reference, [...bytes].map((b) => b.toString(16)).join(" "));
    }
    assert.equal(heldTail(new Uint8Array([0x41, 0xf0, 0x9f, 0x98])), 3);
    assert.equal(heldTail(new Uint8Array([0xe0, 0x80])), 0, "E0 80 is never valid: not held");
  });
});

describe("memory budgets of a submission's events (budgets.ts)", () => {
  const mapKv = () => {
    const m = new Map<string, unknown>();
    const kv = {
      get: <T>(k: string) => m.get(k) as T | undefined,
      put: <T>(k: string, v: T) => void m.set(k, v),
      delete: (k: string) => m.delete(k),
    };
    return { ...kv, getThrough: kv.get, putThrough: kv.put };
  };

  it("entries held in memory past EVENT_MEMORY_BYTES are spilled: the submission is told, the entries are written, memory starts again from zero", () => {
    const kv = mapKv();
    let spills = 0;
    const log = new EventLog(kv, () => spills++);
    // A chunk of control bytes is stored as its bytes (a JSON frame would take six characters a byte).
    const chunk = () => ({ o: "stdout" as const, t: 0, b: new Uint8Array(64 * 1024) });
    let held = 0;
    while (spills === 0) {
      log.append(chunk());
      held += 64 * 1024 + 64;
      assert.ok(held <= EVENT_MEMORY_BYTES + 2 * (64 * 1024 + 64), "spilled once past the budget");
    }
    assert.ok(held > EVENT_MEMORY_BYTES, "not before the budget");
    assert.equal(log.pendingBytes, 0);
    assert.equal(kv.get("ev_last"), log.last, "every entry so far was written");
    for (let i = 0; i < 100; i++) log.append(chunk());
    assert.ok(spills >= 6, `spills again and again (${spills})`);
    assert.ok(log.pendingBytes <= EVENT_MEMORY_BYTES);
    const replayed = [...log.replay(0, (id) => sseFrame(id, "stdout", { data: "" }))];
    assert.equal(replayed.length, log.last);
  });

  it("held output is handed back as one piece every HELD_OUTPUT_BYTES; what is left comes with finish(); the pieces join to the whole output", () => {
    const held = new HeldOutput();
    const pieces: Uint8Array[] = [];
    let total = 0;
    for (let i = 0; i < 4 * (HELD_OUTPUT_BYTES / 1000) + 7; i++) {
      const data = new Uint8Array(1000).fill(i % 251);
      total += data.length;
      const full = held.add("stdout:0", data);
      if (full) pieces.push(full);
    }
    assert.equal(pieces.length, 4);
    assert.ok(pieces.every((p) => p.length >= HELD_OUTPUT_BYTES && p.length < HELD_OUTPUT_BYTES + 1000));
    assert.ok(held.has("stdout:0"));
    pieces.push(held.finish("stdout:0"));
    assert.equal(held.has("stdout:0"), false);
    assert.equal(pieces.reduce((n, p) => n + p.length, 0), total);
    const joined = pieces.flatMap((p) => [...p]);
    assert.ok(joined.every((b, at) => b === Math.floor(at / 1000) % 251), "in order, nothing lost");
    assert.deepEqual(held.finish("stderr:3"), new Uint8Array(0));
  });
});
