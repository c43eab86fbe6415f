// The heaviest run a record can hold: the longest evidence the node writes (every control named,
// errors, a mismatch of 4-byte characters), a 256-byte test name, and 1 MiB of invalid UTF-8 on
// each stream (each byte decodes to U+FFFD: 3 bytes of text), for the frame-cap arithmetic.
import type { TestOutcome } from "../../fleet/src/engine.ts";
import type { ExecutionRecord } from "../../fleet/src/sandbox/run-spec.ts";

const MiB = 1024 * 1024;

export function heaviestEvidenceRecord(partial: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const long = (what: string) => `${what} `.repeat(40);
  return {
    verdict: "AC",
    exit_code: 0,
    signal: null,
    stdout: "",
    stderr: "",
    output_integrity: "complete",
    error_message: long("an error message"),
    cpu_time_secs: 1.5,
    wall_time_secs: 2.5,
    memory_peak_bytes: 256 * MiB,
    evidence: {
      verdict_cause: "output_mismatch",
      verdict_actor: "judge",
      isolation_mode: "strict",
      controls_applied: Array.from({ length: 48 }, (_, i) => `control_number_${i}_with_a_long_name`),
      controls_missing: Array.from({ length: 8 }, (_, i) => `missing_control_${i}`),
      cgroup: {
        memory_limit_bytes: 256 * MiB, memory_peak_bytes: 256 * MiB, oom_events: 1e6, oom_kill_events: 1e6,
        cpu_usage_usec: 1e12, process_count: 64, process_limit: 64,
      },
      timing: { cpu_ms: 1e6, cpu_time_ms: 1e6, wall_ms: 1e6, cpu_wall_ratio: 1.25, divergence: "cpu_bound" },
      process_lifecycle: { reap_status: "clean", descendant_containment: "ok", zombie_count: 3 },
      judge_actions: ["sigkill_on_wall_timeout", "sigkill_cgroup_remnants", "sigkill_leftover_processes"],
      collection_errors: Array.from({ length: 8 }, (_, i) => long(`collection error ${i}`)),
      limits: { wall_time_ms: 10_000, cpu_time_ms: 10_000, memory_bytes: 256 * MiB, processes: 64, output_bytes: MiB },
      mismatch: { line: 1e6, column: 1e6, token: 1e6, expected: "\u{1F600}".repeat(40), actual: "\u{1F600}".repeat(40), message: long("differs") },
    },
    ...partial,
  };
}

export function heaviestRecord(name: string, verdict: ExecutionRecord["verdict"] = "AC"): TestOutcome {
  return {
    name: "n".repeat(256).slice(0, 256 - name.length) + name,
    result: heaviestEvidenceRecord({ verdict }),
    stdoutBytes: new Uint8Array(MiB).fill(0xff),
    stderrBytes: new Uint8Array(MiB).fill(0xfe),
  };
}
