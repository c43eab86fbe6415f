// Admin API for project webhook endpoints (operator token; mounted by routes/admin.ts under
// /admin/projects/:id/webhooks). Secrets are shown once — on creation and on rotation — and never
// again: every other answer goes through publicEndpoint().
//
//   POST   /admin/projects/:id/webhooks                        {url, secret?, active?, description?} → 201 + secret
//   GET    /admin/projects/:id/webhooks                        endpoints
//   GET    /admin/projects/:id/webhooks/deliveries/:sub        delivery log of a submission (all endpoints)
//   GET    /admin/projects/:id/webhooks/:wid                   endpoint
//   PATCH  /admin/projects/:id/webhooks/:wid                   {url?, active?, description?}
//   DELETE /admin/projects/:id/webhooks/:wid
//   POST   /admin/projects/:id/webhooks/:wid/rotate            {secret?, grace_seconds?} → new secret (old one signs until grace ends)
//   POST   /admin/projects/:id/webhooks/:wid/test              one signed test delivery, answered with its outcome
//   GET    /admin/projects/:id/webhooks/:wid/deliveries/:sub   delivery log of a submission for this endpoint
import { IttyRouter } from "itty-router";
import type { IRequest } from "itty-router";
import type { Env } from "../env.ts";
import { HttpError, json, readJsonObject } from "../lib/http.ts";
import { UUID_PATTERN } from "../../../proto/limits.ts";
import { randomId } from "../lib/keys.ts";
import { getProject } from "../keys/records.ts";
import { webhookDelivery } from "../stubs.ts";
import { parseWith } from "../submit/validate.ts";
import { createWebhookSchema, rotateWebhookSchema, updateWebhookSchema } from "./admin-schemas.ts";
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from "../webhooks/attempt-policy.ts";
import { generateSecret, secretKey } from "../webhooks/signing.ts";
import { sendOnce } from "../webhooks/send-attempt.ts";
import { activeSecrets, deleteEndpoint, getEndpoint, projectEndpoints, publicEndpoint, putEndpoint } from "../webhooks/endpoints.ts";
import type { StoredEndpoint } from "../webhooks/endpoints.ts";
import { checkWebhookUrl, webhookPolicy } from "../webhooks/endpoint-url.ts";

type Args = [Env, ExecutionContext];
const BODY_LIMIT = 16 * 1024;
/** Endpoints per project: a submission fans out to each of them. */
const MAX_ENDPOINTS = 20;
const DEFAULT_GRACE_SECONDS = 24 * 3600;

async function body(request: IRequest): Promise<Record<string, unknown>> {
  const req = request as unknown as Request;
  // An empty body is an empty object for the calls whose fields are all optional.
  if (req.headers.get("content-length") === "0" || (!req.headers.get("content-type") && !req.body)) return {};
  return readJsonObject(req, BODY_LIMIT);
}

async function project(env: Env, id: string): Promise<{ id: string }> {
  const p = await getProject(env.KEYS, id);
  if (!p) throw new HttpError(404, { error: "project not found" });
  return p;
}

function policyOrThrow(env: Env) {
  const policy = webhookPolicy(env);
  // Loud, and a server-side fault: the edge is misconfigured, not the request.
  if (policy.configError) throw new HttpError(500, { error: "webhook configuration error", message: policy.configError });
  return policy;
}

function checkedUrl(env: Env, raw: string): string {
  const check = checkWebhookUrl(raw, policyOrThrow(env));
  if (!check.ok) throw new HttpError(400, { error: "invalid webhook url", message: check.reason });
  return check.url.toString();
}

function checkedSecret(secret: string | undefined): string {
  if (secret === undefined) return generateSecret();
  // The message never echoes the value.
  if (!secretKey(secret)) throw new HttpError(400, { error: "invalid webhook secret", message: "the secret must be whsec_ followed by base64 of 24-64 bytes" });
  return secret;
}

async function endpoint(request: IRequest, env: Env): Promise<StoredEndpoint> {
  const pid = request.params.id ?? "";
  await project(env, pid);
  const ep = await getEndpoint(env.KEYS, pid, request.params.wid ?? "");
  if (!ep) throw new HttpError(404, { error: "webhook endpoint not found" });
  return ep;
}

async function create(request: IRequest, env: Env): Promise<Response> {
  const p = await project(env, request.params.id ?? "");
  const b = parseWith(createWebhookSchema, await body(request));
  const url = checkedUrl(env, b.url);
  const secret = checkedSecret(b.secret);
  if ((await projectEndpoints(env.KEYS, p.id)).length >= MAX_ENDPOINTS) {
    throw new HttpError(409, { error: "too many webhook endpoints", message: `a project has at most ${MAX_ENDPOINTS} endpoints` });
  }
  const now = new Date().toISOString();
  const ep: StoredEndpoint = {
    id: randomId("whk_"), project_id: p.id, url, active: b.active ?? true, description: b.description ?? "",
    created_at: now, updated_at: now, active_since: now,
    secrets: [{ secret, created_at: now, expires_at: null }],
  };
  await putEndpoint(env.KEYS, ep);
  // The only time this secret is shown (the receiver needs it).
  return json(201, { ...publicEndpoint(ep), secret });
}

