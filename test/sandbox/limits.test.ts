// Limits at their exact edges, on the real kernel, with the documented numbers written out (never the
// constants under test): 64 processes, 1 MiB of captured output per stream, MLE only with the
// OOM killer's own counter.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after } from "../hooks.ts";
import { COMPILE_LIMITS, RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { readRunCgroups, requireKernel } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

const ONE_MIB = 1_048_576;
/** pids.max of a cgroup made for compile limits (256): one more for the run's init, and on v2 one for the launcher's output drainer. */
const COMPILE_PIDS_MAX = existsSync("/sys/fs/cgroup/cpuacct") ? "257" : "258";
/** The slot's cgroups between runs: on v1 two kept and reused, on v2 the one spare made ahead. */
const KEPT_PER_SLOT = existsSync("/sys/fs/cgroup/cpuacct") ? 2 : 1;
// One slot: every run takes a cgroup the slot prepared after an earlier run.
const { sandbox } = useSandbox({ firstId: 61_200 });

/** pids.max of this process's run cgroups now. */
function spareCgroupLimits(): string[] {
  return readRunCgroups("pids.max").map((text) => text.trim());
}

const python = (code: string, limits = RUN_LIMITS) => sandbox.run({ argv: ["/usr/bin/python3", "-c", code], limits });

describe("limits at their edges", { skip: !requireKernel() }, () => {
  it("a run straight after a compile gets 64 processes, not the compile's 256", async () => {
    // Compile-sized runs until the slot's next cgroups (made or readied ahead, off the critical
    // path) have the compile's limits: the run below must rewrite them, downwards.
    const compileOnly = () => spareCgroupLimits().join() === Array(KEPT_PER_SLOT).fill(COMPILE_PIDS_MAX).join();
    for (let i = 0; i < 5 && !compileOnly(); i++) {
      assert.equal((await sandbox.run({ argv: ["/usr/bin/true"], limits: COMPILE_LIMITS })).result.verdict, "AC");
      for (let j = 0; j < 50 && spareCgroupLimits().length !== KEPT_PER_SLOT; j++) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(compileOnly(), `the slot's next cgroups were made for the compile's limits: ${spareCgroupLimits().join()}`);
    const { result } = await python(`import threading, time
made = 0
try:
    while True:
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        made += 1
except RuntimeError:
    pass
print(made)`);
    assert.equal(result.evidence.cgroup.process_limit, 64);
    const made = Number(result.stdout.trim());
    assert.ok(made > 40 && made < 64, `threads made: ${result.stdout} (${result.verdict})`);
  });

  it("exactly 1 MiB of output is complete; one byte more is truncated_by_judge_limit", async () => {
    const exact = await python(`import sys\nsys.stdout.write("x" * ${ONE_MIB})`);
    assert.equal(exact.result.verdict, "AC");
    assert.equal(exact.result.stdout.length, ONE_MIB);
    assert.equal(exact.result.output_integrity, "complete");
    const over = await python(`import sys\nsys.stdout.write("x" * ${ONE_MIB + 1})`);
    assert.equal(over.result.verdict, "AC");
    assert.equal(over.result.stdout.length, ONE_MIB);
    assert.equal(over.result.output_integrity, "truncated_by_judge_limit");
  });

  it("a SIGKILL the program sent itself is SIG, not MLE: MLE needs the OOM killer's counter", async () => {
    const { result } = await python("import os, signal\nx = bytearray(32 << 20)\nos.kill(os.getpid(), signal.SIGKILL)");
    assert.equal(result.signal, 9);
    assert.equal(result.evidence.cgroup.oom_kill_events, 0);
    assert.equal(result.verdict, "SIG");
    const oom = await python("x = []\nwhile True: x.append(bytearray(1 << 20))", { ...RUN_LIMITS, memoryBytes: 64 * ONE_MIB });
    assert.equal(oom.result.verdict, "MLE");
    assert.ok(oom.result.evidence.cgroup.oom_kill_events >= 1);
  });
});
