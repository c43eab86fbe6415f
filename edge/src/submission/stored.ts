// What a submission stores beside its record and blobs (store.ts reads and writes them). Plain
// shapes without the Workers types, so that the pure decisions over them (run-steps.ts,
// terminal-steps.ts) load in Node too.
import type { CreateInput, RecordFormat } from "../contracts/submission.ts";
import { testsRunMs } from "./run-deadline.ts";

export interface Meta {
  id: string;
  account_id: string;
  project_id: string;
  key_hash: string;
  language: string;
  created_ms: number;
  pool: string;
  /** Present when the request used a field of record schema 1.1. */
  format?: RecordFormat;
  /** A run with tests: the least time from its start it is allowed (run-deadline.ts). */
  tests_run_ms?: number;
  /** Its output budget (absent: the request named none, the node's default). */
  output_budget_bytes?: number;
}

export interface Run {
  node_id: string;
  node_url: string;
  dispatched_ms: number;
  failures: number;
  last_error: string | null;
}

/** What is still to be handed back once terminal: the run slot (scheduler) and the key's concurrency unit (KeyDO). */
export interface Pending {
  run_slot?: boolean;
  concurrency_unit?: boolean;
}

/** The webhook hand-off still to do: its targets are the endpoints active at `ended_ms` (webhooks/hand-off.ts). */
export interface HooksPending {
  ended_ms: number;
}

/** What a new submission is, accepted at `createdMs` into `pool`. */
export function newMeta(input: CreateInput, createdMs: number, pool: string): Meta {
  const { id, account_id, project_id, key_hash, language, format, output_budget_bytes } = input;
  const testsRun = testsRunMs(input.options);
  return {
    id, account_id, project_id, key_hash, language, created_ms: createdMs, pool, ...(format ? { format } : {}), ...(testsRun ? { tests_run_ms: testsRun } : {}),
    ...(output_budget_bytes ? { output_budget_bytes } : {}),
  };
}
