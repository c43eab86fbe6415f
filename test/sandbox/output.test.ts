import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { CappedCapture, capEncodedSize, outputIntegrity } from "../../fleet/src/sandbox/output.ts";
import { classifyTiming } from "../../fleet/src/sandbox/evidence.ts";

describe("capped capture", () => {
  it("keeps the first cap bytes and counts the rest", async () => {
    const stream = new PassThrough();
    const capture = new CappedCapture(stream, 10);
    stream.write("hello ");
    stream.write("world, and more");
    stream.end();
    await capture.done;
    assert.equal(capture.bytes().toString(), "hello worl");
    assert.equal(capture.total, 21);
    assert.equal(capture.discarded, 11);
    assert.equal(capture.truncated, true);
  });
});

describe("output integrity rules", () => {
  const stream = (text: string, truncated = false, error?: string) => ({ bytes: Buffer.from(text), truncated, error });
  it("complete when nothing was lost", () => {
    assert.equal(outputIntegrity({ streams: [stream("ok\n"), stream("")], endedBySignal: false }), "complete");
  });
  it("truncated beats crash", () => {
    assert.equal(outputIntegrity({ streams: [stream("partial", true)], endedBySignal: true }), "truncated_by_judge_limit");
  });
  it("a signal death in the middle of a line is crash_mid_write", () => {
    assert.equal(outputIntegrity({ streams: [stream("partial")], endedBySignal: true }), "crash_mid_write");
    assert.equal(outputIntegrity({ streams: [stream("whole line\n")], endedBySignal: true }), "complete");
    assert.equal(outputIntegrity({ streams: [stream("no newline")], endedBySignal: false }), "complete");
  });
  it("a capture error is write_error", () => {
    assert.equal(outputIntegrity({ streams: [stream("x", true, "EIO")], endedBySignal: false }), "write_error");
  });
});

describe("timing classification", () => {
  it("names the relation of cpu to wall time", () => {
    assert.equal(classifyTiming(990, 1000), "cpu_bound");
    assert.equal(classifyTiming(1900, 1000), "parallel");
    assert.equal(classifyTiming(5, 1000), "io_bound");
    assert.equal(classifyTiming(500, 1000), "mixed");
    assert.equal(classifyTiming(0, 0.5), "instant");
  });
});

describe("capped capture at its edges", () => {
  const capture = async (cap: number, ...chunks: string[]) => {
    const stream = new PassThrough();
    const c = new CappedCapture(stream, cap);
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
    await c.done;
    return c;
  };
  it("exactly the cap is kept whole and not truncated; one byte more is", async () => {
    const exact = await capture(4, "ab", "cd");
    assert.deepEqual([exact.bytes().toString(), exact.total, exact.discarded, exact.truncated], ["abcd", 4, 0, false]);
    const over = await capture(4, "abcd", "e");
    assert.deepEqual([over.bytes().toString(), over.total, over.discarded, over.truncated], ["abcd", 5, 1, true]);
    const split = await capture(3, "ab", "cd", "ef");
    assert.deepEqual([split.bytes().toString(), split.total, split.discarded], ["abc", 6, 3]);
  });
  it("the drainer's count of what was written raises the total, never lowers it", async () => {
    const c = await capture(4, "abcd");
    c.setWrittenTotal(undefined);
    assert.deepEqual([c.total, c.truncated, c.discarded], [4, false, 0]);
    c.setWrittenTotal(3);
    assert.deepEqual([c.total, c.truncated, c.discarded], [4, false, 0]);
    c.setWrittenTotal(4);
    assert.deepEqual([c.total, c.truncated, c.discarded], [4, false, 0]);
    c.setWrittenTotal(5);
    assert.deepEqual([c.total, c.truncated, c.discarded], [5, true, 1]);
    c.setWrittenTotal(1 << 30);
    assert.deepEqual([c.total, c.discarded, c.bytes().toString()], [1 << 30, (1 << 30) - 4, "abcd"]);
  });
  it("a stream error is recorded and ends the capture", async () => {
    const stream = new PassThrough();
    const c = new CappedCapture(stream, 10);
    stream.write("x");
    stream.destroy(new Error("EIO: read failed"));
    await c.done;
    assert.equal(c.error, "EIO: read failed");
    assert.equal(c.bytes().toString(), "x");
    const clean = await capture(10, "y");
    assert.equal(clean.error, undefined);
  });
});

