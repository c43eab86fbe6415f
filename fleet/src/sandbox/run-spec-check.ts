// What every run's spec is checked for before anything runs.
import { checkCpuLimit } from "./cpu-watch.ts";
import { checkInputFiles } from "./input-files.ts";
import type { RunSpec } from "./run-spec.ts";

/** A caller's bug rejected before anything runs: an unsafe input file name, a CPU limit that is no number. */
export function checkRunSpec(spec: RunSpec): void {
  checkInputFiles(spec.files ?? []);
  checkCpuLimit(spec.limits.cpuTimeMs);
}
