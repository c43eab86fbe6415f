// The API keys' and projects' records in KV (the KEYS namespace): their layout, and every read and
// write of it. The plain key is never stored.
//   project:<id>                → Project
//   key:<sha256 of the key>     → KeyMeta (how a request's key is found)
//   keyid:<key_id>              → KeyMeta (how an operator names it)
//   pkey:<project_id>:<key_id>  → "" (a project's keys, for listing)
/** What is stored per key (`key:`, `keyid:`). */
export interface KeyMeta {
  key_id: string;
  hash: string;
  project_id: string;
  account_id: string;
  name: string;
  tier: string;
  created_at: string;
  /** The key's plan (plans/plans.ts); absent: "default". */
  plan?: string;
}

export interface Project {
  id: string;
  name: string;
  account_id: string;
  created_at: string;
}

/** The part of a KV namespace used here. */
export interface RecordsKv {
  get<T>(key: string, type: "json"): Promise<T | null>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  list(options: { prefix: string; cursor?: string }): Promise<{ keys: { name: string }[]; list_complete: boolean; cursor?: string }>;
}

/** Names under `prefix`, page by page, until `max` are read. */
async function names(kv: RecordsKv, prefix: string, max = Infinity): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix, cursor });
    out.push(...page.keys.map((k) => k.name));
    cursor = page.list_complete || out.length >= max ? undefined : page.cursor;
  } while (cursor);
  return out.slice(0, max);
}

export function getProject(kv: RecordsKv, id: string): Promise<Project | null> {
  return kv.get<Project>(`project:${id}`, "json");
}

export async function putProject(kv: RecordsKv, project: Project): Promise<void> {
  await kv.put(`project:${project.id}`, JSON.stringify(project));
}

export async function listProjects(kv: RecordsKv): Promise<Project[]> {
  const projects = await Promise.all((await names(kv, "project:")).map((n) => kv.get<Project>(n, "json")));
  return projects.filter((p) => p !== null);
}

/** The key whose SHA-256 is `hash` (api-key.ts keyHash). */
export function keyByHash(kv: RecordsKv, hash: string): Promise<KeyMeta | null> {
  return kv.get<KeyMeta>(`key:${hash}`, "json");
}

export function keyById(kv: RecordsKv, keyId: string): Promise<KeyMeta | null> {
  return kv.get<KeyMeta>(`keyid:${keyId}`, "json");
}

/** A new key, found by its hash and its id, listed with its project. */
export async function putKey(kv: RecordsKv, meta: KeyMeta): Promise<void> {
  await Promise.all([
    kv.put(`key:${meta.hash}`, JSON.stringify(meta)),
    kv.put(`keyid:${meta.key_id}`, JSON.stringify(meta)),
    kv.put(`pkey:${meta.project_id}:${meta.key_id}`, ""),
  ]);
}

/** The same key with a new secret (`meta.hash`): the old hash finds nothing from now on. */
export async function rehashKey(kv: RecordsKv, oldHash: string, meta: KeyMeta): Promise<void> {
  await Promise.all([
    kv.put(`key:${meta.hash}`, JSON.stringify(meta)),
    kv.put(`keyid:${meta.key_id}`, JSON.stringify(meta)),
    kv.delete(`key:${oldHash}`),
  ]);
}

export async function deleteKey(kv: RecordsKv, meta: KeyMeta): Promise<void> {
  await Promise.all([
    kv.delete(`key:${meta.hash}`), kv.delete(`keyid:${meta.key_id}`), kv.delete(`pkey:${meta.project_id}:${meta.key_id}`),
  ]);
}

/** Every key, or a project's (`projectId`); at most `max`. */
export async function listKeys(kv: RecordsKv, options: { projectId?: string | null; max?: number } = {}): Promise<KeyMeta[]> {
  const prefix = options.projectId ? `pkey:${options.projectId}:` : "keyid:";
  const ids = (await names(kv, prefix, options.max)).map((n) => n.slice(prefix.length));
  const metas = await Promise.all(ids.map((id) => keyById(kv, id)));
  return metas.filter((m): m is KeyMeta => m !== null);
}