describe("output integrity looks at every stream", () => {
  const stream = (text: string, truncated = false, error?: string) => ({ bytes: Buffer.from(text), truncated, error });
  it("one stream with an error, a truncation or a cut line decides, whatever the other holds", () => {
    assert.equal(outputIntegrity({ streams: [stream("ok\n"), stream("x", false, "EIO")], endedBySignal: false }), "write_error");
    assert.equal(outputIntegrity({ streams: [stream("ok\n"), stream("x", true)], endedBySignal: false }), "truncated_by_judge_limit");
    assert.equal(outputIntegrity({ streams: [stream("ok\n"), stream("cut")], endedBySignal: true }), "crash_mid_write");
    assert.equal(outputIntegrity({ streams: [stream("cut"), stream("ok\n")], endedBySignal: true }), "crash_mid_write");
  });
  it("empty output ended by a signal is complete", () => {
    assert.equal(outputIntegrity({ streams: [stream(""), stream("")], endedBySignal: true }), "complete");
  });
});

describe("encoded size cap", () => {
  /** The encoded size capEncodedSize computes, found as the smallest cap that keeps everything. */
  const encodedSize = (text: string): number => {
    let size = 0;
    while (capEncodedSize(text, size).cut) size++;
    return size;
  };
  const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

  it("counts what JSON spends per character and cuts at a whole character", () => {
    assert.deepEqual(capEncodedSize("abc", 3), { text: "abc", cut: false });
    assert.deepEqual(capEncodedSize("\u0001\u0001", 11), { text: "\u0001", cut: true });
    assert.deepEqual(capEncodedSize('a"\n', 5), { text: 'a"\n', cut: false });
    assert.deepEqual(capEncodedSize("x😀", 4), { text: "x", cut: true });
    assert.deepEqual(capEncodedSize("x😀", 5), { text: "x😀", cut: false });
    const mixed = "\u0000\u001f\u007f\\\"é€😀\t\u2028";
    assert.equal(encodedSize(mixed), jsonBytes(mixed));
  });

  it("agrees with JSON.stringify on every code unit outside the surrogates, one by one", () => {
    const wrong: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      if (unit >= 0xd800 && unit <= 0xdfff) continue;
      const ch = String.fromCharCode(unit);
      const expected = jsonBytes(ch);
      // exactly its size is kept whole; one byte less cuts it away
      const kept = capEncodedSize(ch, expected);
      const cut = capEncodedSize(ch, expected - 1);
      if (kept.cut || kept.text !== ch || !cut.cut || cut.text !== "") wrong.push(unit.toString(16));
    }
    assert.deepEqual(wrong, []);
  });

  it("a pair of surrogates costs 4 bytes and is never split, at both ends of the high range", () => {
    for (const pair of ["\ud800\udc00", "\udbff\udfff", "😀"]) {
      assert.equal(encodedSize(pair), 4, pair);
      assert.deepEqual(capEncodedSize(pair, 3), { text: "", cut: true });
      assert.deepEqual(capEncodedSize(`a${pair}`, 3), { text: "a", cut: true });
      assert.deepEqual(capEncodedSize(`a${pair}`, 5), { text: `a${pair}`, cut: false });
    }
  });

  it("keeps the unit before the cut when it is not a high surrogate", () => {
    assert.deepEqual(capEncodedSize("\ud7ffa", 3), { text: "\ud7ff", cut: true });
    assert.deepEqual(capEncodedSize("\ue000a", 3), { text: "\ue000", cut: true });
    // a lone low surrogate before the cut is kept (it is not the first half of a pair)
    assert.deepEqual(capEncodedSize("\udc00a", 2), { text: "\udc00", cut: true });
  });

  it("an empty text and a cap of 0", () => {
    assert.deepEqual(capEncodedSize("", 0), { text: "", cut: false });
    assert.deepEqual(capEncodedSize("a", 0), { text: "", cut: true });
  });
});
