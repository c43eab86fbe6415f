// What the registry concludes about a node from its row and NodeInfo: ready or not and why, its
// state word, its view for operators and what its scheduler needs. Pure, unit tested.
import { nodeRunKeys } from "../scheduling/run-key.ts";
import type { NodeInfoResponse } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { NodeView } from "../contracts/fleet.ts";
import type { SchedulableNode } from "../contracts/scheduler.ts";
import { isPending, isRevoked, runSlots } from "./node-admission.ts";
import type { NodeRow } from "./node-row.ts";

export interface HeartbeatRule {
  heartbeatMs: number;
  heartbeatMisses: number;
}

/** Registered nodes have no heartbeat; an enrolled one is fresh while it missed fewer than the allowed beats. */
export function heartbeatFresh(r: NodeRow, now: number, rule: HeartbeatRule): boolean {
  return r.kind !== "enrolled" || now - r.last_heartbeat <= rule.heartbeatMs * rule.heartbeatMisses;
}

export function isReady(r: NodeRow, info: NodeInfoResponse | null, now: number, rule: HeartbeatRule): boolean {
  return r.failures === 0 && !!info && info.ready && !info.draining && info.enforcementMode === "strict" &&
    r.drain_state === null && heartbeatFresh(r, now, rule) && !isPending(r) && !isRevoked(r);
}

/** Why a node gets no work, for /api/health/ready; null when it is ready. */
export function notReadyReason(r: NodeRow, info: NodeInfoResponse | null, now: number, rule: HeartbeatRule): string | null {
  if (isReady(r, info, now, rule)) return null;
  if (isRevoked(r)) return `node ${r.name}: revoked (its credential was revoked by an operator)`;
  if (isPending(r)) return `node ${r.name}: awaiting an operator's approval (codecell nodes approve ${r.id})`;
  if (r.failures > 0) return `node ${r.name}: unreachable (${r.last_error ?? "no answer"})`;
  if (!heartbeatFresh(r, now, rule)) return `node ${r.name}: unhealthy (no heartbeat for ${Math.round((now - r.last_heartbeat) / 1000)} s)`;
  if (r.drain_state !== null) return `node ${r.name}: draining (taken out of rotation by an operator)`;
  if (!info) return `node ${r.name}: no NodeInfo yet`;
  if (info.draining) return `node ${r.name}: draining`;
  if (!info.ready) return `node ${r.name}: not ready (${info.notReadyReasons.join("; ") || "no reason given"})`;
  return `node ${r.name}: enforcement mode ${info.enforcementMode}, not strict`;
}

/** revoked | pending | healthy | unhealthy | draining | drained | not_ready */
export function nodeState(r: NodeRow, info: NodeInfoResponse | null, inFlight: number, now: number, rule: HeartbeatRule): string {
  if (isRevoked(r)) return "revoked";
  if (isPending(r)) return "pending";
  if (r.drain_state !== null || info?.draining) return inFlight > 0 || (info?.queueDepth ?? 0) > 0 ? "draining" : "drained";
  if (!heartbeatFresh(r, now, rule) || r.failures > 0) return "unhealthy";
  return isReady(r, info, now, rule) ? "healthy" : "not_ready";
}

export function schedulable(r: NodeRow, info: NodeInfoResponse | null, now: number, rule: HeartbeatRule & { nodePrefetch: number }): SchedulableNode {
  const slots = runSlots(r, info);
  return {
    id: r.id, pool: r.pool, url: r.url, token: r.token, run_slots: slots,
    waiting_room: Math.min(info?.queueCapacity ?? 0, slots * rule.nodePrefetch),
    languages: nodeRunKeys(info?.languages ?? []), ready: isReady(r, info, now, rule),
  };
}

const iso = (ms: number) => (ms ? new Date(ms).toISOString() : null);

export function nodeView(r: NodeRow, info: NodeInfoResponse | null, inFlight: number, now: number, rule: HeartbeatRule): NodeView {
  const slots = runSlots(r, info);
  return {
    id: r.id, name: r.name, url: r.url, pool: r.pool, node_id: info?.nodeId ?? null, version: info?.version ?? null,
    reachable: r.failures === 0 && r.last_ok > 0, ready: isReady(r, info, now, rule), draining: info?.draining ?? false,
    enforcement_mode: info?.enforcementMode ?? "none", slots, in_flight: Math.min(inFlight, slots),
    free_slots: Math.max(0, slots - inFlight), waiting: Math.max(0, inFlight - slots),
    languages: info?.languages.map((l) => ({ name: l.name, version: l.version })) ?? [],
    not_ready_reasons: info ? [...info.notReadyReasons] : [], last_ok_at: iso(r.last_ok), last_error: r.last_error,
    registered_at: new Date(r.registered_at).toISOString(), kind: r.kind, state: nodeState(r, info, inFlight, now, rule),
    last_heartbeat_at: iso(r.last_heartbeat), reported_slots: info?.slots ?? 0, max_slots: r.max_slots > 0 ? r.max_slots : null,
    approval: isPending(r) ? "pending" : null, revoked_at: iso(r.revoked_at),
  };
}

/**
 * How often the registry looks at its nodes (null: no node, no alarm): registered ones are polled
 * for health, enrolled ones must keep beating.
 */
export function watchIntervalMs(kinds: ReadonlySet<string>, cfg: HeartbeatRule & { healthTtlMs: number; watchdogMs: number }): number | null {
  let delay: number | null = null;
  if (kinds.has("registered")) delay = Math.max(500, Math.min(cfg.healthTtlMs || 5_000, cfg.watchdogMs));
  if (kinds.has("enrolled")) delay = Math.min(delay ?? Infinity, Math.max(100, cfg.heartbeatMs));
  return delay;
}

/** The first moment after `now` at which an enrolled node that is fresh now stops being fresh (null: none). */
export function nextHeartbeatDeadline(rows: NodeRow[], now: number, rule: HeartbeatRule): number | null {
  let next: number | null = null;
  for (const r of rows) {
    if (r.kind !== "enrolled") continue;
    const deadline = r.last_heartbeat + rule.heartbeatMs * rule.heartbeatMisses + 1;
    if (deadline > now && (next === null || deadline < next)) next = deadline;
  }
  return next;
}
