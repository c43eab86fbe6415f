// The line between a platform fault and a submission fault at exec, and when a request's files
// are placed in /box.
//
// Every control is applied before the launcher execs the program, so an execve that fails on a
// file the submission made (its compiled artifact, anything in its work dir or /tmp) is the
// submission's outcome: RE with a cause the user can act on. The node stays ready. An execve that
// fails on a toolchain path is the platform's own fault and still fails closed.
//
// The files a request brings (and the main source) are copied into the run's own fresh /box
// tmpfs, sized by the run's limits. Running out of room there, or a name the file system refuses
// or that clashes with another, is the files' doing: RE, nothing runs, the node stays ready. Any
// other failure of that step (EIO, ENOMEM, EACCES...) is the platform's and fails closed.
import { constants } from "node:os";

/** Where everything a submission can produce lives inside the sandbox. */
const SUBMISSION_DIRS = ["/box/", "/tmp/", "/opt/program/"];

const { errno } = constants;
const EXEC_CAUSES = new Map<number, { cause: string; message: string }>([
  [errno.ENOEXEC, { cause: "exec_format_error", message: "the program file is not an executable this system can run (exec format error)" }],
  [errno.EACCES, { cause: "not_executable", message: "the program file is not executable (permission denied)" }],
  [errno.ENOENT, { cause: "executable_missing", message: "the program file (or the interpreter it names) does not exist" }],
  [errno.ETXTBSY, { cause: "not_executable", message: "the program file is open for writing and cannot be executed" }],
  [errno.EISDIR, { cause: "not_executable", message: "the program path is a directory" }],
  [errno.ELOOP, { cause: "not_executable", message: "the program's interpreter chain is too deep" }],
  [errno.ENAMETOOLONG, { cause: "not_executable", message: "the program's path is too long" }],
]);

export interface ProgramFault {
  cause: string;
  message: string;
}

/** The submission's own fault when the failed step was exec of a file it made, else undefined. */
export function programFault(failure: { control: string; errno: number } | undefined, executable: string | undefined): ProgramFault | undefined {
  if (failure?.control !== "exec" || !executable) return undefined;
  if (!SUBMISSION_DIRS.some((dir) => executable.startsWith(dir))) return undefined;
  const known = EXEC_CAUSES.get(failure.errno);
  return known ?? { cause: "not_executable", message: `the program could not be executed (errno ${failure.errno})` };
}

const FILES_CAUSES = new Map<number, { cause: string; problem: (boxBytes: number) => string }>([
  ...[errno.ENOSPC, errno.EDQUOT, errno.EFBIG].map((code) => [
    code,
    { cause: "work_dir_full", problem: (boxBytes: number) => `the request's files do not fit in the work dir (${formatBytes(boxBytes)})` },
  ] as const),
  ...[errno.ENAMETOOLONG, errno.EEXIST, errno.ENOTDIR, errno.EISDIR].map((code) => [
    code,
    { cause: "invalid_file_name", problem: () => "a file of the request cannot have this name in the work dir" },
  ] as const),
]);

/**
 * The request's own fault when the launcher could not place one of its files in /box
 * (`fail box_files`, fleet/launcher/mounts.c) for a reason the files themselves cause.
 */
export function filesFault(failure: { control: string; errno: number; message: string } | undefined, boxBytes: number): ProgramFault | undefined {
  if (failure?.control !== "box_files") return undefined;
  const known = FILES_CAUSES.get(failure.errno);
  return known && { cause: known.cause, message: `${known.problem(boxBytes)}: ${failure.message}` };
}

/** 64 MiB, 256 KiB, 1000 bytes. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [["GiB", 1024 ** 3], ["MiB", 1024 ** 2], ["KiB", 1024]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
