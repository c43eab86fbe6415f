// A checked submission made a live session's (docs/live-sessions.md): one run whose stdin comes
// live, so nothing that judges or feeds several runs; its wall limit is the session's maximum
// duration (the program mostly waits for its client). Pure; unit tested.
import type { SessionCaps } from "../plans/plan-caps.ts";
import { HttpError } from "../lib/http.ts";
import type { SubmitInput } from "./validate.ts";

export interface LiveAdmission {
  session: string;
  caps: SessionCaps;
}

/** Fields a session's `start` may not carry: its stdin is the client's, and it is one run. */
const NOT_LIVE = ["tests", "check", "checker", "interactor"] as const;

export function asLiveSession(input: SubmitInput, live: LiveAdmission): SubmitInput {
  const options = input.options ?? {};
  const refused = NOT_LIVE.filter((field) => options[field] !== undefined && !(field === "tests" && options.tests?.length === 0));
  if (refused.length > 0) {
    const names = refused.map((f) => (f === "check" ? "expected_output" : f)).join(", ");
    throw new HttpError(400, { error: "invalid request", message: `a live session runs one program fed by its client: not with ${names}` });
  }
  const { stdin_b64: _initial, ...rest } = options;
  const limits = options.limits ?? { wall_time_ms: 0, cpu_time_ms: 0, memory_bytes: 0, processes: 0, output_bytes: 0 };
  return {
    ...input,
    stdin: "",
    options: { ...rest, limits: { ...limits, wall_time_ms: live.caps.max_duration_ms }, live: { session: live.session, max_ms: live.caps.max_duration_ms } },
  };
}
