// What the record schema 1.1 suites (api-v11-*.test.ts) share: their stack (two run slots, a long
// sync hold), a key on a plan, a key's usage, the 1.0 record's keys, and a 400's shape.
import assert from "node:assert/strict";
import { Client, useStack, type Res, type Stack } from "./harness.ts";

export { UUID } from "./api-checks.ts";

/** The 1.0 record's keys, in the order the edge has always written them. */
export const RECORD_1_0 = [
  "id", "language", "job_status", "schema_version", "verdict", "exit_code", "signal", "stdout", "stderr", "output_integrity",
  "error_message", "cpu_time_secs", "wall_time_secs", "memory_peak_bytes", "evidence", "created_at", "started_at", "completed_at",
];
export const EVIDENCE_1_0 = [
  "verdict_cause", "verdict_actor", "isolation_mode", "controls_applied", "controls_missing", "cgroup", "timing", "process_lifecycle",
  "judge_actions", "collection_errors",
];
export const ECHO_BYTES = "import sys\nsys.stdout.buffer.write(sys.stdin.buffer.read())\n";

export function assert400(r: Res, error: string | RegExp, message?: RegExp): void {
  assert.equal(r.status, 400, `expected 400, got ${r.status}: ${r.text.slice(0, 400)}`);
  assert.match(String(r.headers["content-type"]), /^application\/json/);
  if (typeof error === "string") assert.equal(r.json.error, error, r.text);
  else assert.match(r.json.error, error, r.text);
  if (message) assert.match(String(r.json.message), message, r.text);
}

export const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");

export interface V11Stack {
  stack: Stack;
  /** A new project and a key in it, on `plan` (absent: the default plan). */
  keyOn(plan?: string): Promise<{ c: Client; key_id: string; project_id: string }>;
  usage(keyId: string): Promise<{ submissions: number; requests_last_minute: number; in_flight: number }>;
}

export function useV11Stack(): V11Stack {
  const stack = useStack({ fleet: { env: { FLEET_SLOTS: "2" } }, edge: { vars: { SYNC_HOLD_MS: "20000" } } });
  return {
    stack,
    async keyOn(plan) {
      const p = await stack.ops.call("POST", "/admin/projects", { name: "v11" });
      assert.equal(p.status, 201, p.text);
      const k = await stack.ops.call("POST", `/admin/projects/${p.json.id}/keys`, plan ? { name: "k", plan } : { name: "k" });
      assert.equal(k.status, 201, k.text);
      return { c: new Client(stack.edge.base, k.json.key), key_id: k.json.key_id, project_id: p.json.id };
    },
    async usage(keyId) {
      const u = await stack.ops.call("GET", `/admin/keys/${keyId}/usage`);
      assert.equal(u.status, 200, u.text);
      return { submissions: u.json.totals.submissions, requests_last_minute: u.json.requests_last_minute, in_flight: u.json.in_flight };
    },
  };
}
