// A stand-in for the engine, for what only the service layer decides: runs python programs as
// plain host processes (no sandbox) so cancellation can still be observed from /proc; "c" programs
// return a canned hello. The fleet-service tests use it where the sandbox is not what they test,
// and bench/grpc-flood.bench.ts serves its flood with it; tests of runs use the real engine.
import { spawn } from "node:child_process";
import type { Engine, ExecuteOutcome, EngineRequest } from "../fleet/src/engine.ts";
import { SlotQueue } from "../fleet/src/sandbox/slot-queue.ts";
import type { ExecutionRecord } from "../fleet/src/sandbox/run-spec.ts";

function result(partial: Partial<ExecutionRecord>): ExecutionRecord {
  return {
    verdict: "AC",
    exit_code: 0,
    signal: null,
    stdout: "",
    stderr: "",
    output_integrity: "complete",
    error_message: null,
    cpu_time_secs: 0.01,
    wall_time_secs: 0.02,
    memory_peak_bytes: 1024,
    evidence: {
      verdict_cause: "normal_exit",
      verdict_actor: "runtime",
      isolation_mode: "strict",
      controls_applied: ["pid_namespace"],
      controls_missing: [],
      cgroup: {
        memory_limit_bytes: 268435456,
        memory_peak_bytes: 1024,
        oom_events: 0,
        oom_kill_events: 0,
        cpu_usage_usec: 10000,
        process_count: 0,
        process_limit: 64,
      },
      timing: { cpu_ms: 10, cpu_time_ms: 10, wall_ms: 20, cpu_wall_ratio: 0.5, divergence: "io_bound" },
      process_lifecycle: { reap_status: "clean", descendant_containment: "ok", zombie_count: 0 },
      judge_actions: [],
      collection_errors: [],
    },
    ...partial,
  };
}

export function createFakeEngine(slots: number): Engine {
  return {
    slots,
    queue: new SlotQueue(slots),
    languages: () => [
      { name: "python", version: "3.0.0-fake", aliases: ["Python 3 (fake)"], default: true, compiled: false, libraries: [] },
      { name: "python", version: "3.1.0-fake", aliases: ["3.1"], default: false, compiled: false, libraries: ["numpy"] },
      { name: "c", version: "0.0.0-fake", aliases: ["gcc (fake)"], default: true, compiled: true, libraries: [] },
    ],
    health: () => ({
      ready: true, reasons: [], enforcementMode: "strict", cgroupVersion: "v2", kernel: "fake", controls: ["seccomp"], seccompPolicy: "fake/1", cpuMode: "shared",
    }),
    close: async () => {},
    async execute(request: EngineRequest, signal?: AbortSignal): Promise<ExecuteOutcome> {
      const language = request.language === "py" ? "python" : request.language;
      if (language === "c") return { language, compileCacheHit: true, result: result({ stdout: "hello\n" }) };
      return new Promise((resolve) => {
        const child = spawn("python3", ["-c", request.code], { stdio: ["pipe", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk) => (stdout += chunk));
        child.stderr.on("data", (chunk) => (stderr += chunk));
        child.stdin.end(request.stdin);
        const kill = () => child.kill("SIGKILL");
        signal?.addEventListener("abort", kill, { once: true });
        child.on("close", (code, signalName) => {
          signal?.removeEventListener("abort", kill);
          if (signal?.aborted) {
            const cancelled = result({ verdict: "IE", exit_code: null, signal: 9, error_message: "cancelled" });
            cancelled.evidence.judge_actions = ["sigkill_on_cancel"];
            resolve({ language, compileCacheHit: false, result: cancelled });
            return;
          }
          const verdict = code === 0 ? "AC" : signalName ? "SIG" : "RE";
          resolve({ language, version: request.version, compileCacheHit: false, result: result({ verdict, exit_code: code, stdout, stderr }) });
        });
      });
    },
  };
}

/**
 * The fake engine whose runs wait at a gate until the test releases them (oldest first), counting
 * how many are in the engine at once: what a test of concurrency needs, with no timing in it.
 */
export function createGatedEngine(slots: number): Engine & { inFlight: number; highWater: number; readonly waiting: number; release(): void } {
  const inner = createFakeEngine(slots);
  const waiting: (() => void)[] = [];
  const gated = {
    ...inner,
    inFlight: 0,
    highWater: 0,
    /** Runs at the gate now. */
    get waiting() {
      return waiting.length;
    },
    release() {
      waiting.shift()?.();
    },
    async execute(request: EngineRequest, signal?: AbortSignal): Promise<ExecuteOutcome> {
      gated.inFlight++;
      gated.highWater = Math.max(gated.highWater, gated.inFlight);
      try {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          const abandon = () => {
            const index = waiting.indexOf(resolve);
            if (index >= 0) waiting.splice(index, 1);
            resolve();
          };
          signal?.addEventListener("abort", abandon, { once: true });
        });
        return await inner.execute(request, signal);
      } finally {
        gated.inFlight--;
      }
    },
  };
  return gated;
}
