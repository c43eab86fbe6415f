// What the launcher is told for one run: the slot's identity, the run cgroup, the root layout,
// the staged files, the limits as rlimits, the environment and the command.
import { NODE_CORES } from "./cgroup/cpu-policy.ts";
import type { RunCgroup } from "./cgroup/driver.ts";
import type { LauncherConfig } from "./launcher.ts";
import { BASE_ENV, type RootLayout } from "./rootfs.ts";
import type { Slot } from "./slot.ts";
import { outputFileCap, type StagedRun } from "./staging.ts";
import type { RunSpec } from "./run-spec.ts";

export function launcherConfig(layout: RootLayout, slot: Slot, spec: RunSpec, cgroup: RunCgroup, staged: StagedRun): LauncherConfig {
  const { limits } = spec;
  return {
    uid: slot.id,
    gid: slot.id,
    hostname: "sandbox",
    netnsPath: slot.netnsPath,
    cgroupProcsFiles: cgroup.procsFiles,
    ...(cgroup.limits.cpu ? { cpus: cgroup.limits.cpu.cpus } : {}),
    outputCap: limits.outputBytes,
    mergeStderr: spec.mergeStderr === true,
    drainerProcsFiles: cgroup.drainerProcsFiles,
    drainerReturnProcsFiles: cgroup.drainerReturnProcsFiles,
    initReturnProcsFiles: cgroup.initReturnProcsFiles,
    memoryLimitBytes: limits.memoryBytes,
    bindsReadOnly: [...layout.binds, ...(spec.binds ?? [])],
    symlinks: layout.symlinks,
    boxBytes: limits.workDirBytes,
    tmpBytes: limits.workDirBytes,
    copyIn: staged.copyIn,
    copyOut: [...staged.copyOut].map(([name, hostPath]) => ({ name, hostPath, maxBytes: outputFileCap(spec, name) })),
    rlimits: {
      cpu: cpuBackstopSecs(limits),
      fsize: limits.fileSizeBytes,
      core: 0,
      nofile: limits.openFiles,
      stack: limits.stackBytes,
    },
    env: { ...BASE_ENV, ...spec.env },
    cwd: "/box",
    argv: spec.argv,
  };
}

/**
 * RLIMIT_CPU (per process) is only a backstop behind the supervisor's cgroup-wide CPU limit: a
 * second past it, or every core busy for the whole wall limit plus a second if that is less.
 */
function cpuBackstopSecs(limits: RunSpec["limits"]): number {
  return Math.min(Math.ceil(limits.cpuTimeMs / 1000) + 1, Math.ceil((limits.wallTimeMs / 1000) * NODE_CORES) + 1);
}
