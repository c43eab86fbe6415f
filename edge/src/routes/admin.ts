// Operator API under /admin (bearer OPERATOR_TOKEN). Clean JSON in and out, for a CLI to build on.
// Projects and keys are stored by keys/records.ts; plain keys are never stored.
import { IttyRouter } from "itty-router";
import type { IRequest } from "itty-router";
import { forgetKey } from "./auth.ts";
import type { KeyMeta, KeyUsage } from "../contracts/key.ts";
import { config } from "../env.ts";
import type { Env } from "../env.ts";
import { HttpError, json, readJsonObject } from "../lib/http.ts";
import { randomBase62, randomId } from "../lib/keys.ts";
import { generateApiKey, importableKey, keyFingerprint, keyHash } from "../keys/api-key.ts";
import * as records from "../keys/records.ts";
import type { Project } from "../keys/records.ts";
import { parseWith } from "../submit/validate.ts";
import { cancelSubmissionSchema, createKeySchema, createProjectSchema, registerNodeSchema } from "./admin-schemas.ts";
import { webhooksRouter } from "./admin-webhooks.ts";
import { listPlans, putPlan, showPlan } from "./admin-plans.ts";
import { DEFAULT_PLAN, loadPlan, planOf } from "../plans/plans.ts";
import { nodeUrlProblem } from "../registry/node-url.ts";
import { DEFAULT_MAX_SLOTS } from "../registry/node-admission.ts";
import { DEFAULT_TOKEN_TTL_SECS, DEFAULT_TOKEN_USES, enrollmentTokenSchema } from "../registry/token-schema.ts";
import { dashboard, fleetRegistry as fleet, keyObject as keyStub, submissionObject } from "../stubs.ts";
import { UUID_PATTERN } from "../../../proto/limits.ts";
import { shardInUse } from "../contracts/submission-id.ts";

type Args = [Env, ExecutionContext];
const BODY_LIMIT = 64 * 1024;

function publicKey(m: KeyMeta) {
  return {
    key_id: m.key_id, name: m.name, project_id: m.project_id, account_id: m.account_id, tier: m.tier, plan: m.plan ?? DEFAULT_PLAN,
    fingerprint: keyFingerprint(m.hash), created_at: m.created_at,
  };
}

async function getProject(env: Env, id: string): Promise<Project> {
  const p = await records.getProject(env.KEYS, id);
  if (!p) throw new HttpError(404, { error: "project not found" });
  return p;
}

async function createProject(request: IRequest, env: Env): Promise<Response> {
  const body = parseWith(createProjectSchema, await readJsonObject(request as unknown as Request, BODY_LIMIT));
  const project: Project = {
    id: randomId("prj_"), name: body.name, account_id: body.account_id ?? `acct_${randomBase62(12)}`, created_at: new Date().toISOString(),
  };
  await records.putProject(env.KEYS, project);
  return json(201, project);
}

async function listProjects(_r: IRequest, env: Env): Promise<Response> {
  return json(200, await records.listProjects(env.KEYS));
}

async function showProject(request: IRequest, env: Env): Promise<Response> {
  return json(200, await getProject(env, request.params.id ?? ""));
}

async function createKey(request: IRequest, env: Env): Promise<Response> {
  const project = await getProject(env, request.params.id ?? "");
  const body = parseWith(createKeySchema, await readJsonObject(request as unknown as Request, BODY_LIMIT));
  if (body.plan !== undefined && !(await loadPlan(env, body.plan))) {
    const message = `no plan named '${body.plan}'; create it first (PUT /admin/plans/${body.plan}, codecell plans set ${body.plan} …)`;
    throw new HttpError(400, { error: "unknown plan", message });
  }
  let key = generateApiKey();
  if (body.key !== undefined) {
    // Importing a chosen key (DEV_API_KEY). Outside development it must have the production form.
    if (!importableKey(body.key, config(env).development)) {
      throw new HttpError(400, { error: "invalid key", message: "key must be sk_live_ followed by 32 base62 characters" });
    }
    key = body.key;
  }
  const hash = await keyHash(key);
  const existing = await records.keyByHash(env.KEYS, hash);
  if (existing) {
    if (existing.project_id !== project.id) throw new HttpError(409, { error: "key already exists in another project" });
    return json(200, { ...publicKey(existing), key });
  }
  const meta: KeyMeta = {
    key_id: randomId("key_"), hash, project_id: project.id, account_id: project.account_id, name: body.name ?? "",
    tier: "beta", created_at: new Date().toISOString(), ...(body.plan !== undefined && body.plan !== DEFAULT_PLAN ? { plan: body.plan } : {}),
  };
  await records.putKey(env.KEYS, meta);
  // An imported key may have been revoked before (same hash, same KeyDO): it works again.
  if (body.key !== undefined) await keyStub(env, hash).reinstate();
  await dashboard(env).keysChanged().catch(() => {});
  // The only time the plain key is ever shown.
  return json(201, { ...publicKey(meta), key });
}

