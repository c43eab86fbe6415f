// A node as the registry stores it (one row of its `nodes` table).
export interface NodeRow {
  id: string;
  url: string;
  token: string;
  name: string;
  /** The last NodeInfo, protobuf-encoded. */
  info: ArrayBuffer | null;
  last_checked: number;
  last_ok: number;
  failures: number;
  last_error: string | null;
  registered_at: number;
  kind: string;
  hb_hash: string | null;
  last_heartbeat: number;
  drain_state: string | null;
  drain_at: number;
  lost_at: number;
  pool: string;
  /** JSON of the SchedulableNode last pushed to the pool's scheduler (a change is pushed once). */
  pushed: string | null;
  /** Admission (node-admission.ts): the enrollment token it came in with, its slot cap (0: none), 'pending' approval, revocation time. */
  enroll_token: string | null;
  max_slots: number;
  approval: string | null;
  revoked_at: number;
  /** A SQLite row: every value is one SQLite can hold. */
  [key: string]: string | number | ArrayBuffer | null;
}
