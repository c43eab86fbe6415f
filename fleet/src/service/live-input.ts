// A live run's stdin and signals (ExecuteRequest.live_stdin; docs/fleet-node.md, "Live stdin"):
// SendInput delivers them in order, by offset, so a retried call is taken once and a lost one is
// seen as a gap. The node keeps at most LIVE_INPUT_BUFFER_BYTES of a run's input the program has
// not read yet (beside the kernel's buffers and the launcher's relay); SendInput takes only what fits and says how
// much room is left, so a program that does not read makes the sender wait, not the node grow.
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import type { SendInputResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { PROGRAM_SIGNALS, type ProgramSignal } from "../sandbox/launcher.ts";
import { ServiceError, Status } from "./errors.ts";

/** Input the node holds for one run that its program has not read yet. */
export const LIVE_INPUT_BUFFER_BYTES = 1024 * 1024;

export class LiveInput {
  /** The program's stdin (RunSpec.liveStdin); its end is the program's end of input. */
  readonly stream = new PassThrough({ highWaterMark: LIVE_INPUT_BUFFER_BYTES });
  /** The program's signals (RunSpec.signals). */
  readonly signals = new EventEmitter();
  #taken = 0;
  #closed = false;

  /** Takes what fits of `data` from `offset` on, then the end and the signal when all of it was taken. */
  take(offset: number, data: Uint8Array, end: boolean, signal: string): SendInputResponse {
    if (signal !== "" && !PROGRAM_SIGNALS.includes(signal as ProgramSignal)) {
      throw new ServiceError(Status.INVALID_ARGUMENT, `signal must be one of ${PROGRAM_SIGNALS.join(", ")}, not "${signal.slice(0, 16)}"`);
    }
    if (offset > this.#taken) {
      throw new ServiceError(Status.FAILED_PRECONDITION, `input offset ${offset} is past the ${this.#taken} bytes taken so far: a part is missing`);
    }
    if (this.#closed) return this.#reply();
    const fresh = data.subarray(Math.min(data.length, this.#taken - offset));
    const fits = fresh.subarray(0, this.#room());
    if (fits.length > 0) {
      this.stream.write(fits);
      this.#taken += fits.length;
    }
    if (fits.length === fresh.length) {
      if (signal) this.signals.emit("signal", signal);
      if (end) this.close();
    }
    return this.#reply();
  }

  /** No more input: the program reads its end (when the run is over, too). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.stream.end();
  }

  #room(): number {
    return Math.max(0, LIVE_INPUT_BUFFER_BYTES - this.stream.writableLength - this.stream.readableLength);
  }

  #reply(): SendInputResponse {
    return { taken: this.#taken, room: this.#closed ? 0 : this.#room(), closed: this.#closed };
  }
}
