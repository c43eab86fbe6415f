// The event stream's pure pieces: SSE framing, the resume point, output chunks in the record's encoding.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resumePoint, sseComment, sseFrame } from "../../edge/src/lib/sse.ts";
import { OutputText } from "../../edge/src/submission/output-text.ts";
import { fromBase64 } from "../../proto/base64.ts";
import { EVENT_MEMORY_CHARS, HELD_OUTPUT_BYTES } from "../../edge/src/submission/budgets.ts";
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

describe("OutputText", () => {
  const bytes = new TextEncoder().encode("é€😀 ok\n");

  it("utf8: a character split across chunks is sent whole once complete; the chunks join to the whole text", () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const t = new OutputText("utf8");
      const parts = [t.take("stdout:0", bytes.subarray(0, cut)), t.take("stdout:0", bytes.subarray(cut)), t.finish("stdout:0")];
      assert.equal(parts.join(""), "é€😀 ok\n", `cut at ${cut}`);
      for (const p of parts) assert.doesNotMatch(p, /\uFFFD/, `no replacement character at cut ${cut}`);
    }
  });

  it("utf8: an unfinished character at the end becomes U+FFFD, as the record's text has it; streams decode apart", () => {
    const t = new OutputText("utf8");
    const smile = new TextEncoder().encode("😀");
    assert.equal(t.take("stdout:0", smile.subarray(0, 2)), "");
    assert.equal(t.take("stderr:0", new TextEncoder().encode("e")), "e");
    assert.deepEqual(t.keys().sort(), ["stderr:0", "stdout:0"]);
    assert.equal(t.finish("stdout:0"), "\uFFFD");
    assert.equal(Buffer.from(smile.subarray(0, 2)).toString("utf8"), "\uFFFD", "the node's decoding agrees");
  });

  it("base64: each chunk is its bytes in base64; decoded and joined they are the output's bytes", () => {
    const t = new OutputText("base64");
    const a = t.take("stdout:0", bytes.subarray(0, 5));
    const b = t.take("stdout:0", bytes.subarray(5));
    assert.equal(t.finish("stdout:0"), "");
    assert.deepEqual(Buffer.concat([fromBase64(a)!, fromBase64(b)!]), Buffer.from(bytes));
  });
});

describe("memory budgets of a submission's events (budgets.ts)", () => {
  const mapKv = () => {
    const m = new Map<string, unknown>();
    return {
      get: <T>(k: string) => m.get(k) as T | undefined,
      put: <T>(k: string, v: T) => void m.set(k, v),
      delete: (k: string) => m.delete(k),
    };
  };

  it("frames held in memory past EVENT_MEMORY_CHARS are spilled: the submission is told, the frames are written, memory starts again from zero", () => {
    const kv = mapKv();
    let spills = 0;
    const log = new EventLog(kv, () => spills++);
    // A chunk of control bytes escapes to six characters per byte in its JSON frame.
    const frame = (id: number) => sseFrame(id, "stdout", { data: "\0".repeat(64 * 1024) });
    let held = 0;
    while (spills === 0) {
      held += log.append(frame, true).frame.length;
      assert.ok(held <= EVENT_MEMORY_CHARS + frame(1).length * 2, "spilled once past the budget");
    }
    assert.ok(held > EVENT_MEMORY_CHARS, "not before the budget");
    assert.equal(log.pendingChars, 0);
    assert.equal(kv.get("ev_last"), log.last, "every frame so far was written");
    for (let i = 0; i < 100; i++) log.append(frame, true);
    assert.ok(spills >= 30, `spills again and again (${spills})`);
    assert.ok(log.pendingChars <= EVENT_MEMORY_CHARS);
    const replayed = [...log.replay(0, () => "")];
    assert.equal(replayed.length, log.last);
    assert.ok(replayed.every((f) => f.includes("event: stdout")));
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
