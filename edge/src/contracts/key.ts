// KeyDO's RPC surface: one object per API key (named by the key's SHA-256) holding its rate
// window, its concurrency units (submissions in flight), idempotency keys and usage counters.
import type { ResultRecord } from "../../../proto/record.ts";
import type { CreateInput, HopTimes } from "./submission.ts";
import type { SocketLease } from "../lib/socket-leases.ts";
import type { KeyMeta } from "../keys/records.ts";

export type { KeyMeta };

/** The part of a key's plan its KeyDO enforces; absent: the config's numbers (the default plan). */
export interface KeyQuota {
  rate_per_minute: number;
  max_in_flight: number;
}

export interface RateInfo {
  limit: number;
  remaining: number;
  reset_secs: number;
}

export type HitResult =
  | { ok: true; rate: RateInfo }
  | { ok: false; retry_after: number; reason: string; rate: RateInfo; revoked?: boolean };

export type SubmitOutcome =
  | { kind: "created"; id: string; queue_depth: number; rate: RateInfo; record?: ResultRecord | null; hops?: HopTimes }
  | { kind: "duplicate"; id: string; rate: RateInfo }
  | { kind: "rate_limited"; retry_after: number; reason: string; rate: RateInfo }
  | { kind: "queue_full"; queue_depth: number; rate: RateInfo }
  | { kind: "unsupported"; available: string[]; rate: RateInfo }
  | { kind: "storage_full"; used_bytes: number; quota_bytes: number; rate: RateInfo }
  | { kind: "revoked"; rate: RateInfo };

export interface SubmitRequest extends Omit<CreateInput, "id"> {
  idempotency_key: string | null;
  quota?: KeyQuota;
}

export interface KeyUsage {
  counters: Record<string, number>;
  /** Concurrency units taken: submissions of this key not yet terminal. */
  in_flight: number;
  /** Of those, live sessions (docs/live-sessions.md). */
  live_sessions: number;
  requests_last_minute: number;
  revoked: boolean;
}

/** An authenticated API caller: its key's metadata. */
export interface Caller extends KeyMeta {}

export interface KeyRpc {
  hit(quota?: KeyQuota): HitResult;
  submit(req: SubmitRequest): Promise<SubmitOutcome>;
  /** The submission reached a terminal state: its concurrency unit is free again. */
  release(id: string, status: string): void;
  usage(): KeyUsage;
  /** Refuses the key from now on; `cancelInFlight`: its submissions still in flight end too (deletion, not rotation). */
  revoke(cancelInFlight?: boolean): Promise<number>;
  reinstate(): void;
  /** Opens a live-session socket (false: the key holds its plan's max_sessions), or closes it (lease null). */
  liveSocket(token: string, lease: SocketLease | null): boolean;
  /** The dashboard watches until `untilMs`: report usage changes to it meanwhile. */
  watch(untilMs: number, keyHash: string): void;
}
