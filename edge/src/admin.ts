// Operator API under /admin (bearer OPERATOR_TOKEN). Clean JSON in and out, for a CLI to build on.
// KV layout: project:<id> → Project; key:<sha256> → KeyMeta; keyid:<key_id> → KeyMeta;
// pkey:<project_id>:<key_id> → "" (index for listing a project's keys). Plain keys are never stored.
import { IttyRouter } from "itty-router";
import type { IRequest } from "itty-router";
import { forgetKey } from "./auth.ts";
import type { KeyMeta } from "./auth.ts";
import { config } from "./env.ts";
import type { Env } from "./env.ts";
import { HttpError, json, readJsonObject } from "./lib/http.ts";
import { KEY_PATTERN, generateApiKey, keyFingerprint, randomBase62, randomId, sha256Hex } from "./lib/keys.ts";
import { createKeySchema, createProjectSchema, createWebhookSchema, parseWith, registerNodeSchema } from "./lib/validate.ts";
import { checkWebhookUrl, generateSecret, secretKey } from "./lib/webhook.ts";
import type { WebhookEndpoint } from "./lib/webhook-store.ts";

interface Project {
  id: string;
  name: string;
  account_id: string;
  created_at: string;
}

type Args = [Env, ExecutionContext];
const BODY_LIMIT = 64 * 1024;

function fleet(env: Env) {
  return env.FLEET_DO.get(env.FLEET_DO.idFromName("global"));
}

function publicKey(m: KeyMeta) {
  return {
    key_id: m.key_id, name: m.name, project_id: m.project_id, account_id: m.account_id, tier: m.tier,
    fingerprint: keyFingerprint(m.hash), created_at: m.created_at,
  };
}

async function getProject(env: Env, id: string): Promise<Project> {
  const p = await env.KEYS.get<Project>(`project:${id}`, "json");
  if (!p) throw new HttpError(404, { error: "project not found" });
  return p;
}

async function listAll(env: Env, prefix: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown, string> = await env.KEYS.list({ prefix, cursor });
    names.push(...page.keys.map((k) => k.name));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return names;
}

async function createProject(request: IRequest, env: Env): Promise<Response> {
  const body = parseWith(createProjectSchema, await readJsonObject(request as unknown as Request, BODY_LIMIT));
  const project: Project = {
    id: randomId("prj_"), name: body.name, account_id: body.account_id ?? `acct_${randomBase62(12)}`, created_at: new Date().toISOString(),
  };
  await env.KEYS.put(`project:${project.id}`, JSON.stringify(project));
  return json(201, project);
}

async function listProjects(_r: IRequest, env: Env): Promise<Response> {
  const names = await listAll(env, "project:");
  const projects = await Promise.all(names.map((n) => env.KEYS.get<Project>(n, "json")));
  return json(200, projects.filter((p) => p !== null));
}

async function showProject(request: IRequest, env: Env): Promise<Response> {
  return json(200, await getProject(env, request.params.id ?? ""));
}

async function createKey(request: IRequest, env: Env): Promise<Response> {
  const project = await getProject(env, request.params.id ?? "");
  const body = parseWith(createKeySchema, await readJsonObject(request as unknown as Request, BODY_LIMIT));
  let key = generateApiKey();
  if (body.key !== undefined) {
    // Importing a chosen key (DEV_API_KEY). Outside development it must have the production form.
    const devForm = /^[\x21-\x7e]{16,128}$/.test(body.key);
    if (!KEY_PATTERN.test(body.key) && !(config(env).development && devForm)) {
      throw new HttpError(400, { error: "invalid key", message: "key must be sk_live_ followed by 32 base62 characters" });
    }
    key = body.key;
  }
  const hash = await sha256Hex(key);
  const existing = await env.KEYS.get<KeyMeta>(`key:${hash}`, "json");
  if (existing) {
    if (existing.project_id !== project.id) throw new HttpError(409, { error: "key already exists in another project" });
    return json(200, { ...publicKey(existing), key });
  }
  const meta: KeyMeta = {
    key_id: randomId("key_"), hash, project_id: project.id, account_id: project.account_id, name: body.name ?? "",
    tier: "beta", created_at: new Date().toISOString(),
  };
  await Promise.all([
    env.KEYS.put(`key:${hash}`, JSON.stringify(meta)),
    env.KEYS.put(`keyid:${meta.key_id}`, JSON.stringify(meta)),
    env.KEYS.put(`pkey:${project.id}:${meta.key_id}`, ""),
  ]);
  // The only time the plain key is ever shown.
  return json(201, { ...publicKey(meta), key });
}

async function listKeys(request: IRequest, env: Env): Promise<Response> {
  const project = await getProject(env, request.params.id ?? "");
  const ids = (await listAll(env, `pkey:${project.id}:`)).map((n) => n.slice(`pkey:${project.id}:`.length));
  const metas = await Promise.all(ids.map((id) => env.KEYS.get<KeyMeta>(`keyid:${id}`, "json")));
  return json(200, metas.filter((m): m is KeyMeta => m !== null).map(publicKey));
}

