// One program per verdict on the real kernel, asserting the evidence, not only the verdict.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { before } from "../hooks.ts";
import { classifyTiming } from "../../fleet/src/sandbox/evidence.ts";
import { hostProcessesWith, requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";

const MiB = 1024 * 1024;
const { engine } = useEngine("codecell-test-");

const c = (code: string, stdin = "", limits = {}) => engine.execute({ language: "c", code, stdin, limits });
const py = (code: string, stdin = "", limits = {}) => engine.execute({ language: "python", code, stdin, limits });

describe("verdicts from kernel evidence", { skip: !requireKernelQuiet() }, () => {
  it("AC: hello world, with strict isolation evidence", async () => {
    const { result, language } = await py("print('hello, world')");
    assert.equal(language, "python");
    assert.equal(result.verdict, "AC");
    assert.equal(result.stdout, "hello, world\n");
    assert.equal(result.exit_code, 0);
    assert.equal(result.signal, null);
    assert.equal(result.output_integrity, "complete");
    assert.equal(result.error_message, null);
    const { evidence } = result;
    assert.equal(evidence.verdict_cause, "normal_exit");
    assert.equal(evidence.verdict_actor, "runtime");
    assert.equal(evidence.isolation_mode, "strict");
    assert.deepEqual(evidence.controls_missing, []);
    for (const control of ["pid_namespace", "mount_namespace", "network_namespace", "time_namespace", "proc", "proc_masks", "memory_limit", "process_limit", "no_new_privileges", "seccomp"]) {
      assert.ok(evidence.controls_applied.includes(control), control);
    }
    assert.equal(evidence.cgroup.memory_limit_bytes, 256 * MiB);
    assert.equal(evidence.cgroup.process_limit, 64);
    assert.ok(evidence.cgroup.memory_peak_bytes > 0);
    assert.ok(evidence.cgroup.cpu_usage_usec > 0);
    assert.equal(evidence.cgroup.oom_kill_events, 0);
    assert.deepEqual(evidence.process_lifecycle, { reap_status: "clean", descendant_containment: "ok", zombie_count: 0 });
    assert.deepEqual(evidence.judge_actions, []);
    assert.deepEqual(evidence.collection_errors, []);
    assert.ok(result.wall_time_secs > 0 && result.cpu_time_secs > 0);
  });

  it("wall time is the program's own, measured by init from exec to exit", async () => {
    // C, not Python: an interpreter's start-up CPU would blur "io_bound" on a slow (emulated) machine.
    const { result } = await c("#include <unistd.h>\nint main(void){ usleep(300000); return 0; }");
    assert.equal(result.verdict, "AC");
    assert.ok(result.wall_time_secs >= 0.3, String(result.wall_time_secs));
    assert.equal(result.evidence.timing.wall_ms, Math.round(result.wall_time_secs * 1000));
    // The class follows from the program's own CPU and wall time (a slow machine may make a
    // sleeping program's start-up count, so the class itself is not asserted here).
    const { cpu_time_ms, wall_ms, divergence } = result.evidence.timing;
    assert.equal(divergence, classifyTiming(cpu_time_ms, wall_ms));
  });

  it("stdin of 256 KiB is fed without deadlock", async () => {
    const numbers = Array.from({ length: 40_000 }, (_, i) => i % 1000);
    const stdin = numbers.join(" ").padEnd(256 * 1024, " ");
    const { result } = await py("import sys\nprint(sum(map(int, sys.stdin.read().split())))", stdin);
    assert.equal(result.verdict, "AC");
    assert.equal(result.stdout.trim(), String(numbers.reduce((a, b) => a + b, 0)));
  });

  it("RE: non-zero exit", async () => {
    const { result } = await c("int main(void){return 3;}");
    assert.equal(result.verdict, "RE");
    assert.equal(result.exit_code, 3);
    assert.equal(result.evidence.verdict_cause, "nonzero_exit");
  });

  it("RE: segmentation fault", async () => {
    const { result } = await c("#include <stdio.h>\nint main(void){volatile int *p=0; printf(\"before\\n\"); fflush(stdout); return *p;}");
    assert.equal(result.verdict, "RE");
    assert.equal(result.signal, 11);
    assert.equal(result.exit_code, null);
    assert.equal(result.stdout, "before\n");
    assert.equal(result.evidence.verdict_cause, "segmentation_fault");
    assert.equal(result.evidence.verdict_actor, "kernel");
  });

  it("TLE: an infinite loop is killed by the wall timer", async () => {
    const { result } = await c("int main(void){for(;;){} }", "", { wallTimeMs: 1000 });
    assert.equal(result.verdict, "TLE");
    assert.equal(result.signal, 9);
    assert.equal(result.evidence.verdict_cause, "wall_timeout");
    assert.equal(result.evidence.verdict_actor, "supervisor");
    assert.deepEqual(result.evidence.judge_actions, ["sigkill_on_wall_timeout"]);
    // cpu_bound on an idle machine; a loaded one may only give the loop part of a core
    assert.notEqual(result.evidence.timing.divergence, "io_bound");
    assert.ok(result.wall_time_secs >= 1);
  });

  it("TLE: sleeping forever, its timing class from its own CPU and wall", async () => {
    const { result } = await c("#include <stdio.h>\n#include <unistd.h>\nint main(void){ puts(\"waiting\"); fflush(stdout); for (;;) pause(); }", "", { wallTimeMs: 1000 });
    assert.equal(result.verdict, "TLE");
    assert.equal(result.stdout, "waiting\n");
    // io_bound on any machine that starts a C program in under 200 ms of CPU; an emulated VM may not
    const { cpu_time_ms, wall_ms, divergence } = result.evidence.timing;
    assert.equal(divergence, classifyTiming(cpu_time_ms, wall_ms));
  });

  it("MLE: a memory bomb is ended by the cgroup OOM killer", async () => {
    const code = "#include <stdlib.h>\n#include <string.h>\nint main(void){for(;;){char*p=malloc(1<<20); if(!p) return 2; memset(p,1,1<<20);} }";
    const { result } = await c(code, "", { memoryBytes: 64 * MiB });
    assert.equal(result.verdict, "MLE");
    assert.equal(result.signal, 9);
    assert.equal(result.evidence.verdict_cause, "oom_kill");
    assert.equal(result.evidence.verdict_actor, "kernel");
    assert.ok(result.evidence.cgroup.oom_kill_events >= 1);
    assert.equal(result.evidence.cgroup.memory_limit_bytes, 64 * MiB);
    assert.ok(result.memory_peak_bytes > 60 * MiB);
  });

  it("PLE: a fork bomb reaches the pids limit", async () => {
    const code = "#include <unistd.h>\nint main(void){for(;;) fork();}";
    const { result } = await c(code, "", { wallTimeMs: 2000 });
    assert.equal(result.verdict, "PLE");
    assert.equal(result.evidence.verdict_cause, "pids_limit");
    assert.equal(result.evidence.cgroup.process_limit, 64);
    // The fork bomb spins until the wall timer: evidence keeps that too.
    assert.ok(result.evidence.judge_actions.includes("sigkill_on_wall_timeout"));
    assert.equal(result.evidence.process_lifecycle.descendant_containment, "ok");
  });

  it("PLE: a thread bomb counts threads against the same limit", async () => {
    const code = `#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
static void *idle(void *arg){ (void)arg; pause(); return 0; }
int main(void){ int made = 0; pthread_t t; while (pthread_create(&t, 0, idle, 0) == 0) made++; printf("%d\\n", made); return 1; }`;
    const { result } = await c(code);
    assert.equal(result.verdict, "PLE");
    assert.ok(Number(result.stdout) < 64 && Number(result.stdout) > 50, result.stdout);
  });

  it("FSE: writing past the file-size limit", async () => {
    const code = `#include <stdio.h>
int main(void){ FILE *f = fopen("big.bin", "w"); char buf[65536] = {0}; for(;;) fwrite(buf, 1, sizeof buf, f); }`;
    const { result } = await c(code, "", { fileSizeBytes: 1 * MiB });
    assert.equal(result.verdict, "FSE");
    assert.equal(result.signal, 25);
    assert.equal(result.evidence.verdict_cause, "file_size_limit");
  });

  it("FSE: fallocate, ftruncate and truncate past the limit, which grow no file; within it, AC", async () => {
    const code = `#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void){ char m[32] = {0}; if (!fgets(m, sizeof m, stdin)) return 2; m[strcspn(m, "\\n")] = 0;
  int fd = open("f", O_CREAT | O_WRONLY, 0644);
  if (!strcmp(m, "fallocate")) fallocate(fd, 0, 0, 2 << 20);
  if (!strcmp(m, "fallocate-split")) fallocate(fd, 0, 600 << 10, 600 << 10);
  if (!strcmp(m, "ftruncate")) ftruncate(fd, 1LL << 40);
  if (!strcmp(m, "truncate")) truncate("f", (1 << 20) + 1);
  if (!strcmp(m, "within")) { fallocate(fd, 0, 0, 512 << 10); ftruncate(fd, 1 << 20); }
  puts("survived"); return 0; }`;
    for (const call of ["fallocate", "fallocate-split", "ftruncate", "truncate"]) {
      const { result } = await c(code, call, { fileSizeBytes: 1 * MiB });
      assert.equal(result.verdict, "FSE", `${call}: ${result.verdict} ${result.error_message}`);
      assert.equal(result.signal, 25);
      assert.equal(result.evidence.verdict_cause, "file_size_limit");
    }
    const { result } = await c(code, "within", { fileSizeBytes: 1 * MiB });
    assert.equal(result.verdict, "AC", result.error_message ?? "");
    assert.equal(result.stdout, "survived\n");
  });

  it("SIG, not FSE: raise(SIGXFSZ) without writing", async () => {
    const { result } = await c("#include <signal.h>\nint main(void){ raise(SIGXFSZ); return 0; }");
    assert.equal(result.verdict, "SIG");
    assert.equal(result.signal, 25);
  });

  it("SIG: the program's own kill -TERM", async () => {
    const { result } = await py("import os, signal\nos.kill(os.getpid(), signal.SIGTERM)");
    assert.equal(result.verdict, "SIG");
    assert.equal(result.signal, 15);
    assert.equal(result.evidence.verdict_actor, "runtime");
  });

  it("8 MiB of output: 1 MiB kept, the rest drained, truncated_by_judge_limit", async () => {
    const { result } = await py("import sys\nsys.stdout.write('x' * (8 * 1024 * 1024))");
    assert.equal(result.verdict, "AC");
    assert.equal(result.stdout.length, 1 * MiB);
    assert.equal(result.output_integrity, "truncated_by_judge_limit");
  });

  it("a double-forked setsid daemon is killed and gone from the host", async () => {
    const marker = `daemon-marker-${process.pid}-${Date.now()}`;
    const code = `import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(1000)", "${marker}"])
    os._exit(0)
time.sleep(0.3)
print("parent done")`;
    const { result } = await py(code);
    assert.equal(result.verdict, "AC");
    assert.ok(result.evidence.judge_actions.includes("sigkill_leftover_processes"), JSON.stringify(result.evidence));
    assert.equal(result.evidence.process_lifecycle.reap_status, "clean");
    assert.equal(result.evidence.process_lifecycle.descendant_containment, "ok");
    assert.deepEqual(await hostProcessesWith(marker), []);
  });

  it("kill(-1, SIGKILL) from inside kills only the program's own processes", async () => {
    const survivor = py("import time\ntime.sleep(1.5)\nprint('survived')");
    const killer = c(`#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void){ pid_t child = fork(); if (child == 0) { pause(); return 0; }
  usleep(200000); kill(-1, SIGKILL); int status; waitpid(child, &status, 0);
  printf("child %s\\n", WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? "killed" : "alive"); return 0; }`);
    const [survived, killed] = await Promise.all([survivor, killer]);
    assert.equal(killed.result.verdict, "AC", killed.result.stderr);
    assert.equal(killed.result.stdout, "child killed\n");
    assert.equal(survived.result.verdict, "AC");
    assert.equal(survived.result.stdout, "survived\n");
  });
});

function requireKernelQuiet(): boolean {
  try {
    return requireKernel();
  } catch {
    return true; // let before() throw the CI failure
  }
}
