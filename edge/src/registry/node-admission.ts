// Which nodes the registry lets into rotation, beyond their health: what the enrollment token a
// node came in with allows (a cap on its run slots, an operator's approval first), and an
// operator's revocation of its credential. Pure, unit tested (stored by node-store.ts).
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { Refused } from "../contracts/fleet.ts";
import type { NodeRow } from "./node-row.ts";

export const REVOKED = "this node's credential was revoked by an operator: enroll it again with a new enrollment token";

/** Run slots an enrollment token allows when the operator named none (docs/operators.md). */
export const DEFAULT_MAX_SLOTS = 16;

export const isPending = (r: NodeRow) => r.approval === "pending";
export const isRevoked = (r: NodeRow) => r.revoked_at > 0;

/** Run slots the edge fills on a node: what it reports, at most what its token allows. */
export function runSlots(r: NodeRow, info: NodeInfoResponse | null): number {
  const reported = info?.slots ?? 0;
  return r.max_slots > 0 ? Math.min(reported, r.max_slots) : reported;
}

/** The terms a presented enrollment token grants, once it checked out (enrollment-tokens.ts). */
export interface TokenGrant {
  id: string;
  maxSlots: number;
  requireApproval: boolean;
  /** Node addresses it may enroll (0: no limit, a token made before tokens had one). */
  maxUses: number;
}

export interface Admission {
  /** The same node enrolling again with the token it came in with (a restart): no new use of the token. */
  again: boolean;
  pending: boolean;
}

/**
 * Whether the node at an address (its row, if any) may enroll with a token. A node whose credential
 * was revoked cannot come back with the token it had; any other token starts it afresh.
 */
export function admission(existing: NodeRow | undefined, grant: TokenGrant): Admission | Refused {
  const same = !!existing && existing.kind === "enrolled" && existing.enroll_token === grant.id;
  if (same && isRevoked(existing)) {
    return { ok: false, status: 403, error: REVOKED };
  }
  const again = same && !isRevoked(existing);
  return { again, pending: grant.requireApproval && !(again && existing.approval === null) };
}