async function listAllKeys(request: IRequest, env: Env): Promise<Response> {
  const project = new URL(request.url).searchParams.get("project");
  if (project) await getProject(env, project);
  return json(200, (await records.listKeys(env.KEYS, { projectId: project })).map(publicKey));
}

async function showKey(request: IRequest, env: Env): Promise<Response> {
  return json(200, publicKey(await keyMeta(env, request.params.id ?? "")));
}

/**
 * A new secret value for the same key id (project, name, tier unchanged). The old value is refused
 * from this moment: its KeyDO is marked revoked before KV changes. Usage counters start afresh
 * with the new value (they live in the KeyDO of the key's hash).
 */
async function rotateKey(request: IRequest, env: Env): Promise<Response> {
  const old = await keyMeta(env, request.params.id ?? "");
  const key = generateApiKey();
  const hash = await keyHash(key);
  await keyStub(env, old.hash).revoke();
  const meta: KeyMeta = { ...old, hash };
  await records.rehashKey(env.KEYS, old.hash, meta);
  forgetKey(old.hash);
  await dashboard(env).keysChanged().catch(() => {});
  return json(200, { ...publicKey(meta), key, rotated_at: new Date().toISOString(), previous_fingerprint: keyFingerprint(old.hash) });
}

async function usageView(env: Env, m: KeyMeta, u: Omit<KeyUsage, "revoked"> & { revoked?: boolean }) {
  const plan = await planOf(env, m);
  const c = u.counters;
  return {
    ...publicKey(m),
    requests_last_minute: u.requests_last_minute, rate_limit_per_min: plan.rate_per_minute,
    in_flight: u.in_flight, max_in_flight: plan.max_in_flight, live_sessions: u.live_sessions,
    rejected_429: (c.rejected_rate_limit ?? 0) + (c.rejected_concurrency ?? 0),
    rejected_rate_limit: c.rejected_rate_limit ?? 0, rejected_concurrency: c.rejected_concurrency ?? 0,
    totals: {
      requests: c.requests ?? 0, submissions: c.submissions ?? 0, completed: c.completed ?? 0, errors: c.errors ?? 0,
      rejected_queue_full: c.rejected_queue_full ?? 0, rejected_language: c.rejected_language ?? 0,
    },
    counters: c,
  };
}

async function allUsage(request: IRequest, env: Env): Promise<Response> {
  const project = new URL(request.url).searchParams.get("project");
  if (project) await getProject(env, project);
  const metas = await records.listKeys(env.KEYS, { projectId: project });
  const out = await Promise.all(metas.map(async (m) => await usageView(env, m, await keyStub(env, m.hash).usage())));
  return json(200, out);
}

async function listKeys(request: IRequest, env: Env): Promise<Response> {
  const project = await getProject(env, request.params.id ?? "");
  return json(200, (await records.listKeys(env.KEYS, { projectId: project.id })).map(publicKey));
}

async function keyMeta(env: Env, keyId: string): Promise<KeyMeta> {
  const m = await records.keyById(env.KEYS, keyId);
  if (!m) throw new HttpError(404, { error: "key not found" });
  return m;
}

async function deleteKey(request: IRequest, env: Env): Promise<Response> {
  const m = await keyMeta(env, request.params.id ?? "");
  // At once: the key's KeyDO, which every API request passes through, refuses it from now on.
  const cancelled = await keyStub(env, m.hash).revoke(true);
  await records.deleteKey(env.KEYS, m);
  forgetKey(m.hash);
  await dashboard(env).keysChanged().catch(() => {});
  return json(200, { deleted: true, revoked: true, key_id: m.key_id, cancelled_submissions: cancelled });
}

/** An operator ends a submission still in flight: it ends `error` with the reason, its run stops at its node. */
async function cancelSubmission(request: IRequest, env: Env): Promise<Response> {
  const id = (request.params.id ?? "").toLowerCase();
  if (!UUID_PATTERN.test(id)) throw new HttpError(400, { error: "invalid submission id" });
  const body = request.headers.get("content-type") ? parseWith(cancelSubmissionSchema, await readJsonObject(request as unknown as Request, BODY_LIMIT)) : {};
  const reason = body.reason ?? "";
  const why = `cancelled by an operator${reason ? `: ${reason}` : ""}`;
  if (!shardInUse(id, config(env).submissionShards)) throw new HttpError(404, { error: "submission not found" });
  if (await submissionObject(env, id).cancel(id, why)) return json(200, { id, cancelled: true });
  const rec = await submissionObject(env, id).get(id, null);
  if (!rec) throw new HttpError(404, { error: "submission not found" });
  return json(409, { error: "the submission has already ended", id, job_status: rec.job_status });
}

