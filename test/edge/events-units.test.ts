// The event stream's pure pieces: SSE framing, the resume point, output chunks in the record's encoding.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resumePoint, sseComment, sseFrame } from "../../edge/src/lib/sse.ts";
import { OutputText } from "../../edge/src/submission/output-text.ts";
import { fromBase64 } from "../../proto/base64.ts";

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
