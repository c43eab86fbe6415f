// The contract's shared pieces (proto/): the result record survives the wire both ways, the codec
// frames what the client parses, one language rule.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ExecutionResult, Verdict as WireVerdict } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { FrameParser, encodeTrailers, parseTrailers, singleFrame, encodeFrame } from "../../proto/grpc-web/codec.ts";
import { STATUS_NAMES, Status } from "../../proto/grpc-web/status.ts";
import { resolveLanguage } from "../../proto/languages.ts";
import type { ExecutionRecord } from "../../proto/record.ts";
import { executionFromWire, executionToWire } from "../../proto/record-wire.ts";

const outcome: ExecutionRecord = {
  verdict: "TLE", exit_code: null, signal: 9, stdout: "partial", stderr: "", output_integrity: "truncated_by_judge_limit",
  error_message: null, cpu_time_secs: 2.5, wall_time_secs: 3, memory_peak_bytes: 1234,
  evidence: {
    verdict_cause: "wall_time_limit", verdict_actor: "supervisor", isolation_mode: "strict",
    controls_applied: ["cgroup_memory"], controls_missing: [],
    cgroup: { memory_limit_bytes: 1, memory_peak_bytes: 2, oom_events: 3, oom_kill_events: 4, cpu_usage_usec: 5, process_count: 6, process_limit: 7 },
    timing: { cpu_ms: 2500, cpu_time_ms: 2500, wall_ms: 3000, cpu_wall_ratio: 0.83, divergence: "none" },
    process_lifecycle: { reap_status: "reaped", descendant_containment: "contained", zombie_count: 0 },
    judge_actions: ["sigkill_on_wall_limit"], collection_errors: [],
  },
};

describe("result record on the wire", () => {
  it("an outcome encoded by a node decodes to the same outcome at the edge", () => {
    const bytes = ExecutionResult.encode({ ...ExecutionResult.fromPartial({}), ...executionToWire(outcome) }).finish();
    assert.deepEqual(executionFromWire(ExecutionResult.decode(bytes)), outcome);
  });

  it("a verdict the edge does not know is IE with a message, never a guess", () => {
    const wire = { ...executionToWire(outcome), verdict: 99 as WireVerdict };
    const back = executionFromWire(wire);
    assert.equal(back.verdict, "IE");
    assert.match(back.error_message ?? "", /unknown verdict \(99\)/);
  });
});

describe("gRPC-Web codec", () => {
  it("trailers round-trip with a percent-encoded message", () => {
    const frames = new FrameParser().push(encodeTrailers(Status.UNAVAILABLE, "node is draining: 100%"));
    assert.equal(frames.length, 1);
    assert.equal(frames[0]!.trailers, true);
    assert.deepEqual(parseTrailers(frames[0]!.payload), { "grpc-status": "14", "grpc-message": "node%20is%20draining%3A%20100%25" });
    assert.equal(STATUS_NAMES[14], "UNAVAILABLE");
  });

  it("a unary body is exactly one uncompressed data frame", () => {
    assert.deepEqual(singleFrame(encodeFrame(new Uint8Array([1, 2]))), { payload: new Uint8Array([1, 2]) });
    assert.deepEqual(singleFrame(new Uint8Array([1, 0, 0, 0, 0])), { malformed: true, compressed: true });
    assert.deepEqual(singleFrame(new Uint8Array([0, 0, 0, 0, 5, 1])), { malformed: true, compressed: false });
  });
});

describe("languages", () => {
  it("one rule: an accepted name, offered where it must run", () => {
    assert.equal(resolveLanguage("py"), "python");
    assert.equal(resolveLanguage("py", ["c", "python"]), "python");
    assert.equal(resolveLanguage("py", ["c"]), null);
    assert.equal(resolveLanguage("cobol"), null);
  });
});
