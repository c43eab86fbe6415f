// The narrow core interface of a fleet node: what one execution asks for and what it returns.
// Transports (gRPC, gRPC-Web) and the language layer are thin adapters around these types.

// The record's shapes (verdicts, evidence, the execution outcome) are the contract's, shared with the edge.
export type { Evidence, ExecutionRecord, OutputIntegrity, Verdict, VerdictActor } from "../../../proto/record.ts";
import type { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import type { ExecutionRecord } from "../../../proto/record.ts";

/** Per-run limits. Server-side defaults live in limits.ts; a caller may only narrow them. */
export interface Limits {
  wallTimeMs: number;
  /** CPU time of the whole run (all its processes and threads), from the cgroup's CPU accounting. */
  cpuTimeMs: number;
  memoryBytes: number;
  processes: number;
  fileSizeBytes: number;
  /** Size cap of the writable work dir (/box) and of /tmp, each. */
  workDirBytes: number;
  /** Capture cap per stream (stdout, stderr); the rest is drained and counted. */
  outputBytes: number;
  openFiles: number;
  stackBytes: number;
}

/** A file placed into the sandbox's work dir (/box) before the program starts. */
export interface InputFile {
  /** A relative path inside /box ("main.c", "lib/util.h"): segments of [A-Za-z0-9._-], no "." or "..". */
  name: string;
  content: Uint8Array | string;
  executable?: boolean;
}

/** A read-only bind of a host path into the sandbox root (toolchains, artifacts). */
export interface Bind {
  hostPath: string;
  sandboxPath: string;
  /** A small file (at most 256 KiB) copied into the root instead: no mount shows its host path. */
  copy?: boolean;
}

/** A file the host takes out of /box after the program ends (compile artifacts). */
export interface OutputFileRequest {
  name: string;
  maxBytes: number;
}

/** What to run: a command line inside an assembled root filesystem. */
export interface RunSpec {
  argv: string[];
  /** Extra environment on top of the fixed minimal one (PATH, HOME, LANG, ...). */
  env?: Record<string, string>;
  stdin?: Uint8Array | string;
  /**
   * A live stdin instead of `stdin`: what this stream carries reaches the program as it comes; its
   * end is the program's end of input. The program's unread input waits in the stream, with its
   * backpressure: its owner bounds it (docs/sandbox.md, "Live stdin").
   */
  liveStdin?: Readable;
  /** A live session's signals for the program: each "signal" event (SIGINT, SIGTERM, SIGKILL) is sent to it. */
  signals?: EventEmitter;
  files?: InputFile[];
  /** Extra read-only binds (language toolchains, cached artifacts). */
  binds?: Bind[];
  /** Files to copy out of /box after the run, through the no-follow file layer. */
  outputFiles?: OutputFileRequest[];
  limits: Limits;
  /**
   * Called with captured output as the program writes it, in order, within the capture cap: the
   * concatenation of a stream's chunks equals that stream's captured bytes.
   */
  onOutput?: (stream: "stdout" | "stderr", data: Uint8Array) => void;
  /** The program's stderr is written into its stdout (Judge0's redirect_stderr_to_stdout). */
  mergeStderr?: boolean;
}

/** One sandboxed run's outcome plus what only the host needs (artifacts, raw counters). */
export interface RunOutcome {
  result: ExecutionRecord;
  /** Copied-out files by name (only those that were regular files within maxBytes). */
  outputFiles: Map<string, Uint8Array>;
  /**
   * Why a requested output file was not copied out (`missing`, `not_regular`, `hardlinked`,
   * `too_large` with the file's `size`, `io_error`); absent when the run never got that far.
   */
  outputFileFailures?: Map<string, { reason: string; size?: number }>;
  /** The captured output as bytes (result.stdout/stderr are the same bytes decoded as UTF-8). */
  stdoutBytes: Uint8Array;
  stderrBytes: Uint8Array;
  /** Bytes the program wrote beyond the capture cap, per stream. */
  discardedBytes: { stdout: number; stderr: number };
}

/** The program's and the interactor's runs of one interactive test (Sandbox.runInteractive). */
export interface InteractiveOutcome {
  program: RunOutcome;
  interactor: RunOutcome;
  /** The program's end was reported before the interactor's (the order rule: docs/languages.md). */
  programEndedFirst: boolean;
}
