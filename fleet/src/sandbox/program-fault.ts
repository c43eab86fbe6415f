// The line between a platform fault and a submission fault at exec. Every control is applied
// before the launcher execs the program, so an execve that fails on a file the submission made
// (its compiled artifact, anything in its work dir or /tmp) is the submission's outcome: RE with
// a cause the user can act on. The node stays ready. An execve that fails on a toolchain path is
// the platform's own fault and still fails closed.
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