async function keyUsage(request: IRequest, env: Env): Promise<Response> {
  const m = await keyMeta(env, request.params.id ?? "");
  const usage = await keyStub(env, m.hash).usage();
  return json(200, { ...usage, ...(await usageView(env, m, usage)) });
}

async function registerNode(request: IRequest, env: Env): Promise<Response> {
  const body = parseWith(registerNodeSchema, await readJsonObject(request as unknown as Request, BODY_LIMIT));
  const problem = nodeUrlProblem(body.url);
  if (problem) throw new HttpError(400, { error: "invalid node url", message: problem });
  const r = await fleet(env).register({ url: body.url, token: body.token, name: body.name, pool: body.pool });
  if (!r.ok) throw new HttpError(502, { error: "node unreachable", message: r.error });
  return json(201, r.node);
}

async function listNodes(_r: IRequest, env: Env): Promise<Response> {
  return json(200, await fleet(env).list());
}

async function drainNode(request: IRequest, env: Env): Promise<Response> {
  const r = await fleet(env).drain(request.params.id ?? "");
  if (!r) throw new HttpError(404, { error: "node not found" });
  return json(200, r);
}

async function approveNode(request: IRequest, env: Env): Promise<Response> {
  const n = await fleet(env).approve(request.params.id ?? "");
  if (!n) throw new HttpError(404, { error: "node not found" });
  return json(200, n);
}

async function revokeNode(request: IRequest, env: Env): Promise<Response> {
  const n = await fleet(env).revoke(request.params.id ?? "");
  if (!n) throw new HttpError(404, { error: "node not found" });
  return json(200, n);
}

async function createEnrollmentToken(request: IRequest, env: Env): Promise<Response> {
  const body = parseWith(enrollmentTokenSchema, await readJsonObject(request as unknown as Request, BODY_LIMIT));
  // The plain token is shown here only.
  return json(201, await fleet(env).createEnrollmentToken({
    name: body.name ?? "", ttlSecs: body.ttl_secs ?? DEFAULT_TOKEN_TTL_SECS, maxUses: body.max_uses ?? DEFAULT_TOKEN_USES,
    maxSlots: body.max_slots ?? DEFAULT_MAX_SLOTS, requireApproval: body.require_approval ?? false,
  }));
}

async function listEnrollmentTokens(_r: IRequest, env: Env): Promise<Response> {
  return json(200, await fleet(env).listEnrollmentTokens());
}

async function revokeEnrollmentToken(request: IRequest, env: Env): Promise<Response> {
  if (!(await fleet(env).revokeEnrollmentToken(request.params.id ?? ""))) throw new HttpError(404, { error: "enrollment token not found" });
  return json(200, { deleted: true, id: request.params.id });
}

async function removeNode(request: IRequest, env: Env): Promise<Response> {
  if (!(await fleet(env).remove(request.params.id ?? ""))) throw new HttpError(404, { error: "node not found" });
  return json(200, { deleted: true, id: request.params.id });
}

async function fleetStatus(_r: IRequest, env: Env): Promise<Response> {
  const o = await fleet(env).overview();
  return json(200, { ...o.status, pools: o.pools });
}

export const adminRouter = IttyRouter<IRequest, Args>({ base: "/admin" })
  .post("/projects", createProject)
  .get("/projects", listProjects)
  .get("/projects/:id", showProject)
  .post("/projects/:id/keys", createKey)
  .get("/projects/:id/keys", listKeys)
  .all("/projects/:id/webhooks/*", webhooksRouter.fetch)
  .get("/keys", listAllKeys)
  .get("/keys/:id", showKey)
  .delete("/keys/:id", deleteKey)
  .post("/keys/:id/revoke", deleteKey)
  .post("/keys/:id/rotate", rotateKey)
  .get("/keys/:id/usage", keyUsage)
  .get("/usage", allUsage)
  .post("/submissions/:id/cancel", cancelSubmission)
  .post("/nodes", registerNode)
  .get("/nodes", listNodes)
  .post("/nodes/:id/drain", drainNode)
  .post("/nodes/:id/approve", approveNode)
  .post("/nodes/:id/revoke", revokeNode)
  .delete("/nodes/:id", removeNode)
  .post("/enrollment-tokens", createEnrollmentToken)
  .get("/enrollment-tokens", listEnrollmentTokens)
  .delete("/enrollment-tokens/:id", revokeEnrollmentToken)
  .get("/fleet", fleetStatus)
  .get("/plans", listPlans)
  .get("/plans/:name", showPlan)
  .put("/plans/:name", putPlan)
  .all("*", () => {
    throw new HttpError(404, { error: "not found" });
  });
