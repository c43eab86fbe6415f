// Pure parts of the operator doors and of node admission: the secret comparison, the token
// strength floor, client addresses, and what a node's token and revocation make of its state.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NodeInfoResponse } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { clientKey } from "../../edge/src/doors/client.ts";
import { operatorTokenProblem } from "../../edge/src/doors/token-strength.ts";
import { secretsEqual } from "../../edge/src/lib/keys.ts";
import { admission, runSlots } from "../../edge/src/registry/node-admission.ts";
import type { NodeRow } from "../../edge/src/registry/node-row.ts";
import { isReady, nodeState, notReadyReason } from "../../edge/src/registry/node-state.ts";

const rule = { heartbeatMs: 1000, heartbeatMisses: 3 };
const NOW = 1_000_000;

function row(over: Partial<NodeRow> = {}): NodeRow {
  return {
    id: "node_a", url: "http://127.0.0.1:1", token: "t", name: "a", info: null, last_checked: NOW, last_ok: NOW, failures: 0,
    last_error: null, registered_at: NOW, kind: "enrolled", hb_hash: "h", last_heartbeat: NOW, drain_state: null, drain_at: 0,
    lost_at: 0, pool: "default", pushed: null, enroll_token: "enr_1", max_slots: 0, approval: null, revoked_at: 0, ...over,
  };
}
const info = NodeInfoResponse.fromPartial({ nodeId: "a", slots: 8, ready: true, enforcementMode: "strict" });
const grant = { id: "enr_1", maxSlots: 2, requireApproval: true, maxUses: 1 };

describe("operator doors", () => {
  it("secretsEqual: equal secrets only, whatever their lengths", async () => {
    assert.equal(await secretsEqual("s3cret-token", "s3cret-token"), true);
    assert.equal(await secretsEqual("s3cret-token", "s3cret-tokeN"), false);
    assert.equal(await secretsEqual("s3cret", "s3cret-token"), false);
    assert.equal(await secretsEqual("", "s3cret-token"), false);
    assert.equal(await secretsEqual("ünïcode-✓", "ünïcode-✓"), true);
  });

  it("the token floor: 32 characters, 10 different ones", () => {
    assert.match(operatorTokenProblem("x".repeat(31)) ?? "", /31 characters long; at least 32/);
    assert.match(operatorTokenProblem("abc".repeat(12)) ?? "", /only 3 different characters/);
    assert.equal(operatorTokenProblem("Q7p2Lx9vR4mZ8kT1wY6nB3cH5jD0fG2s"), null);
  });

  it("clients: an IPv4 address as it is, IPv6 by its /64, nothing usable as one 'unknown'", () => {
    const req = (ip?: string) => new Request("https://edge.test/admin", { headers: ip ? { "cf-connecting-ip": ip } : {} });
    assert.equal(clientKey(req("203.0.113.7")), "203.0.113.7");
    assert.equal(clientKey(req("::ffff:203.0.113.7")), "203.0.113.7");
    assert.equal(clientKey(req("2001:db8:1:2:3:4:5:6")), clientKey(req("2001:db8:1:2:ffff::1")));
    assert.equal(clientKey(req("2001:db8:1:2:3:4:5:6")), "2001:db8:1:2::/64");
    assert.equal(clientKey(req()), "unknown");
    assert.equal(clientKey(req("not an address")), "unknown");
  });
});

describe("node admission", () => {
  it("run slots are capped by the token's max_slots (0: registered, no cap)", () => {
    assert.equal(runSlots(row({ max_slots: 2 }), info), 2);
    assert.equal(runSlots(row({ max_slots: 16 }), info), 8);
    assert.equal(runSlots(row({ max_slots: 0 }), info), 8);
  });

  it("pending and revoked nodes are not ready, and say why", () => {
    const pending = row({ approval: "pending" });
    assert.equal(isReady(pending, info, NOW, rule), false);
    assert.equal(nodeState(pending, info, 0, NOW, rule), "pending");
    assert.match(notReadyReason(pending, info, NOW, rule) ?? "", /awaiting an operator's approval \(codecell nodes approve node_a\)/);
    const revoked = row({ revoked_at: NOW });
    assert.equal(isReady(revoked, info, NOW, rule), false);
    assert.equal(nodeState(revoked, info, 0, NOW, rule), "revoked");
    assert.equal(isReady(row(), info, NOW, rule), true);
  });

  it("enrolling again: the same token re-admits its node (approval kept), a revoked node needs another token", () => {
    assert.deepEqual(admission(undefined, grant), { again: false, pending: true });
    assert.deepEqual(admission(row(), grant), { again: true, pending: false });
    assert.deepEqual(admission(row({ approval: "pending" }), grant), { again: true, pending: true });
    assert.equal((admission(row({ revoked_at: NOW }), grant) as { status: number }).status, 403);
    assert.deepEqual(admission(row({ revoked_at: NOW }), { ...grant, id: "enr_2" }), { again: false, pending: true });
  });
});
