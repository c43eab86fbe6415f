// A stalled supervisor (the node's event loop blocked: a GC pause, a big message decoded on the
// loop, a neighbour's flood) only delays a run's answer: the run keeps its own verdict, never IE,
// and the node stays ready. The stalls here are real (the loop is blocked synchronously); the
// assertions are on verdicts and health, never on durations.
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { LauncherZygote, type LauncherConfig } from "../../fleet/src/sandbox/launcher.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { BASE_ENV, baseRootLayout } from "../../fleet/src/sandbox/rootfs.ts";
import { Sandbox } from "../../fleet/src/sandbox/sandbox.ts";
import type { RunOutcome } from "../../fleet/src/sandbox/run-spec.ts";
import { hostProcessesWith, requireKernel, tempStateDir } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

/** Longer than the runs' wall limit, shorter than the setup timeout. */
const STALL_MS = 3_000;
const WALL_MS = 1_000;

function stall(ms = STALL_MS): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // the event loop is blocked: no timer, no socket read, nothing else runs
  }
}

/**
 * Blocks the event loop until `reached()` holds (polled every 10 ms), so that a test's stall spans
 * an event in another process however slow the machine is; gives up after `capMs`.
 */
function stallUntil(reached: () => boolean, capMs = 120_000): void {
  const end = Date.now() + capMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!reached()) {
    assert.ok(Date.now() < end, `the awaited event did not happen within ${capMs} ms`);
    Atomics.wait(pause, 0, 0, 10);
  }
}

/**
 * The run's launcher has written its last status line: it waits in `linger` (fleet/launcher/
 * zygote.c), blocked in read(2) on its control connection (fd 4), which nothing else blocks on
 * while the supervisor writes nothing; or it is gone. x86-64: read is system call 0. The zygote's
 * spare child (named codecell-spare while it waits for a request) is no run's launcher.
 */
function launcherFinished(socketPath: string): boolean {
  const [zygote] = hostProcessesWith(socketPath, process.pid);
  if (zygote === undefined) return true;
  return hostProcessesWith(socketPath, zygote).every((launcher) => {
    try {
      if (readFileSync(`/proc/${launcher}/comm`, "utf8") === "codecell-spare\n") return true;
      return readFileSync(`/proc/${launcher}/syscall`, "utf8").startsWith("0 0x4 ");
    } catch {
      return true; // gone
    }
  });
}

const { sandbox } = useSandbox({ slots: 2, cgroupParent: "codecell-test-stall", firstId: 64_000 });

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
    for (const delayMs of [0, 20, 60, 150]) {
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

/** A run of `argv` as the launcher's own (no cgroups: the launcher alone, not a Sandbox). */
function launcherConfig(dir: string, argv: string[]): LauncherConfig {
  const layout = baseRootLayout(join(dir, "etc"));
  return {
    uid: 64_010,
    gid: 64_010,
    hostname: "sandbox",
    cgroupProcsFiles: [],
    memoryLimitBytes: 64 << 20,
    outputCap: 1024,
    bindsReadOnly: layout.binds.filter((bind) => !bind.copy),
    symlinks: layout.symlinks,
    boxBytes: 1 << 20,
    tmpBytes: 1 << 20,
    copyIn: [],
    copyOut: [],
    rlimits: {},
    env: { ...BASE_ENV },
    cwd: "/box",
    argv,
  };
}

/** A zygote of its own in a fresh directory, for `body`; closed and removed afterwards. */
async function withZygote(body: (zygote: LauncherZygote, dir: string, socketPath: string) => Promise<void>): Promise<void> {
  const dir = tempStateDir("codecell-test-stall-zygote-");
  const socketPath = join(dir, "launcher.sock");
  const zygote = await LauncherZygote.start(socketPath);
  try {
    await body(zygote, dir, socketPath);
  } finally {
    await zygote.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the launcher's report survives a late kill", () => {
  it("a kill written after the launcher's last line neither fails nor loses the report", async (t) => {
    if (!requireKernel(t)) return;
    // The supervisor's wall timer fired while the end of the run waited unread in the socket: its
    // kill byte reaches a launcher that has said "done". The launcher keeps the connection until
    // the supervisor closes it, so the write cannot fail (EPIPE) and take the unread lines along.
    await withZygote(async (zygote, dir, socketPath) => {
      const config = launcherConfig(dir, ["/bin/sh", "-c", "sleep 0.2; echo 1"]);
      const launched = zygote.launch(config, undefined);
      let output = "";
      launched.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      launched.stderr.resume();
      launched.onStarted(() => {
        // meanwhile the program ends and the launcher writes its last lines
        stallUntil(() => launcherFinished(socketPath));
        launched.kill();
      });
      await launched.finished;
      const { report } = launched;
      assert.deepEqual(report.unparsed, []);
      assert.equal(report.done, true, "the launcher's report is complete");
      assert.equal(report.killed, false, "nothing was left to kill");
      assert.deepEqual(report.exit, { kind: "exited", code: 0 });
      assert.ok(report.applied.includes("output_drain"), report.applied.join(","));
      assert.deepEqual(report.outputTotals, { out: 2, err: 0 });
      assert.equal(output, "1\n");
    });
  });
});

/** The zygote's children, each a spare (waiting for a request) or a run's launcher. */
function zygoteChildren(socketPath: string): { spares: number; launchers: number } {
  const [zygote] = hostProcessesWith(socketPath, process.pid);
  const children = zygote === undefined ? [] : hostProcessesWith(socketPath, zygote);
  const spares = children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8") === "codecell-spare\n";
    } catch {
      return false;
    }
  }).length;
  return { spares, launchers: children.length - spares };
}

