// The admin API's projects, keys, usage, submissions and plans (routes/admin.ts, routes/admin-plans.ts),
// described once: the OpenAPI document lists them under the `admin` tag. A route added to the admin
// router gets its row here, or in admin-fleet-routes.ts / admin-webhook-routes.ts (test/docs/openapi-admin.test.ts).
import { cancelSubmissionSchema, createKeySchema, createProjectSchema } from "../routes/admin-schemas.ts";
import { planUpdateSchema } from "../plans/plan-caps.ts";
import "./admin-requests.ts";
import * as a from "./admin-responses.ts";
import { bodyErrors, failure, notFound } from "./admin-errors.ts";
import type { RouteDoc } from "./routes.ts";

const tag = "admin" as const;
const KIB64 = "64 KiB";

const projects: RouteDoc[] = [
  {
    method: "post", path: "/admin/projects", operationId: "adminCreateProject", tag, summary: "Create a project", body: createProjectSchema,
    responses: { 201: { description: "The project", schema: a.project }, ...bodyErrors(KIB64) },
  },
  {
    method: "get", path: "/admin/projects", operationId: "adminListProjects", tag, summary: "List projects",
    responses: { 200: { description: "Every project", schema: a.projects } },
  },
  {
    method: "get", path: "/admin/projects/{id}", operationId: "adminShowProject", tag, summary: "Show a project", parameters: ["ProjectId"],
    responses: { 200: { description: "The project", schema: a.project }, ...notFound("project") },
  },
  {
    method: "post", path: "/admin/projects/{id}/keys", operationId: "adminCreateKey", tag, summary: "Create an API key in a project",
    description: "The plain key is in this answer only. Importing a value that is already a key of this project answers 200 with it.",
    parameters: ["ProjectId"], body: createKeySchema,
    responses: {
      200: { description: "The imported value was already this project's key", schema: a.createdKey },
      201: { description: "The key, with its value (shown once)", schema: a.createdKey },
      ...bodyErrors(KIB64, "Invalid body, an unknown plan, or an imported key of the wrong form"),
      ...notFound("project"),
      409: failure("The imported value is a key of another project"),
    },
  },
  {
    method: "get", path: "/admin/projects/{id}/keys", operationId: "adminListProjectKeys", tag, summary: "List a project's keys", parameters: ["ProjectId"],
    responses: { 200: { description: "The project's keys (never their values)", schema: a.apiKeys }, ...notFound("project") },
  },
];

const revoke = (method: "delete" | "post", path: string, operationId: string): RouteDoc => ({
  method, path, operationId, tag, summary: "Revoke a key",
  description: "Requests with the key are refused from this moment; its submissions in flight end `error` and their runs are cancelled at their nodes.",
  parameters: ["KeyId"],
  responses: { 200: { description: "Revoked", schema: a.deletedKey }, ...notFound("key") },
});

const keys: RouteDoc[] = [
  {
    method: "get", path: "/admin/keys", operationId: "adminListKeys", tag, summary: "List API keys", parameters: ["ProjectFilter"],
    responses: { 200: { description: "The keys (never their values)", schema: a.apiKeys }, ...notFound("project (?project=)") },
  },
  {
    method: "get", path: "/admin/keys/{id}", operationId: "adminShowKey", tag, summary: "Show a key", parameters: ["KeyId"],
    responses: { 200: { description: "The key (never its value)", schema: a.apiKey }, ...notFound("key") },
  },
  revoke("delete", "/admin/keys/{id}", "adminDeleteKey"),
  revoke("post", "/admin/keys/{id}/revoke", "adminRevokeKey"),
  {
    method: "post", path: "/admin/keys/{id}/rotate", operationId: "adminRotateKey", tag, summary: "Give a key a new value",
    description: "Same key id, project, name and plan; the old value is refused at once and usage counters start afresh.",
    parameters: ["KeyId"],
    responses: { 200: { description: "The key with its new value (shown once)", schema: a.rotatedKey }, ...notFound("key") },
  },
  {
    method: "get", path: "/admin/keys/{id}/usage", operationId: "adminKeyUsage", tag, summary: "A key's usage", parameters: ["KeyId"],
    responses: { 200: { description: "The key's usage against its plan", schema: a.keyUsageDetail }, ...notFound("key") },
  },
  {
    method: "get", path: "/admin/usage", operationId: "adminUsage", tag, summary: "Every key's usage", parameters: ["ProjectFilter"],
    responses: { 200: { description: "One entry per key", schema: a.keyUsages }, ...notFound("project (?project=)") },
  },
  {
    method: "post", path: "/admin/submissions/{id}/cancel", operationId: "adminCancelSubmission", tag, summary: "Cancel a submission in flight",
    description: "It ends `error` with the reason, and its run is stopped at its node. The body may be left out.",
    parameters: ["SubmissionId"], body: cancelSubmissionSchema, bodyOptional: true,
    responses: {
      200: { description: "Cancelled", schema: a.cancelledSubmission },
      ...bodyErrors(KIB64, "The id is not a UUID, or the body is invalid"),
      ...notFound("submission"),
      409: { description: "The submission had already ended", schema: a.submissionEnded },
    },
  },
];

const plans: RouteDoc[] = [
  {
    method: "get", path: "/admin/plans", operationId: "adminListPlans", tag, summary: "List plans",
    responses: { 200: { description: "Every plan, the default one always, by name", schema: a.plans } },
  },
  {
    method: "get", path: "/admin/plans/{name}", operationId: "adminShowPlan", tag, summary: "Show a plan", parameters: ["PlanName"],
    responses: { 200: { description: "The plan", schema: a.plan }, 400: failure("Invalid plan name"), ...notFound("plan") },
  },
  {
    method: "put", path: "/admin/plans/{name}", operationId: "adminSetPlan", tag, summary: "Create or change a plan",
    description: "Fields not given keep their value; a new plan starts from the default plan's.",
    parameters: ["PlanName"], body: planUpdateSchema,
    responses: {
      200: { description: "The changed plan", schema: a.plan },
      201: { description: "The new plan", schema: a.plan },
      ...bodyErrors("16 KiB", "Invalid plan name or body (a cap above the node's maximum names the field)"),
    },
  },
];

export const ADMIN_ROUTES: RouteDoc[] = [...projects, ...keys, ...plans];