async function list(request: IRequest, env: Env): Promise<Response> {
  const p = await project(env, request.params.id ?? "");
  return json(200, (await projectEndpoints(env.KEYS, p.id)).map((e) => publicEndpoint(e)));
}

async function show(request: IRequest, env: Env): Promise<Response> {
  return json(200, publicEndpoint(await endpoint(request, env)));
}

async function update(request: IRequest, env: Env): Promise<Response> {
  const ep = await endpoint(request, env);
  const b = parseWith(updateWebhookSchema, await body(request));
  if (b.url !== undefined) ep.url = checkedUrl(env, b.url);
  const now = new Date().toISOString();
  if (b.active === true && !ep.active) ep.active_since = now;
  if (b.active !== undefined) ep.active = b.active;
  if (b.description !== undefined) ep.description = b.description;
  ep.updated_at = now;
  await putEndpoint(env.KEYS, ep);
  return json(200, publicEndpoint(ep));
}

async function remove(request: IRequest, env: Env): Promise<Response> {
  const ep = await endpoint(request, env);
  await deleteEndpoint(env.KEYS, ep);
  return json(200, { deleted: true, id: ep.id });
}

async function rotate(request: IRequest, env: Env): Promise<Response> {
  const ep = await endpoint(request, env);
  const b = parseWith(rotateWebhookSchema, await body(request));
  const secret = checkedSecret(b.secret);
  const now = Date.now();
  const grace = b.grace_seconds ?? DEFAULT_GRACE_SECONDS;
  const until = new Date(now + grace * 1000).toISOString();
  // Old secrets keep signing until the grace period ends (earlier expiries are kept); expired ones are dropped.
  const kept = ep.secrets
    .filter((s) => s.expires_at === null || Date.parse(s.expires_at) > now)
    .map((s) => ({ ...s, expires_at: s.expires_at !== null && s.expires_at < until ? s.expires_at : until }))
    .filter((s) => grace > 0);
  ep.secrets = [{ secret, created_at: new Date(now).toISOString(), expires_at: null }, ...kept];
  ep.updated_at = new Date(now).toISOString();
  await putEndpoint(env.KEYS, ep);
  return json(200, { ...publicEndpoint(ep), secret, previous_secrets_expire_at: kept.length > 0 ? until : null });
}

async function test(request: IRequest, env: Env): Promise<Response> {
  const ep = await endpoint(request, env);
  const policy = policyOrThrow(env);
  const check = checkWebhookUrl(ep.url, policy);
  if (!check.ok) throw new HttpError(400, { error: "invalid webhook url", message: check.reason });
  // A record-shaped test event: a fresh id (receivers de-duplicate by webhook-id), job_status "completed".
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const record = {
    id, language: "python", job_status: "completed", schema_version: "1.0", verdict: "AC", exit_code: 0, signal: null,
    stdout: "codecell webhook test\n", stderr: "", output_integrity: "complete", error_message: null, cpu_time_secs: 0,
    wall_time_secs: 0, memory_peak_bytes: 0, evidence: null, created_at: now, started_at: now, completed_at: now, test: true,
  };
  const t = Number(env.WEBHOOK_TIMEOUT_MS);
  const res = await sendOnce(check.url, activeSecrets(ep), id, JSON.stringify(record), Number.isFinite(t) && t >= 100 ? t : DEFAULT_ATTEMPT_TIMEOUT_MS);
  const delivered = res.status !== null && res.status >= 200 && res.status < 300;
  const error = res.error ? ` error="${res.error}"` : "";
  console.log(`webhook test endpoint=${ep.id} status=${res.status ?? "-"} latency_ms=${res.latency_ms} delivered=${delivered}${error}`);
  return json(200, { endpoint_id: ep.id, webhook_id: id, delivered, status: res.status, latency_ms: res.latency_ms, error: res.error });
}

async function deliveries(request: IRequest, env: Env): Promise<Response> {
  const pid = request.params.id ?? "";
  await project(env, pid);
  const sub = request.params.sub ?? "";
  if (!UUID_PATTERN.test(sub)) throw new HttpError(400, { error: "invalid submission id" });
  const wid = request.params.wid;
  if (wid !== undefined && !(await getEndpoint(env.KEYS, pid, wid))) throw new HttpError(404, { error: "webhook endpoint not found" });
  const log = await webhookDelivery(env, sub).log(pid, wid);
  if (!log) {
    const message = "the project had no active endpoint when it ended, it has not ended, or its log expired";
    throw new HttpError(404, { error: "no webhook deliveries for this submission", message });
  }
  return json(200, log);
}

export const webhooksRouter = IttyRouter<IRequest, Args>({ base: "/admin/projects/:id/webhooks" })
  .post("/", create)
  .get("/", list)
  .get("/deliveries/:sub", deliveries)
  .get("/:wid", show)
  .patch("/:wid", update)
  .delete("/:wid", remove)
  .post("/:wid/rotate", rotate)
  .post("/:wid/test", test)
  .get("/:wid/deliveries/:sub", deliveries);
