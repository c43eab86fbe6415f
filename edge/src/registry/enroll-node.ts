// A node joins (POST /fleet/enroll): the enrollment token is checked, then whether the node at that
// address may come in with it (node-admission.ts), then the node itself (NodeInfo with its fleet
// credential, which proves the address and the credential). Enrolling the same URL again (a
// restarted node) updates the entry. Also: what a heartbeat records, and taking a revoked node's runs back.
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { fleetMethods, unary } from "../../../proto/grpc-web/client.ts";
import type { EnrollResponse, HeartbeatRequest } from "../../../proto/gen/codecell/fleet/v1/enrollment.ts";
import type { Refused } from "../contracts/fleet.ts";
import type { Env } from "../env.ts";
import { randomBase62, sha256Hex } from "../lib/keys.ts";
import { scheduler, submissionObject } from "../stubs.ts";
import { parseEnroll } from "./enroll-messages.ts";
import type { EnrollmentTokens } from "./enrollment-tokens.ts";
import { admission } from "./node-admission.ts";
import type { NodeRow } from "./node-row.ts";
import type { NodeStore } from "./node-store.ts";

const refused = (status: number, error: string): Refused => ({ ok: false, status, error });
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function usedUp(maxUses: number): string {
  return maxUses === 1
    ? "this enrollment token was for one node only and has been used"
    : `this enrollment token was for ${maxUses} nodes and all have enrolled with it`;
}

export async function enrollNode(
  nodes: NodeStore, tokens: EnrollmentTokens, enrollmentToken: string, body: Uint8Array,
): Promise<{ ok: true; id: string; response: Omit<EnrollResponse, "heartbeatIntervalMs"> } | Refused> {
  const grant = await tokens.check(enrollmentToken);
  if (!grant) return refused(401, "invalid or expired enrollment token");
  const req = parseEnroll(body);
  if (typeof req === "string") return refused(400, req);
  const a = admission(nodes.byUrl(req.url), grant);
  if ("ok" in a) return a;
  // A node back at an address that used this token (restarted, or after it left) is not a new use.
  const returning = a.again || tokens.usedAt(grant.id, req.url);
  if (!returning && !tokens.claim(grant, req.url)) return refused(401, usedUp(grant.maxUses));
  let info: NodeInfoResponse;
  try {
    info = await unary({ url: req.url, token: req.token }, fleetMethods.nodeInfo, {}, 5_000);
  } catch (e) {
    if (!returning) tokens.unclaim(grant.id, req.url);
    return refused(502, `the edge cannot reach the node at ${req.url}: ${message(e)}`);
  }
  const secret = `cch_${randomBase62(40)}`;
  const hbHash = await sha256Hex(secret);
  const id = nodes.upsert({ url: req.url, token: req.token, name: req.name || info.nodeId, pool: req.pool, info, kind: "enrolled", hbHash });
  nodes.admit(id, { tokenId: grant.id, maxSlots: grant.maxSlots, pending: a.pending });
  const row = nodes.byId(id)!;
  console.log("fleet node enrolled", id, row.name, row.pool, req.url, a.pending ? "(awaiting approval)" : "");
  return { ok: true, id, response: { nodeId: id, heartbeatSecret: secret, name: row.name, pool: row.pool } };
}

/** A heartbeat's news in the node's row (`wasFresh`: its heartbeats had not stopped). */
export function recordHeartbeat(nodes: NodeStore, row: NodeRow, req: HeartbeatRequest, wasFresh: boolean): void {
  const now = Date.now();
  nodes.heartbeat(row, now, req.info);
  if (req.draining && row.drain_state === null) {
    nodes.startDrain(row.id, now);
    console.log("fleet node is draining (stopping)", row.id, row.name);
  }
  if (!wasFresh) console.log("fleet node heartbeats resumed", row.id, row.name);
}

/**
 * A revoked node: its address no longer counts as a use of its token (coming back takes a new
 * one), and its runs are lost at once (whatever it still sends is not read) and go to other nodes.
 */
export async function settleRevoked(env: Env, row: NodeRow, tokens: EnrollmentTokens): Promise<void> {
  if (row.enroll_token) tokens.forgetAddress(row.enroll_token, row.url);
  const why = `fleet node ${row.id} was revoked by an operator during the run`;
  const runs = await scheduler(env, row.pool).runsOn(row.id).catch(() => []);
  await Promise.all(runs.map((s) => submissionObject(env, s).nodeLost(s, row.id, why)
    .catch((e: unknown) => console.warn("a revoked node's run was not taken back; its watchdog will", s, message(e)))));
}
