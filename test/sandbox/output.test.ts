import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { CappedCapture, outputIntegrity } from "../../fleet/src/sandbox/output.ts";
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
