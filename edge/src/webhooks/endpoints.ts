// Project webhook endpoints in KV: whk:<project_id>:<endpoint_id> → StoredEndpoint.
// Secrets live only here; every view that leaves the edge goes through publicEndpoint().
import { IsolateCache } from "../lib/isolate-cache.ts";

export interface EndpointSecret {
  secret: string;
  created_at: string;
  /** null: current secret. Set on rotation: the old secret keeps signing until then. */
  expires_at: string | null;
}

export interface StoredEndpoint {
  id: string;
  project_id: string;
  url: string;
  active: boolean;
  description?: string;
  created_at: string;
  updated_at?: string;
  /** When it last became active (created active, or reactivated); absent: its creation. Never shown. */
  active_since?: string;
  secrets: EndpointSecret[];
}

export function endpointKey(projectId: string, endpointId: string): string {
  return `whk:${projectId}:${endpointId}`;
}

/** Secrets that sign deliveries now: the current one and any still inside its rotation grace period. */
export function activeSecrets(e: StoredEndpoint, now = Date.now()): string[] {
  return e.secrets.filter((s) => s.expires_at === null || Date.parse(s.expires_at) > now).map((s) => s.secret);
}

/**
 * Whether a submission that ended at `endedMs` is delivered to it: active now, and since no later
 * than that (an endpoint added or reactivated after a submission ended never receives it).
 */
export function activeAt(e: StoredEndpoint, endedMs: number): boolean {
  return e.active && Date.parse(e.active_since ?? e.created_at) <= endedMs;
}

export function publicEndpoint(e: StoredEndpoint, now = Date.now()) {
  return {
    id: e.id, project_id: e.project_id, url: e.url, active: e.active, description: e.description ?? "",
    created_at: e.created_at, updated_at: e.updated_at ?? e.created_at,
    secrets: e.secrets
      .filter((s) => s.expires_at === null || Date.parse(s.expires_at) > now)
      .map((s) => ({ created_at: s.created_at, expires_at: s.expires_at })),
  };
}

export async function getEndpoint(kv: KVNamespace, projectId: string, endpointId: string): Promise<StoredEndpoint | null> {
  return kv.get<StoredEndpoint>(endpointKey(projectId, endpointId), "json");
}

export async function putEndpoint(kv: KVNamespace, e: StoredEndpoint): Promise<void> {
  await kv.put(endpointKey(e.project_id, e.id), JSON.stringify(e));
  handOffView.forget(e.project_id);
}

export async function deleteEndpoint(kv: KVNamespace, e: StoredEndpoint): Promise<void> {
  await kv.delete(endpointKey(e.project_id, e.id));
  handOffView.forget(e.project_id);
}

/**
 * The project's endpoints as the webhook hand-off sees them: listed at most once per
 * HAND_OFF_VIEW_MS per isolate instead of at the end of every submission (a KV list per run was
 * a fifth of the edge's CPU per run locally; in production a list operation is billed and slow).
 * An endpoint written through this isolate counts at once, one written through another isolate
 * within HAND_OFF_VIEW_MS (and KV's own propagation, up to 60 s in production). Each delivery
 * reads its endpoint afresh, so a deactivated or removed one is never sent to.
 */
export function handOffEndpoints(kv: KVNamespace, projectId: string): Promise<StoredEndpoint[]> {
  return handOffView.through(projectId, () => projectEndpoints(kv, projectId));
}

export const HAND_OFF_VIEW_MS = 5_000;
const handOffView = new IsolateCache<StoredEndpoint[]>(HAND_OFF_VIEW_MS, 10_000);

export async function projectEndpoints(kv: KVNamespace, projectId: string): Promise<StoredEndpoint[]> {
  const out: StoredEndpoint[] = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown, string> = await kv.list({ prefix: `whk:${projectId}:`, cursor });
    const eps = await Promise.all(page.keys.map((k) => kv.get<StoredEndpoint>(k.name, "json")));
    for (const e of eps) if (e) out.push(e);
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return out.sort((a, b) => a.created_at.localeCompare(b.created_at));
}
