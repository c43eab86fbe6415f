// What the public API suites (api-*.test.ts) share: their stack, a client whose every answer to a
// documented route is validated against docs/openapi.json, the record's keys, a JSON error's shape.
import assert from "node:assert/strict";
import { Client, useStack, type Res, type Stack } from "./harness.ts";
import { DOCUMENT, assertDocumented, templateOf } from "./openapi-check.ts";

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const RECORD_KEYS = [
  "completed_at", "cpu_time_secs", "created_at", "error_message", "evidence", "exit_code", "id", "job_status", "language",
  "memory_peak_bytes", "output_integrity", "schema_version", "signal", "started_at", "stderr", "stdout", "verdict", "wall_time_secs",
].sort();

/** The documented routes (`METHOD /template`) whose answers a CheckedClient validated in this process. */
export const validated = new Set<string>();

/** Every answer to a documented route is validated against docs/openapi.json (response validation). */
export class CheckedClient extends Client {
  override async call(method: string, path: string, opts: Parameters<Client["call"]>[2] = {}): Promise<Res> {
    const r = await super.call(method, path, opts);
    let template: string | null = null;
    try {
      template = templateOf(path);
    } catch {}
    if (template && DOCUMENT.paths[template][method.toLowerCase()]) {
      assertDocumented(method, path, r);
      validated.add(`${method} ${template}`);
    }
    return r;
  }
}

export function assertJsonError(r: Res, status: number, error?: RegExp | string): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text.slice(0, 300)}`);
  assert.match(String(r.headers["content-type"]), /^application\/json/);
  assert.equal(typeof r.json?.error, "string", r.text);
  if (typeof error === "string") assert.equal(r.json.error, error);
  else if (error) assert.match(r.json.error, error);
}

/** A test file's stack (harness.ts useStack) and a checked client with a new key on it. */
export function useApiStack(): { stack: Stack; client: () => Promise<Client> } {
  const stack = useStack();
  return { stack, client: async () => new CheckedClient(stack.edge.base, (await stack.ops.newKey()).key) };
}