async function keyMeta(env: Env, keyId: string): Promise<KeyMeta> {
  const m = await env.KEYS.get<KeyMeta>(`keyid:${keyId}`, "json");
  if (!m) throw new HttpError(404, { error: "key not found" });
  return m;
}

async function deleteKey(request: IRequest, env: Env): Promise<Response> {
  const m = await keyMeta(env, request.params.id ?? "");
  await Promise.all([
    env.KEYS.delete(`key:${m.hash}`), env.KEYS.delete(`keyid:${m.key_id}`), env.KEYS.delete(`pkey:${m.project_id}:${m.key_id}`),
  ]);
  forgetKey(m.hash);
  return json(200, { deleted: true, key_id: m.key_id });
}

async function keyUsage(request: IRequest, env: Env): Promise<Response> {
  const m = await keyMeta(env, request.params.id ?? "");
  const usage = await env.KEY_DO.get(env.KEY_DO.idFromName(m.hash)).usage();
  return json(200, { key_id: m.key_id, ...usage });
}

async function createWebhook(request: IRequest, env: Env): Promise<Response> {
  const project = await getProject(env, request.params.id ?? "");
  const body = parseWith(createWebhookSchema, await readJsonObject(request as unknown as Request, BODY_LIMIT));
  const check = checkWebhookUrl(body.url, config(env).webhookDevAllow);
  if (!check.ok) throw new HttpError(400, { error: "invalid webhook url", message: check.reason });
  if (body.secret !== undefined && !secretKey(body.secret)) {
    throw new HttpError(400, { error: "invalid webhook secret", message: "the secret must be whsec_ followed by base64 of 24-64 bytes" });
  }
  const ep: WebhookEndpoint = {
    id: randomId("whk_"), project_id: project.id, url: check.url.toString(), secret: body.secret ?? generateSecret(),
    active: body.active ?? true, created_at: new Date().toISOString(),
  };
  await env.KEYS.put(`whk:${project.id}:${ep.id}`, JSON.stringify(ep));
  // The secret is returned here (the receiver needs it) and never again.
  return json(201, ep);
}

async function listWebhooks(request: IRequest, env: Env): Promise<Response> {
  const project = await getProject(env, request.params.id ?? "");
  const names = await listAll(env, `whk:${project.id}:`);
  const eps = await Promise.all(names.map((n) => env.KEYS.get<WebhookEndpoint>(n, "json")));
  return json(200, eps.filter((e): e is WebhookEndpoint => e !== null).map(({ secret: _s, ...rest }) => rest));
}

async function deleteWebhook(request: IRequest, env: Env): Promise<Response> {
  const key = `whk:${request.params.id ?? ""}:${request.params.wid ?? ""}`;
  if (!(await env.KEYS.get(key))) throw new HttpError(404, { error: "webhook endpoint not found" });
  await env.KEYS.delete(key);
  return json(200, { deleted: true, id: request.params.wid });
}

async function registerNode(request: IRequest, env: Env): Promise<Response> {
  const body = parseWith(registerNodeSchema, await readJsonObject(request as unknown as Request, BODY_LIMIT));
  const u = new URL(body.url);
  const loopback = u.hostname === "127.0.0.1" || u.hostname === "localhost" || u.hostname === "[::1]";
  // DESIGN §2: nodes listen with TLS except on loopback.
  if (u.protocol !== "https:" && !(u.protocol === "http:" && loopback)) {
    throw new HttpError(400, { error: "invalid node url", message: "the node URL must be https (http only on loopback)" });
  }
  const r = await fleet(env).register({ url: body.url, token: body.token, name: body.name });
  if (!r.ok) throw new HttpError(502, { error: "node unreachable", message: r.error });
  return json(201, r.node);
}

async function listNodes(_r: IRequest, env: Env): Promise<Response> {
  return json(200, await fleet(env).list());
}

async function removeNode(request: IRequest, env: Env): Promise<Response> {
  if (!(await fleet(env).remove(request.params.id ?? ""))) throw new HttpError(404, { error: "node not found" });
  return json(200, { deleted: true, id: request.params.id });
}

async function fleetStatus(_r: IRequest, env: Env): Promise<Response> {
  return json(200, await fleet(env).status());
}

export const adminRouter = IttyRouter<IRequest, Args>({ base: "/admin" })
  .post("/projects", createProject)
  .get("/projects", listProjects)
  .get("/projects/:id", showProject)
  .post("/projects/:id/keys", createKey)
  .get("/projects/:id/keys", listKeys)
  .post("/projects/:id/webhooks", createWebhook)
  .get("/projects/:id/webhooks", listWebhooks)
  .delete("/projects/:id/webhooks/:wid", deleteWebhook)
  .delete("/keys/:id", deleteKey)
  .get("/keys/:id/usage", keyUsage)
  .post("/nodes", registerNode)
  .get("/nodes", listNodes)
  .delete("/nodes/:id", removeNode)
  .get("/fleet", fleetStatus)
  .all("*", () => {
    throw new HttpError(404, { error: "not found" });
  });
