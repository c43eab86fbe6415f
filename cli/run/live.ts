// codecell run -i FILE: one live session (docs/live-sessions.md). This process's stdin goes to the
// program chunk by chunk as it is read (EOF ends the program's input), the program's output comes
// back as written; Ctrl-C sends the program SIGINT (its own handler decides) and Ctrl-\ kills it.
// Then the verdict line and the exit status, as for any run (verdict.ts).
import type { Codecell, ResultRecord, Session, SessionRequest } from "../../client/src/index.ts";
import { SessionError } from "../../client/src/index.ts";
import type { Sinks } from "./run-once.ts";
import { exitStatus, summary } from "./verdict.ts";

export interface LiveIo extends Sinks {
  stdin: NodeJS.ReadableStream & { destroy?(): void };
}

const processIo: LiveIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** Runs `request` as a live session; resolves to the exit status mapped from the verdict. */
export async function runLive(api: Codecell, request: SessionRequest, io: LiveIo = processIo): Promise<number> {
  const session = await api.session(request);
  const stopInput = pipeInput(io.stdin, session);
  const stopSignals = forwardSignals(session);
  const streamed = { stdout: "", stderr: "" };
  try {
    for await (const event of session) {
      if (event.type !== "stdout" && event.type !== "stderr") continue;
      streamed[event.type] += event.data;
      io[event.type].write(event.data);
    }
    const record = await session.result.catch((error: unknown) => recordAfterClose(api, session, error, io));
    writeUnstreamed(record, streamed, io);
    io.stderr.write(`${summary(record)}\n`);
    return exitStatus(record);
  } finally {
    stopSignals();
    stopInput();
    session.close();
  }
}

/** Each chunk read is written to the session before the next is read; EOF ends the program's input. */
function pipeInput(stdin: LiveIo["stdin"], session: Session): () => void {
  const onData = (chunk: Buffer | string) => {
    stdin.pause();
    const data = typeof chunk === "string" ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // A write fails only once the session is over, and then nothing more is read.
    session.write(data).then(() => stdin.resume(), () => {});
  };
  const onEnd = () => void session.end().catch(() => {});
  stdin.on("data", onData);
  stdin.once("end", onEnd);
  return () => {
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdin.pause();
    stdin.destroy?.();
  };
}

/** Ctrl-C (SIGINT) goes to the program, not to this process; Ctrl-\ (SIGQUIT) kills the program. */
function forwardSignals(session: Session): () => void {
  const interrupt = () => session.signal("SIGINT");
  const quit = () => session.kill();
  process.on("SIGINT", interrupt);
  process.on("SIGQUIT", quit);
  return () => {
    process.off("SIGINT", interrupt);
    process.off("SIGQUIT", quit);
  };
}

/** A session closed without its result (the idle timeout, a cap): the stored record when it is final, else the close as the error. */
async function recordAfterClose(api: Codecell, session: Session, error: unknown, io: LiveIo): Promise<ResultRecord> {
  if (!(error instanceof SessionError) || !session.id) throw error;
  const record = await api.result(session.id).catch(() => null);
  if (!record || (record.job_status !== "completed" && record.job_status !== "error")) throw error;
  io.stderr.write(`codecell: ${error.message}\n`);
  return record;
}

/** What the session did not carry (e.g. a compiler's diagnostics), from the record. */
function writeUnstreamed(record: ResultRecord, streamed: { stdout: string; stderr: string }, io: Sinks): void {
  for (const name of ["stdout", "stderr"] as const) {
    const whole = record[name] ?? "";
    if (whole.startsWith(streamed[name]) && whole.length > streamed[name].length) io[name].write(whole.slice(streamed[name].length));
  }
}
