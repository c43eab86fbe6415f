// Output events: writes within one event-loop turn for the same stream and test are one event;
// a change of stream or test, or an explicit flush, starts a new one; order is kept.
import assert from "node:assert/strict";
import { setImmediate as nextTurn } from "node:timers/promises";
import { test } from "node:test";
import { OutputStream, type Output } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { OutputCoalescer } from "../../fleet/src/service/output-coalescer.ts";

const text = (outputs: Output[]) => outputs.map((o) => [o.stream === OutputStream.OUTPUT_STREAM_STDOUT ? "out" : "err", o.testIndex, Buffer.from(o.data).toString()]);

test("writes within one turn are one event; the next turn starts another", async () => {
  const sent: Output[] = [];
  const coalescer = new OutputCoalescer((o) => sent.push(o));
  const buffer = Buffer.from("hello");
  coalescer.write("stdout", buffer, 0);
  buffer.write("HELLO"); // the writer reuses its buffer: the event keeps what was written
  coalescer.write("stdout", Buffer.from(", "), 0);
  coalescer.write("stdout", Buffer.from("world\n"), 0);
  coalescer.write("stdout", new Uint8Array(), 0);
  assert.deepEqual(sent, [], "nothing before the turn ends");
  await nextTurn();
  assert.deepEqual(text(sent), [["out", 0, "hello, world\n"]]);
  coalescer.write("stdout", Buffer.from("again"), 0);
  await nextTurn();
  assert.deepEqual(text(sent).at(-1), ["out", 0, "again"]);
  assert.equal(sent.length, 2);
});

test("a change of stream or test, or a flush, ends the event; order is kept", async () => {
  const sent: Output[] = [];
  const coalescer = new OutputCoalescer((o) => sent.push(o));
  coalescer.write("stdout", Buffer.from("1"), 0);
  coalescer.write("stderr", Buffer.from("2"), 0);
  coalescer.write("stderr", Buffer.from("3"), 0);
  coalescer.write("stderr", Buffer.from("4"), 1);
  coalescer.flush();
  assert.deepEqual(text(sent), [["out", 0, "1"], ["err", 0, "23"], ["err", 1, "4"]]);
  await nextTurn();
  assert.equal(sent.length, 3, "the scheduled flush finds nothing left");
});
