// The run's init works for the run (the file-size watch answers the program's calls past the
// limit), so its CPU is the run's: while the program runs, init is in the run's cgroups, every
// hierarchy (real kernel, cgroup v1 here, v2 in the VM).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { before } from "../hooks.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { hostProcessesWith, requireKernel } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

const { sandbox, stateDir } = useSandbox({ cgroupParent: "codecell-test-init", firstId: 61_700 });
let storm: Buffer;

// 48 threads calling ftruncate past RLIMIT_FSIZE in a loop (SIGXFSZ ignored, so each call only
// fails with EFBIG): every call is a seccomp notification that init answers.
const STORM_C = `#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
static void *truncate_forever(void *arg) {
  int fd = *(int *)arg;
  for (;;) ftruncate(fd, 1LL << 40);
  return 0;
}
int main(void) {
  char line[4096];
  FILE *f = fopen("/proc/1/cgroup", "r");
  while (f && fgets(line, sizeof line, f)) fputs(line, stdout);
  fflush(stdout);
  signal(SIGXFSZ, SIG_IGN);
  int fd = open("/tmp/storm", O_CREAT | O_WRONLY, 0600);
  pthread_t t;
  for (int i = 0; i < 48; i++) pthread_create(&t, 0, truncate_forever, &fd);
  truncate_forever(&fd);
}
`;

before(() => {
  if (!requireKernel()) return;
  writeFileSync(join(stateDir, "storm.c"), STORM_C);
  execFileSync("cc", ["-O2", "-static", "-pthread", "-o", join(stateDir, "storm"), join(stateDir, "storm.c")]);
  storm = readFileSync(join(stateDir, "storm"));
});

interface Seen {
  program: number;
  init: number;
  programCgroups: string;
  initCgroups: string;
  initCpuTicks: number;
}

/**
 * The run's program once it runs the storm (found by its marker argument; the launcher's command
 * line, and the program child's before its exec, carry the marker too) and its parent, the run's
 * init, on the host.
 */
function look(marker: string): Seen | undefined {
  const program = hostProcessesWith(marker).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "storm";
    } catch {
      return false;
    }
  });
  if (program === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${program}/stat`, "utf8");
    const init = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const nspid = /^NSpid:\s+(.*)$/m.exec(readFileSync(`/proc/${init}/status`, "utf8"))?.[1]?.trim().split(/\s+/);
    if (nspid?.at(-1) !== "1") return undefined;
    const initStatText = readFileSync(`/proc/${init}/stat`, "utf8");
    const initStat = initStatText.slice(initStatText.lastIndexOf(")") + 2).split(" ");
    return {
      program,
      init,
      programCgroups: readFileSync(`/proc/${program}/cgroup`, "utf8"),
      initCgroups: readFileSync(`/proc/${init}/cgroup`, "utf8"),
      // utime + stime (fields 14 and 15 of stat, 12 and 13 after the command)
      initCpuTicks: Number(initStat[11]) + Number(initStat[12]),
    };
  } catch {
    return undefined; // it ended while we looked
  }
}

describe("the run's init is charged to the run", { skip: !requireKernel() }, () => {
  it("48 threads ftruncating past the file-size limit: init answers them inside the run's cgroups", async () => {
    const marker = `init-charged-${process.pid}`;
    const running = sandbox.run({
      argv: ["/box/storm", marker],
      files: [{ name: "storm", content: storm, executable: true }],
      limits: { ...RUN_LIMITS, wallTimeMs: 3_000, fileSizeBytes: 1 << 20 },
    });
    let done = false;
    void running.finally(() => (done = true));
    // until the run ends: init's cgroups while it serves the storm, and how much CPU it used so far
    const samples: Seen[] = [];
    while (!done) {
      const seen = look(marker);
      if (seen) samples.push(seen);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { result } = await running;
    assert.equal(result.verdict, "TLE", `${result.verdict}: ${result.error_message} ${result.stderr}`);
    const [first] = samples;
    assert.ok(first, "the run's program and init were seen on the host");
    // Every hierarchy (v1: memory, pids, cpu, cpuacct, cpuset, ...; v2: the one line) is the
    // program's, from the program's start. (Once the wall timer killed it, an exiting init shows
    // "/" on v1, so later samples only count while init still works.)
    assert.equal(first.initCgroups, first.programCgroups, `init ${first.init} is not in the run's cgroups`);
    const working = samples.filter((seen) => seen.initCgroups === seen.programCgroups && seen.initCpuTicks > first.initCpuTicks);
    assert.ok(working.length > 0, `init did work for the run inside its cgroups: ${samples.map((seen) => seen.initCpuTicks).join(" ")}`);
    const initCpuUsec = (working.at(-1)!.initCpuTicks * 1e6) / 100;
    assert.ok(result.evidence.cgroup.cpu_usage_usec >= initCpuUsec, "the run's CPU includes init's");
    // seen from inside (the program's cgroup namespace is rooted at the run's cgroup): init is at "/"
    const lines = result.stdout.trim().split("\n");
    assert.ok(lines.length >= 1, result.stdout);
    for (const line of lines) assert.match(line, /:\/$/, `init is outside the run's cgroup: ${line}`);
  });
});
