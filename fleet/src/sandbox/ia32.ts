// The i386 system-call entry (`int $0x80`) from a 64-bit program: on kernels that take it, the
// seccomp filter kills the program (SIGSYS); on kernels without IA32 emulation (or with it off at
// boot) the instruction faults (SIGSEGV) before any filter runs. Either way no 32-bit call
// reaches the kernel; the node probes once which mechanism stops it and names it in evidence.
import { spawnSync } from "node:child_process";

export type Ia32Entry = "reaches_kernel" | "refused_by_kernel";

/** Runs the launcher's probe (a child that tries i386 getpid). Unknown answers count as reaching. */
export function probeIa32Entry(launcherPath: string): Ia32Entry {
  const probe = spawnSync(launcherPath, ["--probe-ia32"], { encoding: "utf8", timeout: 5_000 });
  return probe.stdout?.trim() === "refused_by_kernel" ? "refused_by_kernel" : "reaches_kernel";
}

/** The control that keeps 32-bit system calls away from the kernel, as listed in evidence. */
export function ia32Control(entry: Ia32Entry): string {
  return entry === "refused_by_kernel" ? "ia32_syscalls_refused_by_kernel" : "ia32_syscalls_killed_by_seccomp";
}

/** What a program that makes a 32-bit system call dies of, given the kernel's answer. */
export function expectedIa32Death(entry: Ia32Entry): { signal: number; cause: string } {
  return entry === "refused_by_kernel" ? { signal: 11, cause: "segmentation_fault" } : { signal: 31, cause: "bad_system_call" };
}
