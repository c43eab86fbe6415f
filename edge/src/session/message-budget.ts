// What one live session's client may send (docs/live-sessions.md, "Flow control and caps"): a rate
// of messages, and a number of end and signal messages waiting for the node. Past either, the
// session is closed (4414) and its program killed: every message costs the session's object, and
// every control one a call to the node. Pure; unit tested.
import type { Refusal } from "./dialect.ts";

/** Messages a client may send in a burst; the bucket fills again at MESSAGES_PER_SEC. */
export const MESSAGE_BURST = 200;
export const MESSAGES_PER_SEC = 100;
/** End and signal messages that may wait for the node, the ones coalesced included. */
export const MAX_CONTROLS_WAITING = 64;

/** A token bucket, in memory: an object that left memory has been idle, its bucket full. */
export class MessageRate {
  #tokens = MESSAGE_BURST;
  #at: number;

  constructor(now = Date.now()) {
    this.#at = now;
  }

  /** Takes one message's token; false: the client is past the rate. */
  take(now = Date.now()): boolean {
    this.#tokens = Math.min(MESSAGE_BURST, this.#tokens + ((now - this.#at) / 1000) * MESSAGES_PER_SEC);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

export const PAST_RATE: Refusal = {
  refused: "flood",
  message: `more than ${MESSAGE_BURST} messages at once or ${MESSAGES_PER_SEC} a second; the program was killed`,
};

export const PAST_CONTROLS: Refusal = {
  refused: "flood",
  message: `more than ${MAX_CONTROLS_WAITING} end and signal messages wait for the program; the program was killed`,
};
