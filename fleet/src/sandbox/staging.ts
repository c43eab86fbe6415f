// A run's host-side files in its slot's staging directory: the request's files and stdin going
// in, the asked-for output files coming out. Every one is removed when the run ends.
import { join } from "node:path";
import { unlinkIfPresent } from "./housekeeping.ts";
import type { LauncherConfig } from "./launcher.ts";
import type { LauncherReport } from "./launcher-report.ts";
import { readFileNoFollowAsync, writeNewFileNoFollow } from "./nofollow.ts";
import type { RunOutcome, RunSpec } from "./run-spec.ts";

export interface StagedRun {
  created: string[];
  copyIn: LauncherConfig["copyIn"];
  /** Output file name to the host path the launcher copies it to. */
  copyOut: Map<string, string>;
  stdinPath: string | undefined;
}

export function stageRun(stagingDir: string, spec: RunSpec): StagedRun {
  const created: string[] = [];
  const copyIn: LauncherConfig["copyIn"] = [];
  for (const [index, file] of (spec.files ?? []).entries()) {
    const hostPath = join(stagingDir, `in-${index}`);
    writeNewFileNoFollow(hostPath, file.content);
    created.push(hostPath);
    copyIn.push({ hostPath, name: file.name, mode: file.executable ? 0o755 : 0o644 });
  }
  let stdinPath: string | undefined;
  if (spec.stdin !== undefined && spec.stdin.length > 0) {
    stdinPath = join(stagingDir, "stdin");
    writeNewFileNoFollow(stdinPath, spec.stdin);
    created.push(stdinPath);
  }
  const copyOut = new Map<string, string>();
  for (const [index, file] of (spec.outputFiles ?? []).entries()) copyOut.set(file.name, join(stagingDir, `out-${index}`));
  return { created, copyIn, copyOut, stdinPath };
}

export function outputFileCap(spec: RunSpec, name: string): number {
  return spec.outputFiles?.find((file) => file.name === name)?.maxBytes ?? 0;
}

/** Reads the output files the launcher copied out, notes the ones it could not, then removes every staged file. */
export async function collectOutputFiles(
  staged: StagedRun,
  report: LauncherReport,
  spec: RunSpec,
): Promise<Pick<RunOutcome, "outputFiles" | "outputFileFailures">> {
  const outputFiles = new Map<string, Uint8Array>();
  const outputFileFailures = new Map<string, { reason: string; size?: number }>();
  for (const [name, hostPath] of staged.copyOut) {
    const copied = report.copyOuts.get(name);
    if (copied && "bytes" in copied) outputFiles.set(name, await readFileNoFollowAsync(hostPath, outputFileCap(spec, name)));
    else if (copied) outputFileFailures.set(name, copied);
  }
  for (const file of [...staged.created, ...staged.copyOut.values()]) unlinkIfPresent(file);
  return { outputFiles, outputFileFailures };
}
