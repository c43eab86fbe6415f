// A live session's message rate (edge/src/session/message-budget.ts): a token bucket whose burst and
// rate are the ones docs/live-sessions.md states.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { MAX_CONTROLS_WAITING, MESSAGE_BURST, MESSAGES_PER_SEC, MessageRate } from "../../edge/src/session/message-budget.ts";

const DOC = readFileSync(new URL("../../docs/live-sessions.md", import.meta.url), "utf8");

describe("a live session's message budget", () => {
  it("a burst of MESSAGE_BURST passes, the next message does not", () => {
    const rate = new MessageRate(0);
    for (let i = 0; i < MESSAGE_BURST; i++) assert.equal(rate.take(0), true, `message ${i}`);
    assert.equal(rate.take(0), false);
  });

  it("the bucket fills again at MESSAGES_PER_SEC, never past the burst", () => {
    const rate = new MessageRate(0);
    for (let i = 0; i < MESSAGE_BURST; i++) rate.take(0);
    const taken = Array.from({ length: MESSAGES_PER_SEC + 1 }, () => rate.take(1000)).filter(Boolean).length;
    assert.equal(taken, MESSAGES_PER_SEC);
    const later = new MessageRate(0);
    const afterAnHour = Array.from({ length: MESSAGE_BURST + 1 }, () => later.take(3_600_000)).filter(Boolean).length;
    assert.equal(afterAnHour, MESSAGE_BURST);
  });

  it("the doc states the numbers", () => {
    assert.match(DOC, new RegExp(`Message rate: ${MESSAGE_BURST} at once, ${MESSAGES_PER_SEC} a second`));
    assert.match(DOC, new RegExp(`Control messages waiting: ${MAX_CONTROLS_WAITING}\\.`));
  });
});