describe("the zygote's next spare", () => {
  it("is forked once a run's launcher has said done, while that launcher still waits for the supervisor", async (t) => {
    if (!requireKernel(t)) return;
    // The supervisor is stalled from the program's start until well after its end: the run's
    // launcher has written "done" and waits (linger) for the supervisor to close the connection,
    // which it cannot while stalled. The next spare must not wait for that launcher's exit.
    await withZygote(async (zygote, dir, socketPath) => {
      // a first run of these CPUs, so that their spares wait (the zygote keeps two per CPU set,
      // connected to the supervisor ahead of their requests)
      const first = zygote.launch(launcherConfig(dir, ["/bin/true"]), undefined);
      first.stdout.resume();
      first.stderr.resume();
      await first.finished;
      while (zygoteChildren(socketPath).spares < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 100)); // their connections accepted
      const launched = zygote.launch(launcherConfig(dir, ["/bin/sh", "-c", "sleep 0.2"]), undefined);
      launched.stdout.resume();
      launched.stderr.resume();
      let seen = { spares: 0, launchers: 0 };
      launched.onStarted(() => {
        stallUntil(() => launcherFinished(socketPath));
        try {
          stallUntil(() => (seen = zygoteChildren(socketPath)).spares === 2, 20_000);
        } catch {
          // seen says what there was instead
        }
      });
      await launched.finished;
      assert.equal(launched.report.done, true);
      // the run took one of the two spares: the new one beside the other, while the launcher lingers
      assert.deepEqual(seen, { spares: 2, launchers: 1 }, "a new spare beside the lingering launcher");
    });
  });
});

/**
 * A stand-in zygote (no kernel needed): for each request it connects the run's three streams, and
 * answers a kill byte on the control stream as the launcher does ("killed", "done").
 */
const FAKE_ZYGOTE = `
const net = require("node:net");
const socketPath = process.argv[3];
const marker = (name) => require("node:fs").writeFileSync(socketPath + "." + name, "");
process.stdin.on("end", () => process.exit(0));
marker("ready");
let pending = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32LE(0)) {
    const payload = pending.subarray(4, 4 + pending.readUInt32LE(0));
    pending = pending.subarray(4 + payload.length);
    const nonce = payload.subarray(0, payload.indexOf(0)).toString();
    let written = 0;
    const streams = ["out", "err", "ctl"].map((kind) => {
      const socket = net.connect(socketPath);
      socket.on("error", () => {});
      socket.write(nonce + " " + kind + "\\n", () => ++written === 3 && marker("connected"));
      return socket;
    });
    streams[2].on("data", (data) => {
      if (!data.includes("k")) return;
      streams[2].end("killed\\ndone\\n");
      streams[0].end();
      streams[1].end();
    });
  }
});
`;

describe("the connect grace of a killed run", () => {
  it("a launcher that connected while the supervisor was stalled is not given up as lost", async () => {
    const dir = tempStateDir("codecell-test-stall-grace-");
    const fake = join(dir, "fake-zygote");
    writeFileSync(fake, `#!${process.execPath}\n${FAKE_ZYGOTE}`);
    chmodSync(fake, 0o755);
    const socketPath = join(dir, "launcher.sock");
    const zygote = await LauncherZygote.start(socketPath, fake);
    try {
      stallUntil(() => existsSync(`${socketPath}.ready`)); // the stand-in is listening on its stdin
      const launched = zygote.launch(launcherConfig(dir, ["/bin/true"]), undefined);
      launched.stdout.resume();
      launched.stderr.resume();
      // Killed before its launcher connected (a cancel, a timeout); then the loop stalls for longer
      // than the whole grace, while the launcher connects: its connections wait to be accepted.
      launched.kill();
      const stalledAt = Date.now();
      stallUntil(() => existsSync(`${socketPath}.connected`) && Date.now() - stalledAt > STALL_MS);
      await launched.finished;
      assert.deepEqual(launched.report.unparsed, [], "not given up as lost");
      assert.equal(launched.report.killed, true, "the kill reached the launcher once it connected");
      assert.equal(launched.report.done, true);
    } finally {
      await zygote.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
