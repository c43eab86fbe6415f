// A finished run's output as the raw bytes the node kept (ExecuteRequest.raw_output_only): one pair
// of streams per test and the top level's, which with tests is the deciding test's (not repeated).
// The record's text or base64 is made from these bytes where it is read (output-text.ts). Pure.
import type { ExecutionResult } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";

export type StreamName = "stdout" | "stderr";
export const STREAMS: readonly StreamName[] = ["stdout", "stderr"];

export interface StreamPair {
  stdout: Uint8Array;
  stderr: Uint8Array;
}

/** Where a stream's bytes live in a record: the top level's own, or test `n`'s. */
export type Place = "top" | number;

export interface RecordOutput {
  /** The top level's bytes; absent when they are the test `topTest`'s. */
  top?: StreamPair;
  topTest?: number;
  tests: StreamPair[];
}

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** A stream's raw bytes, or its text's UTF-8 (a node that sent no raw bytes: a compile error's diagnostics). */
const raw = (text: string, bytes: Uint8Array | undefined): Uint8Array => bytes ?? encoder.encode(text);

export function pairOf(r: Pick<ExecutionResult, "stdout" | "stderr" | "stdoutBytes" | "stderrBytes">): StreamPair {
  return { stdout: raw(r.stdout, r.stdoutBytes), stderr: raw(r.stderr, r.stderrBytes) };
}

export function recordOutput(r: ExecutionResult): RecordOutput {
  const tests = r.tests.map((t) => (t.result ? pairOf(t.result) : { stdout: new Uint8Array(0), stderr: new Uint8Array(0) }));
  const topTest = r.outputOfTest;
  if (topTest !== undefined && topTest < tests.length) return { topTest, tests };
  return { top: pairOf(r), tests };
}

/** The result with its output emptied (its record's other fields made without decoding it). */
export function withoutOutput(r: ExecutionResult): ExecutionResult {
  const empty = { stdout: "", stderr: "", stdoutBytes: EMPTY, stderrBytes: EMPTY };
  return { ...r, ...empty, tests: r.tests.map((t) => (t.result ? { ...t, result: { ...t.result, ...empty } } : t)) };
}

/** Where a chunk streamed for test `test` lives in the record: that test's when the record lists tests, else the top level. */
export function placeOf(out: { tests: readonly unknown[] }, test: number): Place {
  return test < out.tests.length ? test : "top";
}

/** Bytes of output a record keeps: each byte once. */
export function keptBytes(out: RecordOutput): number {
  const pairs = out.top ? [out.top, ...out.tests] : out.tests;
  return pairs.reduce((n, p) => n + p.stdout.length + p.stderr.length, 0);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A test's record with its output put back where testFromWire puts it (the same JSON, key for key). */
export function withOutput<T extends { name: string; verdict: string }, S>(bare: T, stdout: S, stderr: S): T & { stdout: S; stderr: S } {
  const { name, verdict, ...rest } = bare;
  return { name, verdict, stdout, stderr, ...rest } as T & { stdout: S; stderr: S };
}
