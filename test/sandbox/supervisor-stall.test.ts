// A stalled supervisor (the node's event loop blocked: a GC pause, a big message decoded on the
// loop, a neighbour's flood) only delays a run's answer: the run keeps its own verdict, never IE,
// and the node stays ready. The stalls here are real (the loop is blocked synchronously); the
// assertions are on verdicts and health, never on durations.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import type { RunOutcome } from "../../fleet/src/sandbox/types.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";

/** Longer than the runs' wall limit, shorter than the setup timeout. */
const STALL_MS = 3_000;
const WALL_MS = 1_000;

function stall(ms = STALL_MS): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // the event loop is blocked: no timer, no socket read, nothing else runs
  }
}

let sandbox: Sandbox;
const stateDir = tempStateDir();
before(async () => {
  if (!requireKernel()) return;
  sandbox = await Sandbox.create({ stateDir, slots: 2, cgroupParent: "codecell-test-stall", firstId: 64_000 });
});
after(async () => {
  await sandbox?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const limits = { ...RUN_LIMITS, wallTimeMs: WALL_MS };

function assertOwnVerdict(outcome: RunOutcome, stdout: string, label: string): void {
  const { result } = outcome;
  const detail = `${label}: ${result.verdict} ${result.evidence.verdict_cause} ${result.error_message ?? ""} missing=${result.evidence.controls_missing.join(",")} actions=${result.evidence.judge_actions.join(",")}`;
  assert.equal(result.verdict, "AC", detail);
  assert.equal(result.stdout, stdout, detail);
  assert.deepEqual(result.evidence.controls_missing, [], detail);
  assert.equal(result.evidence.isolation_mode, "strict", detail);
  // the program ended by itself well within its limit: the supervisor had nothing to kill
  assert.deepEqual(result.evidence.judge_actions, [], detail);
}

function assertReady(label: string): void {
  const health = sandbox.health();
  assert.equal(health.ready, true, `${label}: ${health.reasons.join("; ")}`);
  assert.deepEqual(health.reasons, [], label);
}

describe("a stall of the supervisor only delays the answer", () => {
  it("a stall after the program started (its wall timer expires during the stall): its own AC, node ready", async (t) => {
    if (!requireKernel(t)) return;
    // The program prints once it surely started; the tap stalls the loop on that output. The
    // program exits at once, so its end and the launcher's last lines wait in the sockets while
    // the supervisor's wall timer (1 s) expires.
    const outcome = await sandbox.run({
      argv: ["/bin/sh", "-c", "sleep 0.2; echo 1"],
      limits,
      onOutput: () => stall(),
    });
    assertOwnVerdict(outcome, "1\n", "stall on output");
    assertReady("stall on output");
  });

  it("a stall at any point of two concurrent runs: both keep their own AC, node ready", async (t) => {
    if (!requireKernel(t)) return;
    // Placements from before the launcher connects to after the programs ended.
    for (const delayMs of [0, 5, 20, 60, 150, 400]) {
      const stalled = new Promise<void>((resolve) => setTimeout(() => (stall(), resolve()), delayMs));
      const runs = [
        sandbox.run({ argv: ["/bin/sh", "-c", "echo one"], limits }),
        sandbox.run({ argv: ["/bin/sh", "-c", "sleep 0.1; echo two"], limits }),
      ];
      const [one, two] = await Promise.all(runs);
      await stalled;
      assertOwnVerdict(one!, "one\n", `stall after ${delayMs} ms, first run`);
      assertOwnVerdict(two!, "two\n", `stall after ${delayMs} ms, second run`);
      assertReady(`stall after ${delayMs} ms`);
    }
  });
});
